"""Strategies of sites for the cross-kind property test: sections (renamed with `was:` now and
then), section groups holding them, site spaces with customization overrides, external links at
the root or in a group, redirects to a URL, a section or a site space, share links, publishing
auth, customization and grants, or a site whose site spaces stand at its root."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from tests.engine.every_kind_org import Doc, granted, names, renamed_from, sometimes

SITES = ("Developer Docs", "Partner Docs")
SECTIONS = ("Guides", "API", "Operations")
GROUPS = ("Learn", "Run")
LINKS = ("Status", "Forum")
PATHS = ("latest", "v1")
SHARE_LINKS = ("Partner preview", "Agency")
SOURCES = ("/old", "/start", "/blog/*")
VISIBILITIES = ("public", "unlisted", "share-link", "visitor-auth")
#: an override of the site's customization on a site space: removed (null) or a value that
#: production's schema and the emulator take
OVERRIDES: tuple[Any, ...] = (
    None,
    {"trademark": {"enabled": False}},
    {"styling": {"theme": "muted"}, "pagination": {"enabled": False}},
)
CUSTOMIZATIONS: tuple[Doc, ...] = (
    {"styling": {"theme": "clean"}},
    {"styling": {"theme": "bold", "primaryColor": {"light": "#0B5FFF"}}},
    {"trademark": {"enabled": False}, "pagination": {"enabled": True}},
)

#: localized texts: languages set and removed (null), as production's maps take them
LOCALIZED: tuple[Doc, ...] = ({"de": "Anleitungen"}, {"de": None, "fr": "Guides"}, {"fr": None})


def _one_default(draw: st.DrawFn, items: list[Doc]) -> None:
    index = draw(st.none() | st.integers(0, len(items) - 1))
    if index is not None:
        items[index]["default"] = True


@st.composite
def site_spaces(draw: st.DrawFn, spaces: list[str]) -> list[Doc]:
    out: list[Doc] = []
    for path in draw(st.lists(st.sampled_from(PATHS), min_size=1, unique=True)):
        item: Doc = {"space": draw(st.sampled_from(spaces)), "path": path}
        sometimes(draw, item, "condition", st.sampled_from(("visitor.claims.beta", None)))
        sometimes(draw, item, "customization", st.sampled_from(OVERRIDES))
        for flag in ("hidden", "draft"):
            sometimes(draw, item, flag, st.booleans())
        sometimes(draw, item, "pageId", st.sampled_from(("page-start", None)))
        out.append(item)
    _one_default(draw, out)
    return out


@st.composite
def sections(draw: st.DrawFn, spaces: list[str], old: Doc) -> list[Doc]:
    titles = draw(st.lists(st.sampled_from(SECTIONS), min_size=1, unique=True))
    taken = set(titles)
    out: list[Doc] = []
    for title in titles:
        section: Doc = {"title": title, "path": title.lower()}
        renamed_from(draw, section, names(old, "sections"), taken)
        sometimes(draw, section, "icon", st.sampled_from(("book", None)))
        sometimes(draw, section, "description", st.sampled_from(("Start here", None)))
        sometimes(draw, section, "localizedTitle", st.sampled_from(LOCALIZED))
        sometimes(draw, section, "localizedDescription", st.sampled_from(LOCALIZED))
        sometimes(draw, section, "draft", st.booleans())
        section["siteSpaces"] = draw(site_spaces(spaces))
        out.append(section)
    _one_default(draw, out)
    return out


@st.composite
def groups(draw: st.DrawFn, titles: list[str], old: Doc) -> list[Doc]:
    """Section groups: each section in one group at most, a group possibly empty."""
    chosen = draw(st.lists(st.sampled_from(GROUPS), unique=True))
    taken = set(chosen)
    out: list[Doc] = [{"title": title, "sections": []} for title in chosen]
    for group in out:
        renamed_from(draw, group, names(old, "sectionGroups"), taken)
        sometimes(draw, group, "icon", st.sampled_from(("star", None)))
        sometimes(draw, group, "localizedTitle", st.sampled_from(LOCALIZED))
        sometimes(draw, group, "draft", st.booleans())
    if out:
        for title in titles:
            index = draw(st.none() | st.integers(0, len(out) - 1))
            if index is not None:
                out[index]["sections"].append(title)
    return out


@st.composite
def links(draw: st.DrawFn, site: Doc, old: Doc) -> list[Doc]:
    """External links at the root or in a group, each after an item of its level or first."""
    grouped = {t for g in site["sectionGroups"] for t in g["sections"]}
    levels: dict[str | None, list[str]] = {
        None: [s["title"] for s in site["sections"] if s["title"] not in grouped]
        + [g["title"] for g in site["sectionGroups"]]
    }
    for group in site["sectionGroups"]:
        levels[group["title"]] = list(group["sections"])
    titles = draw(st.lists(st.sampled_from(LINKS), unique=True))
    taken = set(titles)
    out: list[Doc] = []
    for title in titles:
        link: Doc = {"title": title, "url": f"https://{title.lower()}.acme.example"}
        renamed_from(draw, link, names(old, "externalLinks"), taken)
        group = draw(st.sampled_from(list(levels)))
        if group is not None:
            link["group"] = group
        if levels[group]:
            sometimes(draw, link, "after", st.sampled_from(levels[group]))
        sometimes(draw, link, "icon", st.sampled_from(("house", None)))
        sometimes(draw, link, "localizedTitle", st.sampled_from((*LOCALIZED, None)))
        sometimes(draw, link, "localizedDescription", st.sampled_from((*LOCALIZED, None)))
        sometimes(draw, link, "draft", st.booleans())
        out.append(link)
    return out


@st.composite
def redirects(draw: st.DrawFn, site: Doc) -> list[Doc]:
    targets: list[Doc] = [{"url": "https://acme.example/moved"}]
    for section in site.get("sections") or []:
        targets.append({"section": section["title"]})
        targets += [
            {"section": section["title"], "siteSpace": s["path"]} for s in section["siteSpaces"]
        ]
    targets += [{"siteSpace": s["path"]} for s in site.get("siteSpaces") or []]
    out: list[Doc] = []
    for source in draw(st.lists(st.sampled_from(SOURCES), unique=True)):
        rule: Doc = {"source": source, "destination": draw(st.sampled_from(targets))}
        sometimes(draw, rule, "permanent", st.booleans())
        if source.endswith("*"):
            sometimes(draw, rule, "captureWildcard", st.booleans())
        out.append(rule)
    return out


@st.composite
def site(draw: st.DrawFn, entry: Doc, spaces: list[str], teams: list[str], old: Doc) -> Doc:
    """A site (`entry`: its title, and `was:` if renamed); `old`: the site of the manifest
    before that it matches, whose sections, groups and links it may rename."""
    visibility = draw(st.sampled_from((None, *VISIBILITIES)))
    if visibility is not None:
        entry["visibility"] = visibility
    sometimes(draw, entry, "published", st.booleans())
    if draw(st.integers(0, 3)) == 0:
        entry["siteSpaces"] = draw(site_spaces(spaces))
    else:
        entry["sections"] = draw(sections(spaces, old))
        if draw(st.booleans()):
            entry["sectionGroups"] = draw(groups([s["title"] for s in entry["sections"]], old))
            sometimes(draw, entry, "externalLinks", links(entry, old))
    sometimes(draw, entry, "redirects", redirects(entry))
    if draw(st.booleans()):
        entry["shareLinks"] = [
            {"name": name, **({"active": False} if draw(st.booleans()) else {})}
            for name in draw(st.lists(st.sampled_from(SHARE_LINKS), unique=True))
        ]
    if visibility == "visitor-auth" and draw(st.booleans()):
        auth: Doc = {"backend": draw(st.sampled_from(("custom", "integration")))}
        sometimes(draw, auth, "fallbackURL", st.sampled_from(("https://acme.example/login", None)))
        sometimes(draw, auth, "logoutURL", st.sampled_from(("https://acme.example/bye", None)))
        entry["publishingAuth"] = auth
    sometimes(draw, entry, "customization", st.sampled_from(CUSTOMIZATIONS))
    granted(draw, entry, teams, guests=True)
    return entry


@st.composite
def sites(draw: st.DrawFn, spaces: list[str], teams: list[str], before: Doc | None) -> list[Doc]:
    titles = draw(st.lists(st.sampled_from(SITES), unique=True))
    olds = {s["title"]: s for s in (before or {}).get("sites", []) if s.get("state") != "absent"}
    taken = set(titles)
    out: list[Doc] = []
    for title in titles:
        entry: Doc = {"title": title}
        if title not in olds:
            renamed_from(draw, entry, list(olds), taken)
        old = olds.get(title) or olds.get(entry.get("was", ""), {})
        out.append(draw(site(entry, spaces, teams, old)))
    return out
