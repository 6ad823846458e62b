"""A strategy of the cross-kind property test: what manifest A made and named, renamed by
manifest B with `was:` and named there by its new name, as an installation, a translation, the
organization's default content or a SAML provider names it. The other strategies draw renames
and references independently, and meet them about once in a hundred histories; here, in one
history of two, a space, site or team of A gets a new name in B, named in A by its old name and
in B by its new one (issue 43: such a plan uninstalled and installed the same installation at
once, or made a translation twice)."""

from __future__ import annotations

from collections.abc import Callable

import yaml
from hypothesis import strategies as st

from tests.engine.every_kind_org import (
    INTEGRATION,
    LANGUAGES,
    SEED_SPACE,
    SPACES,
    TEAMS,
    TRACKING_ID,
    Doc,
    names,
    space_keys,
)
from tests.engine.every_kind_sites import SITES

#: the names a rename may give, each pool's with one only renames give
NEW_NAMES = {
    "teams": (*TEAMS, "Authors"),
    "spaces": (*SPACES, "Manuals"),
    "sites": (*SITES, "Docs Hub"),
}
#: what names a resource: (A, the old name; B, the new name) -> both manifests changed
Namer = Callable[[st.DrawFn, Doc, Doc, str, str], None]


def _installed(doc: Doc, level: str, name: str) -> None:
    """The integration installed on `name` too (its entry written, if the manifest has none)."""
    entries = doc.setdefault("integrations", [])
    if not entries:
        entries.append({"name": INTEGRATION, "configuration": {"tracking_id": TRACKING_ID}})
    entries[0].setdefault(level, {})[name] = {}


def _translated(draw: st.DrawFn, first: Doc, second: Doc, old: str, new: str) -> None:
    language = draw(st.sampled_from(LANGUAGES))
    for doc, space in ((first, old), (second, new)):
        entries = doc.setdefault("translations", [])
        if not any(t["space"] == space and t["language"] == language for t in entries):
            entries.append({"space": space, "language": language})


def _installed_on(level: str) -> Namer:
    def name(draw: st.DrawFn, first: Doc, second: Doc, old: str, new: str) -> None:
        _installed(first, level, old)
        _installed(second, level, new)

    return name


def _default_content(draw: st.DrawFn, first: Doc, second: Doc, old: str, new: str) -> None:
    first.setdefault("settings", {})["defaultContent"] = {"site": old}
    second.setdefault("settings", {})["defaultContent"] = {"site": new}


def _providers(first: Doc, second: Doc) -> list[tuple[Doc, Doc]]:
    """A SAML provider of A that B writes too, by its label (and renames from none)."""
    theirs = {p["label"]: p for p in second.get("saml", []) if "was" not in p and "state" not in p}
    return [(p, theirs[p["label"]]) for p in first.get("saml", []) if p["label"] in theirs]


def _default_team(draw: st.DrawFn, first: Doc, second: Doc, old: str, new: str) -> None:
    before, after = draw(st.sampled_from(_providers(first, second)))
    before["defaultTeam"], after["defaultTeam"] = old, new


NAMERS: dict[str, tuple[Namer, ...]] = {
    "spaces": (_translated, _installed_on("spaces")),
    "sites": (_installed_on("sites"), _default_content),
    "teams": (_default_team,),
}


def renamed_and_named(draw: st.DrawFn, first: Doc, second: Doc) -> None:
    """In one history of two, B renames a space, site or team A made (or the seed's space)
    that B does not mention otherwise, both naming it, each by the name it has there."""
    if not draw(st.booleans()):
        return
    written = yaml.safe_dump(second, allow_unicode=True)
    titles = {key: title for key, title in space_keys(first).items()}
    olds = {
        "spaces": {**titles, SEED_SPACE: SEED_SPACE},
        "sites": {title: title for title in names(first, "sites")},
        "teams": {title: title for title in names(first, "teams") if _providers(first, second)},
    }
    live = {section: set(found.values()) for section, found in olds.items()}
    choices = [
        (section, key, title, new)
        for section, found in olds.items()
        for key, title in found.items()
        if title not in written
        for new in NEW_NAMES[section]
        if new not in live[section] and new not in written
    ]
    if not choices:
        return
    section, key, title, new = draw(st.sampled_from(choices))
    second.setdefault(section, []).append({"title": new, "was": key})
    draw(st.sampled_from(NAMERS[section]))(draw, first, second, title, new)
