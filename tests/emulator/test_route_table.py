"""The emulator's routes are made by its table (moto's generic backend: a route module holds only
what is special about its resource), and its route modules are kept by family, as the kinds are.

The share is counted from the routes the app serves, in each contract mode: a route the table
made says which entry made it (`route.entry`); one written by hand says nothing."""

from __future__ import annotations

import importlib
from collections import Counter
from pathlib import Path

import pytest
from starlette.routing import Route

from docsync.emulator.app import EmulatorConfig, create_app, route_modules
from docsync.emulator.defaults import CONTRACTS, Contract
from docsync.kinds import FRAMEWORK_PACKAGES

PACKAGE = Path(__file__).resolve().parents[2] / "docsync"
#: the least share of the app's routes the table makes (issue 40)
TABLE_SHARE = 0.90


def _served(mode: Contract) -> list[Route]:
    """The API routes of an app of `mode` (the control API aside)."""
    app = create_app(EmulatorConfig(contract=mode))
    return [r for r in app.router.routes if isinstance(r, Route) and r.path.startswith("/v1/")]


def _name(route: Route) -> str:
    methods = sorted(set(route.methods or ()) - {"HEAD"})
    return f"{' '.join(methods)} {route.path}"


@pytest.mark.parametrize("mode", CONTRACTS)
def test_the_table_makes_nine_routes_in_ten(mode: Contract) -> None:
    served = _served(mode)
    by_hand = [_name(route) for route in served if getattr(route, "entry", None) is None]
    share = 1 - len(by_hand) / len(served)
    assert share >= TABLE_SHARE, (
        f"the table makes {share:.1%} of the {len(served)} routes; written by hand: {by_hand}"
    )


@pytest.mark.parametrize("mode", CONTRACTS)
def test_each_route_is_served_once(mode: Contract) -> None:
    twice = [name for name, n in Counter(map(_name, _served(mode))).items() if n > 1]
    assert not twice


def _families(package: Path) -> set[str]:
    return {path.name for path in package.iterdir() if (path / "__init__.py").is_file()}


def test_route_modules_are_kept_by_family_as_the_kinds_are() -> None:
    routes = PACKAGE / "emulator" / "routes"
    # the kinds' framework packages define no kind, so no route module matches them
    assert _families(routes) == _families(PACKAGE / "kinds") - set(FRAMEWORK_PACKAGES)
    assert sorted(path.name for path in routes.glob("*.py")) == ["__init__.py"]


def test_every_route_module_serves_routes() -> None:
    """What serves no route belongs where its concept is, beside the table, not in routes/."""
    idle = [
        name
        for name in route_modules()
        if not getattr(importlib.import_module(f"docsync.emulator.routes.{name}"), "routes", None)
    ]
    assert not idle
