"""What a manifest B would delete of what manifest A left live, and which of those deletes
`plan` rightly refuses: a resource B neither manages nor deletes (or manages without writing
the field) still names it. `validate` cannot know (it reads no live state), and docsync refuses
such a plan, located at the delete, as Terraform refuses to destroy what another resource
uses. The property test is about what applies, so `settle` takes those deletes out of B.

The model follows docs/manifest.md: keys (a collection's path, a space's key within its
collection, a translation's `space:language`), matching by key and then by `was:`, and `prune:`
globs matched against names."""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatchcase

from tests.engine.every_kind_org import SEED_SPACE, Doc, collection_paths

Res = tuple[str, str]  # (kind, key)
#: manifest section -> kind, and the field naming each entry
SECTIONS = {
    "teams": ("team", "title"),
    "saml": ("saml", "label"),
    "collections": ("collection", "title"),
    "spaces": ("space", "title"),
    "openapi": ("openapi", "slug"),
    "translations": ("translation", "space"),
    "sites": ("site", "title"),
}


@dataclass
class Resource:
    """A live resource (or a manifest entry) by key, with its name and what it names, per
    field (`structure`: the spaces a site publishes)."""

    kind: str
    key: str
    name: str
    refs: dict[str, list[Res]] = field(default_factory=dict)
    absent: bool = False
    was: str | None = None


def resources(doc: Doc) -> list[Resource]:
    """The entries of a manifest as resources, keyed and referring as docsync keys them."""
    paths = collection_paths(doc)
    spaces = {SEED_SPACE: SEED_SPACE}
    out: list[Resource] = []
    for section, (kind, name_field) in SECTIONS.items():
        for entry in doc.get(section, []):
            absent = entry.get("state") == "absent"
            name = str(entry[name_field])
            key, refs = name, {}
            if kind == "saml" and entry.get("defaultTeam"):
                refs["defaultTeam"] = [("team", entry["defaultTeam"])]
            elif kind == "collection" and not absent:
                key = paths[name]
                if entry.get("parent"):
                    refs["parent"] = [("collection", paths[entry["parent"]])]
            elif kind == "space":
                holder = entry.get("collection")
                key = f"{paths.get(holder, holder)}/{name}" if holder else name
                spaces[name] = key
                if holder:
                    refs["collection"] = [("collection", paths.get(holder, holder))]
            elif kind == "translation":
                space = spaces[entry["space"]]
                key = name = f"{space}:{entry['language']}"
                refs["space"] = [("space", space)]
            elif kind == "site":
                levels = [s["siteSpaces"] for s in entry.get("sections", [])]
                levels += [entry["siteSpaces"]] if "siteSpaces" in entry else []
                if "sections" in entry or "siteSpaces" in entry:
                    refs["structure"] = [("space", spaces[i["space"]]) for lv in levels for i in lv]
            out.append(Resource(kind, key, name, refs, absent, entry.get("was")))
    for entry in doc.get("integrations", []):
        refs = {"sites": [("site", title) for title in entry.get("sites") or {}]}
        refs["spaces"] = [("space", spaces[title]) for title in entry.get("spaces") or {}]
        out.append(Resource("integration", entry["name"], entry["name"], refs))
    if doc.get("settings", {}).get("defaultContent"):
        refs = {"defaultContent": [("site", doc["settings"]["defaultContent"]["site"])]}
        out.append(Resource("settings", "", "", refs))
    return out


def _pruned(prune: object, section: str, name: str) -> bool:
    if isinstance(prune, list):
        return section in prune
    if isinstance(prune, dict) and section in prune:
        globs = prune[section]
        return any(fnmatchcase(name, g) for g in ([globs] if isinstance(globs, str) else globs))
    return False


def outcome(first: Doc, second: Doc) -> tuple[dict[Res, Resource], set[Res]]:
    """What stays live after B's apply (with the references it then holds) and what B deletes."""
    live = {(r.kind, r.key): r for r in resources(first) if not r.absent}
    entries = resources(second)
    matched: dict[Res, Resource] = {}  # live resource -> the entry that took it
    for entry in entries:
        res = (entry.kind, entry.key)
        if res in live and res not in matched:
            matched[res] = entry
    for entry in entries:
        if entry.was and not entry.absent and (entry.kind, entry.key) not in matched:
            named = [
                r
                for r in live.values()
                if r.kind == entry.kind
                and entry.was in (r.name, r.key)
                and (r.kind, r.key) not in matched
            ]
            if len(named) == 1:
                matched[(entry.kind, named[0].key)] = entry
    deleted: set[Res] = set()
    kept: dict[Res, Resource] = {}
    sections = {kind: section for section, (kind, _) in SECTIONS.items()}
    for res, resource in live.items():
        entry = matched.get(res)
        if entry is None and resource.kind == "settings" and "settings" in second:
            entry = Resource("settings", "", "", _settings_refs(second))
        if (entry is not None and entry.absent) or (
            entry is None and _pruned(second.get("prune"), sections.get(res[0], ""), resource.name)
        ):
            deleted.add(res)
            continue
        if entry is not None:
            # A field B writes names what B says; a space's or collection's container is
            # where B's key puts it, written or not (renamed out of one, it moves to the top).
            scoped = resource.kind in ("collection", "space")
            refs = entry.refs if scoped else {**resource.refs, **entry.refs}
            resource = Resource(resource.kind, resource.key, resource.name, refs)
        kept[res] = resource
    for entry in entries:  # what B creates or adopts names only what B keeps
        if not entry.absent:
            kept.setdefault((entry.kind, entry.key), entry)
    return kept, deleted


def _settings_refs(second: Doc) -> dict[str, list[Res]]:
    """B's settings override the live default content when they write it (null included)."""
    if "defaultContent" not in second["settings"]:
        return {}
    target = second["settings"]["defaultContent"]
    return {"defaultContent": [("site", target["site"])] if target else []}


def refused(first: Doc, second: Doc) -> set[Res]:
    """The resources B deletes while a resource that stays still names them."""
    kept, deleted = outcome(first, second)
    return {ref for r in kept.values() for refs in r.refs.values() for ref in refs} & deleted


def settle(first: Doc, second: Doc) -> Doc:
    """B without the deletes `plan` would refuse: their `state: absent` entries dropped, their
    kind taken out of `prune:` (whatever stays then keeps what it names: repeated to a fixed
    point)."""
    _redirects_follow_the_structure(first, second)
    sections = {kind: section for section, (kind, _) in SECTIONS.items()}
    while found := refused(first, second):
        for kind, key in found:
            section = sections[kind]
            second[section] = [
                e
                for e in second.get(section, [])
                if not (e.get("state") == "absent" and _absent_key(second, e) == key)
            ]
            prune = second.get("prune")
            if isinstance(prune, list) and section in prune:
                prune.remove(section)
            elif isinstance(prune, dict):
                prune.pop(section, None)
    return second


def _absent_key(doc: Doc, entry: Doc) -> str:
    paths = collection_paths(doc)
    holder = entry.get("collection")
    title = str(entry.get("title") or entry.get("label") or entry.get("slug"))
    return f"{paths.get(holder, holder)}/{title}" if holder else title


def _redirects_follow_the_structure(first: Doc, second: Doc) -> None:
    """Excluded: a live redirect B does not manage, to a section or site space B's structure
    deletes. It is left pointing at nothing, export cannot name its destination and leaves it
    out, and the export's plan deletes it (docs/manifest.md, "Redirect": a documented exception
    to the law of export, reported with this test). B manages such a site's redirects instead."""
    rules = {
        s["title"]: s["redirects"]
        for s in first.get("sites", [])
        if any("url" not in r["destination"] for r in s.get("redirects", []))
    }
    live = {s["title"] for s in first.get("sites", [])}
    for site in second.get("sites", []):
        old = site["title"] if site["title"] in live else site.get("was")
        rewritten = "sections" in site or "siteSpaces" in site
        if old in rules and rewritten and "redirects" not in site:
            site["redirects"] = []
