"""Every managed kind, from the generated list of the kinds' classes (`registry.py`, written by
`bash scripts/generate`, which `tests/core/test_catalogue.py` holds to what the family packages
define): the kinds in dependency order, their declarations, and what is derived from them for
the manifest (each kind's entry model with the lists nested in it and the parts written with
it, `was` on a renamable kind's).

Importing this loads the kinds' modules but not the API client: kinds import `docsync.api` only
for its error types and answer shapes (plain Python), so `docsync validate` stays light.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

from pydantic import BaseModel, create_model
from pydantic import Field as Limits

from docsync.core.nullability import NULL
from docsync.kinds.declaration import Declaration
from docsync.kinds.kind import Kind, Kinds
from docsync.kinds.registry import KIND_CLASSES

#: Where a kind stands among the kinds free to go at its turn (dependencies always come
#: first): the order of manifests' sections, listings, exports and plans. A kind this table
#: does not name goes after those it names, by name. docs/architecture.md shows the result.
ORDER = (
    "grant",
    "member",
    "invite_link",
    "integration",
    "integration_site",
    "integration_space",
    "team",
    "team_member",
    "saml",
    "collection",
    "space",
    "openapi",
    "translation",
    "site",
    "git_sync",
    "section",
    "site_space",
    "section_group",
    "external_link",
    "redirect",
    "settings",
    "share_link",
    "publishing_auth",
    "customization",
    "agent_settings",
    "space_customization",
    "mcp_server",
    "context_connection",
    "channel",
)

#: Every kind, in dependency order (referenced kinds first, the organization settings after
#: the site they name); each kind holds this object (`Kind.kinds`).
KINDS = Kinds(KIND_CLASSES, ORDER)

#: Every declaration, in the same order.
CATALOGUE = KINDS.declarations


def kind_named(name: str) -> Kind:
    return KINDS.named(name)


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
    parts = [
        part
        for part in CATALOGUE.parts(name)
        if part.entry is not None and part.section not in declared.entry.model_fields
    ]
    if not children and not parts and not declared.renames:
        return declared.entry
    added: dict[str, Any] = {
        child.section: (
            list[entry_model(child.name)] | None,  # type: ignore[misc]
            Limits(default=None, description=_list_description(child, declared)),
        )
        for child in children
    }
    added |= {part.section: (_written_as(part), Limits(default=None)) for part in parts}
    if declared.renames:
        added["was"] = (str | None, Limits(default=None, min_length=1, description=_was(declared)))
    derived: type[BaseModel] = create_model(
        declared.entry.__name__,
        __base__=declared.entry,
        __module__=declared.entry.__module__,
        __doc__=declared.entry.__doc__,
        **added,
    )
    return derived


def _written_as(part: Declaration) -> Any:
    """The annotation of a part's field in its parents' entry models, with its description."""
    assert part.entry is not None
    # a renamable part's entries say what they were called (`was:`), as a kind's entries do
    entry = entry_model(part.name) if part.renames else part.entry
    held: Any = entry if part.singleton else list[entry]  # type: ignore[valid-type]
    marks: list[Any] = [Limits(description=part.describe)] if part.describe else []
    if part.nullable:
        marks.append(NULL)
    return Annotated[held | None, *marks] if marks else held | None


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


def registry_source(classes: list[type[Kind]]) -> str:
    """The source of `registry.py` for these classes (`bash scripts/generate` finds them)."""
    ordered = sorted(classes, key=lambda c: (c.__module__, c.__name__))
    by_module: dict[str, list[str]] = {"docsync.kinds.kind": ["Kind"]}
    for cls in ordered:
        by_module.setdefault(cls.__module__, []).append(cls.__name__)
    imports = "\n".join(
        f"from {module} import {', '.join(sorted(names))}"
        for module, names in sorted(by_module.items())
    )
    names = "".join(f"    {c.__name__},\n" for c in ordered)
    return (
        '"""Every kind\'s class, by family. Generated by `bash scripts/generate` from the classes\n'
        "the family packages define (a `Kind` subclass with a `declaration`): do not edit.\n"
        '`tests/core/test_catalogue.py` fails when this differs from what the packages define."""\n'
        "\nfrom __future__ import annotations\n\n"
        f"{imports}\n\n"
        f"KIND_CLASSES: tuple[type[Kind], ...] = (\n{names})\n"
    )
