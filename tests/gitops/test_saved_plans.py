"""`plan --out` then `apply --plan`: a fresh plan applies without a prompt; a stale one (a
resource changed, added, deleted, renamed), edited manifests, other env() values or a tampered
file are refused before anything is written; the file holds no secret."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from docsync.api import ApiClient
from docsync.core.state import LiveState
from docsync.engine import run
from docsync.engine.saved import fingerprint, parts
from docsync.kinds.catalogue import CATALOGUE
from docsync.manifest import load_manifests
from tests.emulator_harness import EmulatorHandle
from tests.gitops.conftest import CERT_AFTER, MANIFESTS, TOKEN, Cli, invoke, write

DESCRIPTION = "desc-from-env-7f3a9c"  # a secret because it comes from env()
MANIFEST = """\
organization: org_acme
prune: [teams]
teams:
  - {title: Platform, members: [ada@acme.example]}
  - {title: Writers}
saml:
  - label: Okta
    ssoURL: https://acme.okta.example/app/sso/saml
    entityID: http://www.okta.example/exk1
    certificate: "{{ env('SAML_CERT') }}"
    defaultTeam: Platform
collections:
  - {title: Developers, description: "{{ env('DEV_DESC') }}"}
"""
ENV = {"DEV_DESC": DESCRIPTION}


def writes(emulator: EmulatorHandle) -> dict[str, int]:
    return {k: v for k, v in emulator.stats()["requests"].items() if not k.startswith("GET")}


@pytest.fixture
def saved(cli: Cli, in_tmp: Path) -> Path:
    """A plan of MANIFEST saved to plan.json against the seeded organization."""
    write(in_tmp / "m.yaml", MANIFEST)
    result = cli("plan", "m.yaml", "--out", "plan.json", env=ENV)
    assert result.exit_code == 0, result.output
    assert "Saved the plan to plan.json" in result.stderr
    return in_tmp / "plan.json"


def test_a_fresh_saved_plan_applies_without_a_prompt_then_converges(
    cli: Cli, acme: EmulatorHandle, saved: Path
) -> None:
    result = cli("apply", "--plan", saved, env=ENV)
    assert result.exit_code == 0, result.output
    assert "Apply finished: 4 done, 0 failed, 0 skipped." in result.stdout
    again = cli("plan", "m.yaml", "--detailed-exitcode", env=ENV)
    assert again.exit_code == 0, again.output


def test_the_plan_file_holds_no_secret(saved: Path) -> None:
    data = saved.read_bytes()
    for secret in (CERT_AFTER, DESCRIPTION, TOKEN, "MIIC"):
        assert secret.encode() not in data
    document = json.loads(data)
    assert document["format"] == "docsync-saved-plan/2"
    assert document["manifests"]["files"] == ["m.yaml"]
    # The live fingerprint and the changes hold markers where the values are secret.
    changes = {
        (a["address"], c["field"]): c for a in document["plan"]["actions"] for c in a["changes"]
    }
    assert changes[('saml["Okta"]', "certificate")]["after"]["sensitive"] is True
    assert changes[('collection["Developers"]', "description")]["after"]["sensitive"] is True


Change = Callable[[httpx.Client], Any]
STALE: dict[str, tuple[Change, str]] = {
    "changed": (
        lambda c: c.patch("/v1/collections/col_developers", json={"defaultLevel": "edit"}),
        'collection["Developers"]: defaultLevel changed: "inherit" -> "edit"',
    ),
    "added": (
        lambda c: c.put("/v1/orgs/org_acme/teams", json={"title": "Intruder"}),
        'team["Intruder"]: created since the plan was made',
    ),
    "deleted": (
        lambda c: c.delete("/v1/orgs/org_acme/teams/team_legacy"),
        'team["Legacy"]: deleted since the plan was made',
    ),
    "renamed": (
        lambda c: c.patch("/v1/orgs/org_acme/teams/team_legacy", json={"title": "Heritage"}),
        'team["Heritage"]: renamed or moved since the plan was made (was team["Legacy"])',
    ),
}


@pytest.mark.parametrize("how", sorted(STALE))
def test_a_stale_plan_is_refused_naming_the_resource_and_how(
    cli: Cli, acme: EmulatorHandle, saved: Path, how: str
) -> None:
    change, message = STALE[how]
    with acme.client() as client:
        assert change(client).is_success
    before = writes(acme)
    result = cli("apply", "--plan", saved, env=ENV)
    assert result.exit_code == 1, result.output
    assert "the saved plan is stale" in result.stderr
    assert message in result.stderr
    assert "docsync plan --out" in result.stderr
    assert "Traceback" not in result.output
    assert writes(acme) == before, "nothing is written"
    # Planned again, the same change applies.
    assert cli("plan", "m.yaml", "--out", "plan.json", env=ENV).exit_code == 0
    result = cli("apply", "--plan", saved, env=ENV)
    assert result.exit_code == 0, result.output


def test_a_stale_secret_shows_no_value(cli: Cli, acme: EmulatorHandle, saved: Path) -> None:
    """A sensitive field changed by hand is named, its values are not."""
    with acme.client() as client:
        client.patch("/v1/collections/col_developers", json={"description": "typed by hand"})
    result = cli("apply", "--plan", saved, env=ENV)
    assert result.exit_code == 1
    assert 'collection["Developers"]: description changed: (sensitive) -> (sensitive)' in (
        result.stderr
    )
    assert "typed by hand" not in result.output


@pytest.mark.parametrize("variable", ["SAML_CERT", "DEV_DESC"])
def test_another_env_value_is_refused_clearly(
    cli: Cli, acme: EmulatorHandle, saved: Path, variable: str
) -> None:
    before = writes(acme)
    result = cli("apply", "--plan", saved, env={**ENV, variable: "another value"})
    assert result.exit_code == 1, result.output
    assert "environment variables" in result.stderr and "unchanged" in result.stderr
    assert "another value" not in result.output
    assert writes(acme) == before


def test_another_token_is_named_as_a_cause(cli: Cli, acme: EmulatorHandle, saved: Path) -> None:
    """The manifests' digest is keyed by the token: a plan made with one token (a reviewer's,
    a CI job's) and applied with another differs as a changed env() value does."""
    before = writes(acme)
    result = cli("apply", "--plan", saved, env={**ENV, "DOCSYNC_TOKEN": "tok_lin"})
    assert result.exit_code == 1, result.output
    assert "(DOCSYNC_PLAN_KEY when set, else DOCSYNC_TOKEN: plan and apply" in result.stderr
    assert "tok_" not in result.output
    assert writes(acme) == before


def test_an_edited_manifest_is_refused_naming_the_file(
    cli: Cli, acme: EmulatorHandle, saved: Path, in_tmp: Path
) -> None:
    write(in_tmp / "m.yaml", MANIFEST.replace("Writers", "Editors"))
    result = cli("apply", "--plan", saved, env=ENV)
    assert result.exit_code == 1
    assert "manifest file(s) changed since the plan was made: m.yaml" in result.stderr


def test_a_tampered_plan_is_refused_by_the_last_guard(
    cli: Cli, acme: EmulatorHandle, saved: Path
) -> None:
    document = json.loads(saved.read_text("utf-8"))
    document["plan"]["actions"] = document["plan"]["actions"][1:]
    saved.write_text(json.dumps(document), "utf-8")
    before = writes(acme)
    result = cli("apply", "--plan", saved, env=ENV)
    assert result.exit_code == 1
    assert "differs from the saved one" in result.stderr
    assert writes(acme) == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not a readable saved plan"),
        ('{"format": "something else"}', "not a saved plan of this docsync"),
        ('{"format": "docsync-saved-plan/2", "plan": {}, "live": []}', "manifests, live"),
    ],
)
def test_an_unreadable_plan_file_is_a_clear_error(
    cli: Cli, in_tmp: Path, content: str, message: str
) -> None:
    write(in_tmp / "bad.json", content)
    result = cli("apply", "--plan", "bad.json")
    assert result.exit_code == 1
    assert message in result.stderr and "Traceback" not in result.output


def test_plan_file_and_paths_together_is_a_usage_error(cli: Cli, saved: Path) -> None:
    result = cli("apply", "--plan", saved, "m.yaml")
    assert result.exit_code == 2
    assert "not both" in result.stderr


PARTS = """\
organization: org_acme
collections:
  - title: Developers
    permissions: {teams: {Platform: read%s}}
sites:
  - title: Developer Docs
    redirects:
      - {source: /start, destination: {url: "https://docs.acme.example/start"}}%s
"""
MORE = PARTS % (
    ", Legacy: read",
    '\n      - {source: /new, destination: {url: "https://new.example/"}}',
)


def _site_id(client: httpx.Client) -> str:
    sites = client.get("/v1/orgs/org_acme/sites").json()["items"]
    return str(next(s["id"] for s in sites if s["title"] == "Developer Docs"))


PART_MOVES: dict[str, tuple[Change, str]] = {
    "grant": (
        lambda c: c.patch(
            "/v1/collections/col_developers/permissions/teams/team_platform",
            json={"role": "edit"},
        ),
        'collection["Developers"]: grants.teams changed since the plan was made',
    ),
    "redirect": (
        lambda c: c.put(
            f"/v1/orgs/org_acme/sites/{_site_id(c)}/redirects",
            json={
                "redirects": [
                    {
                        "source": "/start",
                        "destination": {"kind": "external", "url": "https://elsewhere.example/"},
                    }
                ]
            },
        ),
        'site["Developer Docs"]: redirects changed since the plan was made',
    ),
}


@pytest.mark.parametrize("what", sorted(PART_MOVES))
def test_a_grant_or_a_redirect_moved_since_the_plan_is_refused_naming_it(
    cli: Cli, acme: EmulatorHandle, in_tmp: Path, what: str
) -> None:
    """Parts read with a resource (grants, a site's presentation) are in the fingerprint: moved
    live between `plan --out` and `apply`, the apply refuses before the re-plan's actions are
    compared, names what moved and writes nothing."""
    write(in_tmp / "m.yaml", PARTS % ("", ""))
    assert cli("apply", "m.yaml", "--auto-approve").exit_code == 0
    write(in_tmp / "m.yaml", MORE)
    assert cli("plan", "m.yaml", "--out", "plan.json").exit_code == 0
    change, message = PART_MOVES[what]
    with acme.client() as client:
        assert change(client).is_success
    before = writes(acme)
    result = cli("apply", "--plan", "plan.json")
    assert result.exit_code == 1, result.output
    assert "the saved plan is stale" in result.stderr
    assert message in result.stderr
    assert "elsewhere.example" not in result.output
    assert writes(acme) == before, "nothing is written"


#: The golden scenario's organization (every kind) and a site with every presentation part.
EVERY_PART = """\
  - title: Partner Docs
    visibility: visitor-auth
    permissions: {teams: {Platform: read}, members: {sam@acme.example: read}}
    customization: {styling: {theme: bold}}
    publishingAuth: {backend: custom, fallbackURL: "https://acme.example/login"}
    shareLinks: [{name: Partner preview}]
    redirects: [{source: /start, destination: {url: "https://acme.example/"}}]
    siteSpaces:
      - {space: Changelog, path: changes, customization: {styling: {theme: muted}}}
"""


def test_the_fingerprint_covers_every_kind_and_every_part_a_plan_reads(
    cli: Cli, acme: EmulatorHandle, in_tmp: Path
) -> None:
    """Walks the catalogue over what a plan of every kind and every site part reads: every
    resource of every kind (of the golden scenario, or of its own for a kind it lacks) is
    fingerprinted (a kind written as its parents' mapping, grants, as
    their parts), and every part read with a resource, moved, moves the fingerprint."""
    text = (MANIFESTS / "after.yaml").read_text("utf-8") + EVERY_PART
    write(in_tmp / "every.yaml", text)
    applied = cli("apply", "every.yaml", "--auto-approve")
    assert applied.exit_code == 0, applied.output
    live, secret = _read(acme, in_tmp / "every.yaml")
    prints = fingerprint(live, secret)
    for declared in CATALOGUE:
        if declared.mapped:
            holders = [p for p in prints.values() if p["kind"] in declared.parents]
            read = f"{declared.name}s"  # by principal type (grants.teams), or one list
            assert any(
                part == read or part.startswith(f"{read}.") for p in holders for part in p["parts"]
            ), f"no {declared.name} read with its parents is in the fingerprint"
            continue
        if declared.part:
            continue  # read into its parent's raw: each such part is moved below
        if live.by_kind[declared.name]:
            resources, printed = live.by_kind[declared.name], prints
        else:  # a kind added since the story was written: its own scenario's organization
            resources, printed = _own(acme, in_tmp, declared.name)
        assert resources, f"neither the golden scenario nor its own has a {declared.noun}"
        for resource in resources:
            assert printed[resource.address]["kind"] == declared.name
    seen: set[str] = set()
    for resource in live.by_address.values():
        read_parts = [
            slot
            for slot, value in resource.raw.items()
            if slot.startswith("_") and isinstance(value, dict | list)
        ]
        for slot in read_parts:
            kept = resource.raw[slot]
            resource.raw[slot] = {**kept, "_": 0, "moved": 1} if isinstance(kept, dict) else []
            if kept == []:
                resource.raw[slot] = [{"moved": 1}]
            moved = fingerprint(live, secret)[resource.address]["parts"]
            resource.raw[slot] = kept
            assert moved != prints[resource.address]["parts"], f"{resource.address} {slot}"
            seen.add(f"{resource.kind} {slot}")
    for part in ("grants", "redirects", "shareLinks", "customization", "publishingAuth"):
        assert f"site _{part}" in seen, part
    assert {"collection _grants", "site_space _customization"} <= seen
    assert {"integration _integration_sites", "integration _integration_spaces"} <= seen


def _read(emulator: EmulatorHandle, path: Path) -> tuple[LiveState, set[tuple[str, str]]]:
    """What a plan of the manifest at `path` reads (the plan empty), and its secret fields."""
    loaded = load_manifests([path], environ={"SAML_CERT": CERT_AFTER})

    async def read() -> tuple[LiveState, set[tuple[str, str]]]:
        async with ApiClient(emulator.url, TOKEN) as api:
            plan, live = await run.plan(api, loaded)
        assert plan.empty
        return live, plan.sensitive

    return asyncio.run(read())


def _own(emulator: EmulatorHandle, at: Path, kind: str) -> tuple[list[Any], dict[str, Any]]:
    """A kind's live resources and their fingerprints, read from the organization its own
    scenario makes (its declaration's `lost_answers`, its first step applied without faults to
    the example seed, which the scenarios are written for)."""
    emulator.reset()
    (scenario,) = [s for d in CATALOGUE for s in d.lost_answers if kind in (d.name, *s.covers)][:1]
    path = write(at / f"{kind}.yaml", scenario.steps[0].manifest)
    applied = invoke(emulator, "apply", path, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    live, secret = _read(emulator, path)
    return live.by_kind[kind], fingerprint(live, secret)


def test_a_member_seen_since_the_plan_does_not_make_it_stale() -> None:
    """A team's members as read carry when each was last seen: activity, not configuration."""
    member = {"organization": {"id": "u1", "role": "edit", "lastSeenAt": "2026-11-23T10:00:00Z"}}
    seen = {"organization": member["organization"] | {"lastSeenAt": "2026-11-23T11:00:00Z"}}
    moved = {"organization": member["organization"] | {"role": "admin"}}
    assert parts({"_members": [member]}) == parts({"_members": [seen]})
    assert parts({"_members": [member]}) != parts({"_members": [moved]})
