"""Load and apply the seed (../shared/INTERFACE.md §3): users, organizations, members, spaces,
and the integrations organizations can install (`seed_integrations.py`).

Extensions beyond the interface: optional `collections` and `teams`, optional extra organization
fields (emailDomains, hostname, defaultRole, inviteLinks, sso, ai, type, plan), member `sso`,
production's space templates (`spaceTemplates`, `space_templates.py`), and a snapshot of an
organization (`snapshot`, `snapshot.py`: what `docsync export --format emulator-seed` writes),
loaded after the rest by the routes that answered it. A seed file is YAML, or JSON (a snapshot
is written so: read as JSON, it loads in a fraction of YAML's time).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from starlette.routing import BaseRoute

from docsync.emulator.errors import SeedError
from docsync.emulator.seed_integrations import apply_integrations, check_integrations
from docsync.emulator.snapshot import TOKEN_PREFIX, check_snapshot, load_snapshot
from docsync.emulator.space_templates import check_templates, insert_templates
from docsync.emulator.store import Tx

ROLES = ("admin", "create", "review", "edit", "comment", "read")
_ORG_EXTRAS = (
    "emailDomains",
    "hostname",
    "defaultRole",
    "inviteLinks",
    "sso",
    "ai",
    "type",
    "plan",
    "githubAccountConnected",
)


def default_seed() -> dict[str, Any]:
    """The seed shipped inside the package (the same as examples/emulator-seed.yaml)."""
    text = resources.files("docsync.emulator").joinpath("default-seed.yaml").read_text("utf-8")
    return parse_seed(text, "default-seed.yaml")


def load_seed(source: str | Path | dict[str, Any] | None) -> dict[str, Any]:
    """A seed from a YAML file path, an already parsed mapping, or the default when None."""
    if source is None:
        return default_seed()
    if isinstance(source, dict):
        check_seed(source, "seed")
        return source
    path = Path(source)
    try:
        text = path.read_text("utf-8")
    except OSError as error:
        raise SeedError(f"cannot read seed file {path}: {error.strerror}") from error
    return parse_seed(text, str(path))


def parse_seed(text: str, origin: str) -> dict[str, Any]:
    """Parse YAML (or JSON) text into a checked seed; SeedError names the file and the entry."""
    try:
        data = _json(text) if text.lstrip().startswith("{") else yaml.safe_load(text)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{origin}:{mark.line + 1}:{mark.column + 1}" if mark else origin
        problem = getattr(error, "problem", None) or "cannot be parsed"
        raise SeedError(f"{where}: not valid YAML: {problem}") from None
    if not isinstance(data, dict):
        raise SeedError(f"{origin}: a seed is a mapping with users, organizations and spaces")
    check_seed(data, origin)
    return data


def _json(text: str) -> Any:
    """JSON text, which is YAML too: parsed as JSON when it is, as YAML (which names the line of
    a mistake) when it is not."""
    try:
        return json.loads(text)
    except ValueError:
        return yaml.safe_load(text)


def _entries(seed: dict[str, Any], key: str, origin: str) -> list[dict[str, Any]]:
    value = seed.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise SeedError(f"{origin}: {key} must be a list of mappings")
    return value


def _need(entry: dict[str, Any], key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value:
        raise SeedError(f"{where}: {key} is required and must be a non-empty string")
    return value


#: the providers of production's older Git Sync integrations (`GitSyncProvider`)
LEGACY = ("github", "gitlab")


def check_seed(seed: dict[str, Any], origin: str) -> None:
    """Raise SeedError for the first problem: missing fields, unknown references, duplicates."""
    known = {"users", "organizations", "spaces", "collections", "teams", "integrations"}
    known |= {"spaceTemplates", "snapshot"}
    unknown = set(seed) - known
    if unknown:
        raise SeedError(f"{origin}: unknown top-level keys {sorted(unknown)}")
    users: set[str] = set()
    tokens: set[str] = set()
    for i, user in enumerate(_entries(seed, "users", origin)):
        where = f"{origin}: users[{i}]"
        uid, token = _need(user, "id", where), _need(user, "token", where)
        _need(user, "email", where)
        if uid in users or token in tokens:
            raise SeedError(f"{where}: duplicate user id or token")
        users.add(uid)
        tokens.add(token)
    orgs: set[str] = set()
    for i, org in enumerate(_entries(seed, "organizations", origin)):
        where = f"{origin}: organizations[{i}]"
        orgs.add(_need(org, "id", where))
        _need(org, "title", where)
        for j, member in enumerate(org.get("members") or []):
            if not isinstance(member, dict) or member.get("user") not in users:
                raise SeedError(f"{where}.members[{j}]: user must name a seeded user id")
            if member.get("role") is not None and member.get("role") not in ROLES:
                raise SeedError(f"{where}.members[{j}]: role must be one of {ROLES} or null")
    containers: set[str] = set()
    for key in ("collections", "spaces", "teams"):
        for i, entry in enumerate(_entries(seed, key, origin)):
            where = f"{origin}: {key}[{i}]"
            _need(entry, "id", where)
            _need(entry, "title", where)
            if entry.get("organization") not in orgs:
                raise SeedError(f"{where}: organization must name a seeded organization")
            parent = entry.get("parent")
            if key != "teams" and parent is not None and parent not in containers:
                raise SeedError(f"{where}: parent must name a collection listed before it")
            if key == "collections":
                containers.add(entry["id"])
            if key == "spaces" and entry.get("gitSync") is not None:
                _check_legacy_sync(entry["gitSync"], where)
            if key == "spaces" and entry.get("type") not in (None, "styleguide"):
                raise SeedError(f"{where}: type is `styleguide` (a style guide) or absent")
            for member in entry.get("members") or [] if key == "teams" else []:
                if member not in users:
                    raise SeedError(f"{where}: members must name seeded user ids")
    check_integrations(_entries(seed, "integrations", origin), origin)
    check_templates(_entries(seed, "spaceTemplates", origin), origin)
    if "snapshot" in seed:
        check_snapshot(seed["snapshot"], origin)


def _check_legacy_sync(synced: Any, where: str) -> None:
    """A seeded space's sync through the older GitHub or GitLab integration, as production
    answers it (`gitSync: {installationProvider, integration?, url?}`, no installation)."""
    if not isinstance(synced, dict) or synced.get("installationProvider") not in LEGACY:
        raise SeedError(
            f"{where}: gitSync is a sync through an integration: "
            f"{{installationProvider: {' or '.join(LEGACY)}, integration, url}}"
        )
    unknown = sorted(set(synced) - {"installationProvider", "integration", "url", "repoName"})
    if unknown:
        raise SeedError(
            f"{where}: gitSync takes installationProvider, integration, url and "
            f"repoName, not {', '.join(unknown)}"
        )


def one_admin(org: str, uid: str, email: str) -> dict[str, Any]:
    """The users and organizations of a seed with one user, an admin of `org`, whose token is
    a snapshot's (`tok_<id>`): who uses a copy of an organization whose snapshot holds no one."""
    user = {"id": uid, "email": email, "token": TOKEN_PREFIX + uid}
    member = {"user": uid, "role": "admin"}
    return {"users": [user], "organizations": [{"id": org, "title": org, "members": [member]}]}


def apply_seed(tx: Tx, seed: dict[str, Any], now: str, routes: Iterable[BaseRoute] = ()) -> None:
    """Insert the seed's resources; `now` (ISO 8601) stamps createdAt/joinedAt. A snapshot is
    loaded by the `routes` that answer its reads."""
    for user in seed.get("users") or []:
        tx.insert("user", user["id"], {**user, "displayName": user.get("displayName", user["id"])})
    for org in seed.get("organizations") or []:
        data: dict[str, Any] = {
            "id": org["id"],
            "title": org["title"],
            "createdAt": now,
            "emailDomains": [],
            "type": "business",
            "plan": "free_2024",
            "defaultRole": None,
            "defaultContent": None,
            "inviteLinks": False,
            "sso": False,
            "ai": False,
        }
        data.update({key: org[key] for key in _ORG_EXTRAS if key in org})
        tx.insert("organization", org["id"], data, org=org["id"])
        for member in org.get("members") or []:
            tx.insert(
                "member",
                f"{org['id']}/{member['user']}",
                {
                    "user": member["user"],
                    "role": member.get("role"),
                    "joinedAt": now,
                    "lastSeenAt": now,
                    "sso": bool(member.get("sso", False)),
                    "disabled": False,
                },
                org=org["id"],
            )
    for key in ("collections", "spaces"):
        kind = key[:-1]
        for entry in seed.get(key) or []:
            data = {
                "id": entry["id"],
                "title": entry["title"],
                "createdAt": now,
                "updatedAt": now,
                "deletedAt": None,
                "defaultLevel": entry.get("defaultLevel", "inherit"),
            }
            if kind == "space":
                data.update({"emoji": entry.get("emoji", ""), "editMode": "live"})
                if entry.get("gitSync") is not None:
                    data["legacyGitSync"] = {**entry["gitSync"], "updatedAt": now}
                if entry.get("type"):
                    data["type"] = entry["type"]  # a style guide
            else:
                data["description"] = entry.get("description")
            tx.insert(
                kind, entry["id"], data, org=entry["organization"], parent=entry.get("parent")
            )
    for team in seed.get("teams") or []:
        tx.insert(
            "team",
            team["id"],
            {"id": team["id"], "title": team["title"], "createdAt": now},
            org=team["organization"],
        )
        for uid in team.get("members") or []:
            tx.insert(
                "team-member",
                f"{team['id']}/{uid}",
                {"user": uid, "role": "member"},
                org=team["organization"],
                parent=team["id"],
            )
    apply_integrations(tx, seed.get("integrations") or [])
    insert_templates(tx, seed.get("spaceTemplates") or [])
    if "snapshot" in seed:
        load_snapshot(tx, seed["snapshot"], now, routes)
