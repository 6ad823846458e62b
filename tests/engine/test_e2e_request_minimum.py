"""An apply sends the fewest requests the API allows, and `-v` shows them by kind of call."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from docsync.api import ApiClient
from docsync.engine import run
from docsync.engine.cost import apply_requests
from docsync.manifest import load_manifests
from tests.emulator_harness import EmulatorHandle
from tests.kit import cli_env, invoke

SITES, SECTIONS, SITE_SPACES, TEAMS, SPACES = 2, 2, 3, 3, 6
ORG = "/v1/orgs/{organizationId}"
SITE = f"{ORG}/sites/{{siteId}}"


def organization() -> dict[str, Any]:
    users = ["ada@acme.example", "lin@acme.example", "sam@acme.example"]
    return {
        "organization": "org_acme",
        "teams": [{"title": f"Team {t}", "members": users[: t + 1]} for t in range(TEAMS)],
        "collections": [{"title": "Docs", "description": "All of it"}],
        "spaces": [{"title": f"Space {i}", "collection": "Docs"} for i in range(SPACES)],
        "sites": [
            {
                "title": f"Site {s}",
                "published": True,
                "sections": [
                    {
                        "title": f"Section {k}",
                        "siteSpaces": [
                            {"space": f"Space {(k + j) % SPACES}", "path": f"v{j}"}
                            | ({"default": True} if j == 0 else {})
                            for j in range(SITE_SPACES)
                        ],
                    }
                    for k in range(SECTIONS)
                ],
            }
            for s in range(SITES)
        ],
    }


def minimum() -> Counter[str]:
    """What the API needs, counted from its rules: one request per create (a team's members
    travel in it; a section's create makes its first site space, the default of its level), a
    PATCH for what no create body carries (a collection's description: the create takes
    `title` and `parent`; each site space's path), a publish per site; nothing re-read."""
    sections = SITES * SECTIONS
    return Counter(
        {
            f"PUT {ORG}/teams": TEAMS,
            f"POST {ORG}/collections": 1,
            "PATCH /v1/collections/{collectionId}": 1,
            f"POST {ORG}/spaces": SPACES,
            f"POST {ORG}/sites": SITES,
            f"POST {SITE}/sections": sections,
            f"POST {SITE}/site-spaces": sections * (SITE_SPACES - 1),
            f"PATCH {SITE}/site-spaces/{{siteSpaceId}}": sections * SITE_SPACES,
            f"POST {SITE}/publish": SITES,
        }
    )


def test_an_apply_from_scratch_sends_exactly_the_minimum(
    emulator: EmulatorHandle, tmp_path: Path
) -> None:
    manifest = tmp_path / "org.yaml"
    manifest.write_text(yaml.safe_dump(organization()), encoding="utf-8")
    loaded = load_manifests([manifest])

    async def scenario() -> tuple[Counter[str], int, int]:
        async with ApiClient(emulator.url, "tok_ada") as api:
            plan, live = await run.plan(api, loaded)
            before = api.stats.copy()
            server_before = emulator.stats()["total"]
            report = await run.apply(api, plan, live, parallelism=4)
            assert report.summary().endswith("0 failed, 0 skipped"), report.summary()
            served = emulator.stats()["total"] - server_before
            calls = api.stats.since(before).calls
            again, _ = await run.plan(api, loaded)
            assert again.empty
            return calls, served, apply_requests(plan)

    calls, served, estimate = asyncio.run(scenario())
    assert calls == minimum()
    assert served == estimate == minimum().total()


def test_verbose_plan_counts_requests_by_call_and_the_windows_an_apply_needs(
    emulator: EmulatorHandle, tmp_path: Path
) -> None:
    manifest = tmp_path / "org.yaml"
    manifest.write_text(yaml.safe_dump(organization()), encoding="utf-8")
    emulator.set_faults(rate_limit=20, rate_window=60)
    result = invoke(cli_env(emulator), "plan", manifest, "-v")
    assert result.exit_code == 0, result.output
    total = minimum().total()
    windows = -(-total // 20)
    assert f"apply: about {total} requests, {windows} rate-limit window(s) of 20" in result.stderr
    assert "GET /v1/orgs/{organizationId}/teams\n" in result.stderr
