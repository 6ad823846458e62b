"""Every read production does not restrict is open to any member, a read-only one or a guest
included: no GET the emulator serves answers them 403 (docs/emulator.md, Permissions)."""

from __future__ import annotations

import re

from docsync.emulator.app import collect_routes
from tests.emulator_harness import EmulatorHandle

ACME = "/v1/orgs/org_acme"


def test_no_read_is_refused_to_a_member_for_their_role(emulator: EmulatorHandle) -> None:
    ada = emulator.client()
    installed = ada.post(
        "/v1/integrations/google-analytics/installations", json={"organization": "org_acme"}
    ).json()["id"]
    ids = {
        "organizationId": "org_acme",
        "spaceId": "space_handbook",
        "collectionId": ada.post(f"{ACME}/collections", json={"title": "Dev"}).json()["id"],
        "siteId": ada.post(f"{ACME}/sites", json={"title": "Docs"}).json()["id"],
        "teamId": ada.put(f"{ACME}/teams", json={"title": "Core"}).json()["id"],
        "userId": "u_ada",
        "integrationName": "google-analytics",
        "installationId": installed,
    }
    reads = sorted(
        route.path
        for route in collect_routes("description")
        if route.path.startswith("/v1/") and "GET" in (getattr(route, "methods", None) or ())
    )
    assert len(reads) > 60
    for token in ("tok_sam", "tok_guest"):  # the read role, and a guest
        client = emulator.client(token)
        refused = [
            path
            for path in reads
            if client.get(re.sub(r"{(\w+)}", lambda m: ids.get(m[1], "nope"), path)).status_code
            == 403
        ]
        assert not refused, (token, refused)
