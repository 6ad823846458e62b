"""Strategies of the organization's kinds for the cross-kind property test: settings, members,
teams with members, SAML, collections, spaces, grants, OpenAPI, translations and an
integration's installations.

Names come from small pools, so that two manifests drawn one after the other share resources
(matched, changed, renamed with `was:` or left behind) as often as they differ. Every manifest is
valid by construction: references name entries of the same manifest (or the seed's space), keys
are unique, and the token's user (ada, an admin) keeps its role.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

Doc = dict[str, Any]

ROLES = ("admin", "create", "review", "edit", "comment", "read")
#: the seed's members (examples/emulator-seed.yaml) other than the token's user, ada
OTHERS = ("lin@acme.example", "sam@acme.example", "kim@acme.example", "guest@partner.example")
GUEST = "guest@partner.example"
USER_IDS = {
    "lin@acme.example": "u_lin",
    "sam@acme.example": "u_sam",
    "kim@acme.example": "u_kim",
    "guest@partner.example": "u_guest",
}
TEAMS = ("Platform", "Writers", "Support")
LABELS = ("Okta", "Entra")
COLLECTIONS = ("Developers", "Operators", "Internal")
SPACES = ("Guides", "Reference", "Runbooks", "Changelog")
#: a space of the seed, there before docsync runs: sites may publish it by title
SEED_SPACE = "Internal Handbook"
SLUGS = ("public-api", "admin-api")
LANGUAGES = ("fr", "de")
#: the one integration installed (the seed's), and its account configuration (a text, which
#: export writes as an env() template)
INTEGRATION = "google-analytics"
TRACKING_ID = "G-PROPERTY-1"


def sometimes(draw: st.DrawFn, entry: Doc, key: str, values: st.SearchStrategy[Any]) -> None:
    """Writes `key` in `entry` or leaves it out (not managed), each half the time."""
    if draw(st.booleans()):
        entry[key] = draw(values)


def names(before: Doc | None, section: str, key: str = "title") -> list[str]:
    """The names of what `before` (the manifest applied first) made live in a section."""
    entries = (before or {}).get(section, [])
    return [str(e[key]) for e in entries if e.get("state") != "absent"]


def renamed_from(draw: st.DrawFn, entry: Doc, olds: list[str], taken: set[str]) -> None:
    """Half the time `was:` a name of `olds` (what the manifest before made) that no entry of
    this one keeps or claims: it renames that live resource in place (or, where the entry's own
    key is live too, is ignored)."""
    free = [name for name in olds if name not in taken]
    if free and draw(st.booleans()):
        entry["was"] = draw(st.sampled_from(free))
        taken.add(entry["was"])


@st.composite
def settings(draw: st.DrawFn, sites: list[str]) -> Doc:
    """The organization's settings. `sso` is left out: enforcing it on ada, who does not sign in
    with SAML, is refused by the lock-out rail (its own test: tests/gitops/test_safety.py)."""
    out: Doc = {}
    sometimes(draw, out, "title", st.sampled_from(("Acme", "Acme Corp")))
    sometimes(draw, out, "defaultRole", st.sampled_from((*ROLES, None)))
    sometimes(draw, out, "inviteLinks", st.booleans())
    sometimes(draw, out, "ai", st.booleans())
    sometimes(
        draw,
        out,
        "emailDomains",
        st.sampled_from((["acme.example"], ["acme.example", "acme.test"])),
    )
    sometimes(draw, out, "hostname", st.sampled_from(("acme", "acme-docs")))
    sometimes(draw, out, "logo", st.sampled_from(("https://acme.example/logo.png", None)))
    targets = [{"site": s} for s in sites]
    sometimes(draw, out, "defaultContent", st.sampled_from((*targets, None)))
    return out


@st.composite
def members(draw: st.DrawFn, leaving: bool) -> list[Doc]:
    """Roles of the seed's members, raised, lowered or made guests (null), written by email (in
    any case) or by user id; ada is written as the admin it stays, or not at all. `leaving`:
    the guest, whom no team or grant names, may leave the organization (in the last manifest
    only: a member who left cannot be written again, docsync does not invite)."""
    out: list[Doc] = []
    if draw(st.booleans()):
        out.append({"email": "ada@acme.example", "role": "admin"})
    for email in draw(st.lists(st.sampled_from(OTHERS), unique=True)):
        how = draw(st.sampled_from(("email", "upper", "id")))
        entry: Doc = (
            {"id": USER_IDS[email]}
            if how == "id"
            else {"email": email.upper() if how == "upper" else email}
        )
        if leaving and email == GUEST and draw(st.booleans()):
            entry["state"] = "absent"
        else:
            entry["role"] = draw(st.sampled_from((*ROLES, None)))
        out.append(entry)
    return out


#: the members teams and grants name (not the guest, who may leave)
USERS = ("ada@acme.example", *OTHERS[:3])


@st.composite
def teams(draw: st.DrawFn, before: Doc | None) -> list[Doc]:
    titles = draw(st.lists(st.sampled_from(TEAMS), unique=True))
    taken = set(titles)
    out: list[Doc] = []
    for title in titles:
        team: Doc = {"title": title}
        renamed_from(draw, team, names(before, "teams"), taken)
        if draw(st.booleans()):
            users = draw(st.lists(st.sampled_from(USERS), unique=True, max_size=3))
            owners = draw(st.sets(st.sampled_from(users))) if users else set()
            team["members"] = [{"user": u, "role": "owner"} if u in owners else u for u in users]
        out.append(team)
    return out


@st.composite
def saml(draw: st.DrawFn, team_titles: list[str], before: Doc | None) -> list[Doc]:
    """SAML providers; `defaultTeam` names a team of the manifest, created in the same apply
    when it is new."""
    out: list[Doc] = []
    labels = draw(st.lists(st.sampled_from(LABELS), unique=True))
    taken = set(labels)
    for label in labels:
        provider: Doc = {
            "label": label,
            "ssoURL": f"https://{label.lower()}.acme.example/sso",
            "entityID": draw(st.sampled_from(("urn:acme:one", "urn:acme:two"))),
            "certificate": "{{ env('SAML_CERT') }}",
        }
        renamed_from(draw, provider, names(before, "saml", "label"), taken)
        if team_titles:
            sometimes(draw, provider, "defaultTeam", st.sampled_from(team_titles))
        sometimes(draw, provider, "defaultRole", st.sampled_from(("read", "edit", None)))
        out.append(provider)
    return out


@st.composite
def permissions(draw: st.DrawFn, team_titles: list[str], guests: bool) -> Doc:
    """Direct grants to the manifest's teams and the seed's members; `guests`: a site, where
    a grant may be null (a guest override)."""
    roles = st.sampled_from((*ROLES, None) if guests else ROLES)
    out: Doc = {}
    if draw(st.booleans()):
        chosen = draw(st.lists(st.sampled_from(team_titles), unique=True)) if team_titles else []
        out["teams"] = {t: draw(roles) for t in chosen}
    if draw(st.booleans()):
        chosen = draw(st.lists(st.sampled_from(USERS), unique=True, max_size=2))
        out["members"] = {u: draw(roles) for u in chosen}
    return out


def granted(draw: st.DrawFn, entry: Doc, team_titles: list[str], guests: bool = False) -> None:
    if draw(st.booleans()):
        entry["permissions"] = draw(permissions(team_titles, guests))


@st.composite
def collections(draw: st.DrawFn, team_titles: list[str], before: Doc | None) -> list[Doc]:
    """Top-level collections, the later ones now and then nested in an earlier one; `was:`
    renames one, or moves it (`was: Developers/Internal`)."""
    titles = draw(st.lists(st.sampled_from(COLLECTIONS), unique=True))
    out: list[Doc] = []
    for index, title in enumerate(titles):
        entry: Doc = {"title": title}
        if index and draw(st.integers(0, 2)) == 0:
            entry["parent"] = draw(st.sampled_from(titles[:index]))
        out.append(entry)
    paths = collection_paths({"collections": out})
    olds = {path: title for title, path in collection_paths(before or {}).items()}
    moved_from(draw, out, list(paths.values()), olds, COLLECTIONS)
    for entry in out:
        sometimes(draw, entry, "description", st.sampled_from(("For builders", "")))
        sometimes(draw, entry, "defaultLevel", st.sampled_from(("read", "edit", "inherit")))
        granted(draw, entry, team_titles)
    return out


@st.composite
def spaces(
    draw: st.DrawFn, team_titles: list[str], holders: dict[str, str], before: Doc | None
) -> list[Doc]:
    """Spaces at the top level or in a collection of the manifest (`holders`: their paths by
    title); `was:` renames one, or moves it (`was: Developers/Guides`)."""
    out: list[Doc] = []
    for title in draw(st.lists(st.sampled_from(SPACES), unique=True)):
        entry: Doc = {"title": title}
        if holders:
            sometimes(draw, entry, "collection", st.sampled_from((*holders, None)))
        out.append(entry)
    olds = {key: title for key, title in space_keys(before or {}).items()}
    moved_from(
        draw, out, list(space_keys({"collections": [], "spaces": out}, holders)), olds, SPACES
    )
    for entry in out:
        if draw(st.booleans()):  # an emoji or an icon, the other removed (null) or not written
            sometimes(draw, entry, "emoji", st.sampled_from(("1f4d8", None)))
        else:
            sometimes(draw, entry, "icon", st.sampled_from(("https://acme.example/i.png", None)))
        sometimes(draw, entry, "editMode", st.sampled_from(("live", "locked")))
        sometimes(draw, entry, "defaultLevel", st.sampled_from(("read", "comment", "inherit")))
        granted(draw, entry, team_titles)
    return out


def space_keys(doc: Doc, paths: dict[str, str] | None = None) -> dict[str, str]:
    """Key (`Developers/Guides`) -> title of a manifest's spaces."""
    paths = collection_paths(doc) if paths is None else paths
    return {
        f"{paths[e['collection']]}/{e['title']}" if e.get("collection") else e["title"]: e["title"]
        for e in doc.get("spaces", [])
        if e.get("state") != "absent"
    }


def moved_from(
    draw: st.DrawFn, out: list[Doc], keys: list[str], olds: dict[str, str], pool: tuple[str, ...]
) -> None:
    """`was:` for entries keyed by a path (`Developers/Guides`): each may name one of `olds`
    (what the manifest before made: key -> title) that no entry keeps by key nor claimed
    already, with its own title (moved) or a title no entry has (renamed, moved or not)."""
    titles = {e["title"] for e in out}
    claimed: set[str] = set()
    for entry in out:
        free = [
            key
            for key, title in olds.items()
            if key not in keys
            and title not in claimed
            and title in (entry["title"], *(t for t in pool if t not in titles))
        ]
        renamed_from(draw, entry, free, set())
        if "was" in entry:
            claimed.add(olds[entry["was"]])


def collection_paths(doc: Doc) -> dict[str, str]:
    """Title -> key (its path from the top: `Developers/Internal`) of a manifest's collections."""
    entries = {c["title"]: c for c in doc.get("collections", []) if c.get("state") != "absent"}

    def path(title: str) -> str:
        parent = entries[title].get("parent")
        return f"{path(parent)}/{title}" if parent else title

    return {title: path(title) for title in entries}


@st.composite
def openapi(draw: st.DrawFn) -> list[Doc]:
    out: list[Doc] = []
    for slug in draw(st.lists(st.sampled_from(SLUGS), unique=True)):
        version = draw(st.sampled_from(("v1", "v2")))
        entry: Doc = {"slug": slug, "source": {"url": f"https://acme.example/{version}.yaml"}}
        sometimes(draw, entry, "visibility", st.sampled_from(("public", "private")))
        out.append(entry)
    return out


@st.composite
def translations(draw: st.DrawFn, space_titles: list[str]) -> list[Doc]:
    """Production's translations: a space of the manifest (or the seed's) into a language."""
    pairs = [(s, lang) for s in (*space_titles, SEED_SPACE) for lang in LANGUAGES]
    out: list[Doc] = []
    for space, language in draw(st.lists(st.sampled_from(pairs), unique=True, max_size=3)):
        entry: Doc = {"space": space, "language": language}
        sometimes(draw, entry, "sourceLanguage", st.just("en"))
        sometimes(draw, entry, "instructions", st.sampled_from(("Keep names.", "One.\n\nTwo.")))
        out.append(entry)
    return out


@st.composite
def integrations(draw: st.DrawFn, sites: list[str], spaces: list[str]) -> list[Doc]:
    """The seed's integration installed on some of the manifest's sites and spaces, named by
    their titles (the new ones of those `was:` renames: the installation stays where it is),
    with a configuration there or none."""
    entry: Doc = {"name": INTEGRATION, "configuration": {"tracking_id": TRACKING_ID}}
    configured = st.sampled_from(({}, {"configuration": {"anonymize": True}}))
    if sites and draw(st.booleans()):
        chosen = draw(st.lists(st.sampled_from(sites), unique=True))
        entry["sites"] = {title: draw(configured) for title in chosen}
    if draw(st.booleans()):
        entry["spaces"] = {
            title: {} for title in draw(st.lists(st.sampled_from(spaces), unique=True))
        }
    return [entry]
