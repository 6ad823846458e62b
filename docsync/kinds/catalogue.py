"""Every managed kind: adding a kind is adding its module, and its name to `KIND_MODULES`.

A module listed contributes each `Kind` subclass it defines with a `declaration` (see
`docsync.core.kind`); helper modules are not listed. The list is static, so a run imports what
it names and nothing else (no scan of the package); `tests/core/test_catalogue.py` scans the
package and fails when a module defining a kind is missing here. The catalogue puts the
declarations in dependency order, and the manifest's entry models are derived from them: a
nested kind's list (`sections`, `siteSpaces`) is added to each of its parents' entry models.

Importing this loads the kinds' modules but not the API client: kinds import `docsync.api` only
for its error types (`docsync.api.errors`, plain Python), so `docsync validate` stays light.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from pydantic import BaseModel, create_model
from pydantic import Field as Limits

from docsync.core.kind import Catalogue, Declaration
from docsync.kinds.base import Kind

#: The modules of `docsync.kinds` that define kinds, by name (sorted).
KIND_MODULES = (
    "collections",
    "external_links",
    "grants",
    "integration_sites",
    "integration_spaces",
    "integrations",
    "invite_links",
    "members",
    "openapi",
    "saml",
    "section_groups",
    "sections",
    "settings",
    "site_agent_settings",
    "site_customization",
    "site_mcp_servers",
    "site_publishing_auth",
    "site_redirects",
    "site_share_links",
    "site_space_customization",
    "site_spaces",
    "sites",
    "spaces",
    "team_members",
    "teams",
    "translations",
)


def _discover() -> list[Kind]:
    found: list[Kind] = []
    for name in KIND_MODULES:
        module = importlib.import_module(f"docsync.kinds.{name}")
        for value in vars(module).values():
            declared = isinstance(value, type) and issubclass(value, Kind)
            if declared and value.__module__ == module.__name__ and "declaration" in vars(value):
                found.append(value())
    return found


_FOUND = {kind.name: kind for kind in _discover()}

#: Every declaration, in dependency order (referenced kinds first, the organization settings
#: after the site they name).
CATALOGUE = Catalogue(*(kind.declaration for kind in _FOUND.values()))

#: One kind per declaration, in the catalogue's order.
KINDS: tuple[Kind, ...] = tuple(_FOUND[declared.name] for declared in CATALOGUE)


def kind_named(name: str) -> Kind:
    return _FOUND[name]


def bare_sections() -> set[str]:
    """What stands bare in an address, with no key: a singleton (`settings`), or a part with
    one action of its own on its parent (`site["Docs"].redirects`, which carries a payload of
    its own); a team's members are in the team's action, a grant has a key."""
    singles = {d.section for d in CATALOGUE if d.singleton}
    return singles | {k.section for k in KINDS if getattr(k, "part_payload", None) is not None}


@cache
def entry_model(name: str) -> type[BaseModel]:
    """The manifest entry model of a kind: its declared model, plus the list of each kind nested
    in it (a site's `sections`, `siteSpaces`, `sectionGroups`)."""
    declared = CATALOGUE.named(name)
    if declared.entry is None:
        raise RuntimeError(f"kind {name!r} declares no manifest entry model")
    children = CATALOGUE.children(name)
    if not children and not declared.renamable:
        return declared.entry
    added: dict[str, Any] = {
        child.section: (
            list[entry_model(child.name)] | None,  # type: ignore[misc]
            Limits(default=None, description=_list_description(child, declared)),
        )
        for child in children
    }
    if declared.renamable:
        added["was"] = (str | None, Limits(default=None, min_length=1, description=_was(declared)))
    derived: type[BaseModel] = create_model(
        declared.entry.__name__,
        __base__=declared.entry,
        __module__=declared.entry.__module__,
        __doc__=declared.entry.__doc__,
        **added,
    )
    return derived


def _was(declared: Declaration) -> str:
    return (
        f"The {declared.key} this {declared.noun} had: the plan renames the live one so named "
        "in place (its id, and what it holds, kept) instead of creating another; ignored once "
        "renamed."
    )


def _list_description(child: Declaration, parent: Declaration) -> str:
    exact = "; when written, the exact list" if child.exact else ""
    first = child.parents[0]
    alone = f" (of a {parent.noun} without {CATALOGUE.named(first).plural})"
    alone = alone if parent.name != first else ""
    return f"The {child.plural} of this {parent.noun}{alone}{exact}."
