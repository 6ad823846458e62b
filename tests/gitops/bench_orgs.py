"""The organizations scripts/bench generates, and the seed of one as its manifest's apply leaves
it: the bench's users, then a snapshot (docs/emulator.md, "Snapshots") of the organization the
apply made, written from the manifest instead of read. A test whose subject is not that first
apply starts from it (the apply of a 3,000-resource organization is 5 s of CPU);
test_bench_orgs.py proves, at a size with every part of the tree, that docsync reads the same
organization either way."""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

from tests.kit import REPO

Doc = dict[str, Any]


def bench_org(size: int) -> Any:
    """The organization scripts/bench generates at `size` resources."""
    spec = importlib.util.spec_from_file_location("bench", REPO / "scripts" / "bench.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench", bench)  # its dataclasses look their module up
    spec.loader.exec_module(bench)
    return bench.Org(size)


def _id(prefix: str, *numbers: int) -> str:
    """A resource's id in the emulator's alphabet and length (20 characters)."""
    return (prefix + "".join(f"{n:04d}" for n in numbers)).ljust(20, "0")


def _member(user: str, email: str, role: str | None, now: str) -> Doc:
    return {
        "object": "member",
        "id": user,
        "role": role,
        "user": {"object": "user", "id": user, "displayName": user, "email": email},
        "disabled": False,
        "joinedAt": now,
        "sso": False,
    }


def applied_seed(org: Any, now: str) -> Doc:
    """`org.seed()` once `org.manifest()` is applied to it: its users, and the organization as
    a snapshot whose reads are what docsync reads of it (created at `now`)."""
    manifest = org.manifest()
    seed = org.seed()
    users = {u["email"]: u["id"] for u in seed["users"]}
    members = {m["email"]: m["role"] for m in manifest["members"]}
    people = [_member(uid, email, members[email], now) for email, uid in users.items()]
    reads: dict[str, Any] = {
        "/v1/orgs": [
            {
                "object": "organization",
                "id": "org_acme",
                "title": "Acme",
                "createdAt": now,
                "emailDomains": [],
                "type": "business",
                "defaultRole": None,
                "sso": False,
                "ai": False,
                "inviteLinks": False,
                "plan": "free_2024",
                "mergeRules": {"type": "none"},
            }
        ],
        "/v1/user": people[0]["user"],
        "/v1/orgs/org_acme/members": people,
    }
    by_email = {m["user"]["email"]: m for m in people}
    teams = []
    for t, team in enumerate(manifest["teams"]):
        tid = _id("team", t)
        teams.append({"object": "team", "id": tid, "title": team["title"], "createdAt": now})
        reads[f"/v1/orgs/org_acme/teams/{tid}/members"] = [
            {"organization": by_email[email], "team": {"role": "member"}}
            for email in sorted(team["members"])  # as the apply sends them
        ]
    reads["/v1/orgs/org_acme/teams"] = teams
    collections = {c["title"]: _id("coll", i) for i, c in enumerate(manifest["collections"])}
    reads["/v1/orgs/org_acme/collections"] = [
        {
            "object": "collection",
            "id": cid,
            "title": title,
            "organization": "org_acme",
            "defaultLevel": "inherit",
        }
        for title, cid in collections.items()
    ]
    spaces = {}
    for i, space in enumerate(manifest["spaces"]):
        spaces[space["title"]] = {
            "object": "space",
            "id": _id("space", i),
            "title": space["title"],
            "emoji": "",
            "visibility": "in-collection",
            "createdAt": now,
            "updatedAt": now,
            "editMode": "live",
            "mergeRules": {"type": "inherit"},
            "organization": "org_acme",
            "defaultLevel": "inherit",
            "parent": collections[space["collection"]],
        }
    reads["/v1/orgs/org_acme/spaces"] = list(spaces.values())
    sites = []
    for s, site in enumerate(manifest["sites"]):
        sid = _id("site", s)
        sites.append(
            {
                "object": "site",
                "id": sid,
                "type": "basic",
                "appliedType": "basic",
                "title": site["title"],
                "visibility": "public",
                "defaultLevel": "inherit",
                "features": [],
                "published": site["published"],
                "createdAt": now,
            }
        )
        structure = []
        for k, section in enumerate(site["sections"]):
            kid = _id("sect", s, k)
            structure.append(
                {
                    "object": "site-section",
                    "id": kid,
                    "title": section["title"],
                    "path": f"section-{k}",
                    "default": k == 0,
                    "draft": False,
                    "siteSpaces": [
                        {
                            "object": "site-space",
                            "id": _id("ss", s, k, j),
                            "path": item["path"],
                            "space": spaces[item["space"]],
                            "default": bool(item.get("default")),
                            "draft": False,
                            "hidden": False,
                        }
                        for j, item in enumerate(section["siteSpaces"])
                    ],
                }
            )
        reads[f"/v1/orgs/org_acme/sites/{sid}/structure"] = {
            "type": "sections",
            "structure": structure,
        }
    reads["/v1/orgs/org_acme/sites"] = sites
    snapshot = {
        "format": "docsync-snapshot/1",
        "organization": "org_acme",
        "user": "u_ada",
        "reads": reads,
    }
    return {"users": seed["users"], "snapshot": snapshot}
