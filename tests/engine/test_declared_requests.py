"""Every kind runs its requests from its declaration: each request a kind sends, reading for a
plan, applying it, settling a write whose answer was lost and exporting, is one its declaration
names (`Declaration.routes`: its list and item, their verbs, the requests of its own it names,
a field's own request), by method and path; a kind that declares no routes (a team's members,
a resource's grants) sends nothing itself: its parents' routes name its requests, and they
send them for it.

The requests are read as they are sent: while one of a kind's methods runs (the innermost, so
a part read or written by its holder is the part's), every request the client sends is that
kind's. The scenario covers every kind and every action: the golden scenario's two manifests
applied in turn (creates, updates, replaces, a restore, deletes, reorders, publishing), the rich
example's stages applied on the example's seed, an export, then every kind's declared
lost-answer scenarios (`Declaration.lost_answers`), each of their lost answers injected as
declared and counted, so that what settles each (what a lost create is found by, what an
idempotent write is read back by) is read on every run."""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from docsync.api import ApiClient
from docsync.api import client as api_client
from docsync.api.retry import RetryPolicy
from docsync.engine import run
from docsync.export import export_organization
from docsync.kinds import KINDS, CrudKind
from docsync.kinds.declaration import Declaration
from docsync.kinds.kind import Kind
from docsync.kinds.requests import Found, LostAnswers, Route, Routes
from docsync.manifest import load_manifests
from tests.emulator_harness import EmulatorHandle
from tests.engine.rich import EXAMPLE, STAGES
from tests.engine.test_e2e_lost_answers import SCENARIOS, injected, rule
from tests.gitops.conftest import CERT_AFTER, CERT_BEFORE, MANIFESTS, SEED

#: the kind whose method is running (its innermost), by whose name its requests are recorded
_RUNNING: contextvars.ContextVar[str] = contextvars.ContextVar("kind", default="")
#: (method, path) of each request sent, by kind
Sent = dict[str, set[tuple[str, str]]]
#: (method, path) the last route made (`Route.at`), which the request that follows must be
_ROUTED: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar(
    "routed", default=None
)
#: inside a request the client sends (its own reads within it are that request's)
_SENDING: contextvars.ContextVar[bool] = contextvars.ContextVar("sending", default=False)
#: what each kind sent by a path no route of it made just before, by kind
_UNROUTED: Sent = defaultdict(set)


def declared(kind: Kind) -> list[tuple[str, str]]:
    """(method, path template) of every request the kind's declaration names."""
    found: list[tuple[str, str]] = []
    routes = kind.declaration.routes
    if routes is not None:
        found += [(route.method, route.path) for route in routes.every().values()]
    found += [f.route for f in kind.fields if f.route is not None]
    return found


def matches(template: str, path: str) -> bool:
    """Whether a sent path is the template's, each `{...}` one segment."""
    pattern = "".join(
        "[^/]+" if part.startswith("{") else re.escape(part)
        for part in re.split(r"(\{[^}]+\})", template)
    )
    return re.fullmatch(pattern, path) is not None


def _record(sent: Sent, method: str, path: str) -> None:
    request = (method.upper(), path.split("?", 1)[0])
    if _RUNNING.get():
        sent[_RUNNING.get()].add(request)
        if not _SENDING.get() and _ROUTED.get() != request:
            _UNROUTED[_RUNNING.get()].add(request)
    _ROUTED.set(None)


def _routed_at(at: Any) -> Any:
    def made(route: Route, **params: Any) -> str:
        path: str = at(route, **params)
        _ROUTED.set((route.method, path))
        return path

    return made


def _sending(method: Any) -> Any:
    async def sending(*args: Any, **kwargs: Any) -> Any:
        token = _SENDING.set(True)
        try:
            return await method(*args, **kwargs)
        finally:
            _SENDING.reset(token)

    return sending


def _attributed(kind: Kind, name: str, method: Any) -> Any:
    async def running(*args: Any, **kwargs: Any) -> Any:
        token = _RUNNING.set(kind.name)
        try:
            return await method(*args, **kwargs)
        finally:
            _RUNNING.reset(token)

    return running


@pytest.fixture(scope="module")
def sent(
    emulator_server: EmulatorHandle, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Sent]:
    """What every kind sent through the scenario."""
    found: Sent = defaultdict(set)
    _UNROUTED.clear()
    get, list_all, write = ApiClient.get, ApiClient.list_all, ApiClient.write

    async def recorded_get(self: ApiClient, path: str, *args: Any, **kwargs: Any) -> Any:
        _record(found, "GET", path)
        return await _sending(get)(self, path, *args, **kwargs)

    async def recorded_list(self: ApiClient, path: str, *args: Any, **kwargs: Any) -> Any:
        _record(found, "GET", path)
        return await _sending(list_all)(self, path, *args, **kwargs)

    async def recorded_write(
        self: ApiClient, method: str, path: str, *args: Any, **kwargs: Any
    ) -> Any:
        _record(found, method, path)
        return await _sending(write)(self, method, path, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Route, "at", _routed_at(Route.at))
        patch.setattr(ApiClient, "get", recorded_get)
        patch.setattr(ApiClient, "list_all", recorded_list)
        patch.setattr(ApiClient, "write", recorded_write)
        for kind in KINDS:
            for name, method in inspect.getmembers(kind, inspect.iscoroutinefunction):
                if not name.startswith("__"):
                    patch.setattr(kind, name, _attributed(kind, name, method))
        _scenario(emulator_server, patch, tmp_path_factory.mktemp("declared"))
        yield found
    emulator_server.reset()


def _scenario(emulator: EmulatorHandle, patch: pytest.MonkeyPatch, folder: Path) -> None:
    emulator.reset(SEED)
    patch.setenv("SAML_CERT", CERT_BEFORE)
    _apply(emulator, load_manifests([MANIFESTS / "before.yaml"]))
    with emulator.client() as client:
        assert client.delete("/v1/spaces/space_scratch").status_code == 205
    patch.setenv("SAML_CERT", CERT_AFTER)
    _apply(emulator, load_manifests([MANIFESTS / "after.yaml"]), clean=False)
    emulator.reset()
    for stage in STAGES:
        _apply(emulator, load_manifests([EXAMPLE], variables={"stage": stage}))
    asyncio.run(_export(emulator))
    patch.setattr(api_client, "RetryPolicy", partial(RetryPolicy, base=0.0005))
    for scenario in SCENARIOS.values():
        _lost(emulator, scenario, folder)


def _lost(emulator: EmulatorHandle, scenario: LostAnswers, folder: Path) -> None:
    """A kind's declared scenario: its setup applied, then each step with its answers lost as
    declared, every one of them (so what settles each lost answer is read every run)."""
    emulator.reset()
    manifest = folder / "lost.yaml"
    manifest.write_text(scenario.setup)
    _apply(emulator, load_manifests([manifest]))
    for step in scenario.steps:
        manifest.write_text(step.manifest)
        before = injected(emulator)
        emulator.set_faults(rules=[rule(lose) for lose in step.lose])
        _apply(emulator, load_manifests([manifest]))
        assert injected(emulator) - before == sum(lose.count for lose in step.lose), scenario
        emulator.set_faults()


def _apply(emulator: EmulatorHandle, loaded: Any, clean: bool = True) -> None:
    async def both() -> None:
        async with ApiClient(emulator.url, "tok_ada") as api:
            plan, live = await run.plan(api, loaded)
            report = await run.apply(api, plan, live, parallelism=4)
            if clean:
                assert report.summary().endswith("0 failed, 0 skipped"), report.summary()

    asyncio.run(both())


async def _export(emulator: EmulatorHandle) -> None:
    async with ApiClient(emulator.url, "tok_ada") as api:
        await export_organization(api, "org_acme")


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_a_kind_sends_only_the_requests_its_declaration_names(kind: Kind, sent: Sent) -> None:
    if kind.declaration.routes is None:
        # written in its parents' requests (a team's members, a resource's grants), which
        # their declarations name and which they send, by name, for it
        assert not sent[kind.name], (
            f"{kind.name} declares no routes, yet sends {sorted(sent[kind.name])[:8]}: its "
            "parents' routes name its requests, sent through them (`Kind.send`)"
        )
        parents = kind.declaration.parents
        assert any(sent[p] for p in parents), f"{parents} sent nothing: the scenario misses it"
        return
    assert sent[kind.name], f"{kind.name} sent nothing: the scenario does not cover it"
    routes = declared(kind)
    unnamed = sorted(
        f"{method} {path}"
        for method, path in sent[kind.name]
        if not any(method == verb and matches(template, path) for verb, template in routes)
    )
    assert not unnamed, (
        f"{kind.name} sends requests its declaration does not name: {unnamed[:8]} (declared: "
        f"{sorted(f'{m} {t}' for m, t in routes)})"
    )


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_a_kind_sends_each_request_by_its_route(kind: Kind, sent: Sent) -> None:
    unrouted = sorted(f"{method} {path}" for method, path in _UNROUTED[kind.name])
    assert not unrouted, (
        f"{kind.name} sends requests by paths written by hand, not made by its routes: "
        f"{unrouted[:8]}; send each by its name (`Kind.send`, `parts.send_under` with "
        "`Kind.route`), so that its declaration is what runs"
    )


def test_a_path_matches_its_template_segment_by_segment() -> None:
    assert matches("/v1/orgs/{org}/sites/{site}/redirects", "/v1/orgs/o/sites/s1/redirects")
    assert not matches("/v1/orgs/{org}/sites/{site}", "/v1/orgs/o/sites/s1/redirects")
    assert not matches("/v1/orgs/{org}/sites", "/v1/orgs/o/sites/s1")


def test_an_unpaged_list_is_one_answer_holding_every_item() -> None:
    """A list production does not page (`Routes(paged=False)`) is read with one GET answering
    `{items: [...]}`: each item is checked for what the kind relies on, never the whole answer
    as one item (which no kind's list passed: every read of it failed on a missing `id`)."""
    declaration = Declaration(
        "font", "fonts", "font", "fontFamily", routes=Routes("/v1/orgs/{org}/fonts", paged=False)
    )
    kind = type("FontKind", (CrudKind,), {"declaration": declaration})()
    answer = kind.route("list").answer
    assert answer is not None
    assert not answer.problems({"items": [{"id": "f1", "fontFamily": "Inter"}]})
    assert answer.problems({"items": [{"fontFamily": "Inter"}]})  # an item without its id
    paged = replace(declaration, routes=Routes("/v1/orgs/{org}/fonts"))
    assert type("Paged", (CrudKind,), {"declaration": paged})().route("list").answer == kind.answer


FOUND = Found(
    "by space and language, or else by title",
    (("space", "source.space"), ("language", "language")),
    otherwise=Found("by title", (("title", "title"),)),
)
LISTED = [
    {"id": "t1", "title": "Docs (de)", "source": {"space": "s1"}, "language": "de"},
    {"id": "t2", "title": "Docs (fr)", "source": {"space": "s1"}, "language": "fr"},
    {"id": "t3", "title": "Docs (fr)", "source": {"space": "s2"}, "language": "fr"},
]


@pytest.mark.parametrize(
    ("written", "key", "found"),
    [
        ({"space": "s1", "language": "fr", "title": "x"}, "k", "t2"),  # the first way
        ({"title": "Docs (fr)"}, "k", "t3"),  # the other way: the last listed that matches
        ({"space": "s9", "language": "fr"}, "k", None),  # not made
        ({"language": "fr"}, "k", None),  # no space: by title, which is not written
        ({"space": "s1"}, "k", None),  # a field of the way not written compares as null
    ],
)
def test_a_lost_create_is_found_as_its_declaration_says(
    written: dict[str, Any], key: str, found: str | None
) -> None:
    assert FOUND.id_in(LISTED, written, key) == found
    installation = Found("by its integration", key_at="integration.name", id_at="installation.id")
    pairs = [{"integration": {"name": "ga"}, "installation": {"id": "i1"}}]
    assert (
        installation.id_in(pairs, {}, "ga") == "i1" and installation.id_in(pairs, {}, "x") is None
    )


def test_no_listed_kind_says_how_its_lost_creates_are_found_in_code_of_its_own() -> None:
    """A listed kind's lost create is found as its declaration says (`Found`, or its key), by
    `CrudKind.find`: none overrides it."""
    overriding = [
        k.name for k in KINDS if isinstance(k, CrudKind) and type(k).find is not CrudKind.find
    ]
    assert not overriding, overriding
