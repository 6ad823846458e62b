"""Two repositories sharing one organization: `prune:` patterns per kind, each deleting only
what it owns, and the unmanaged list saying which pattern left a resource alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from docsync.core.ownership import prune_decision, prune_patterns
from docsync.manifest import load_manifests
from tests.emulator_harness import EmulatorHandle
from tests.gitops.conftest import SEED, Cli, write


@pytest.mark.parametrize(
    ("prune", "section", "name", "owned"),
    [
        (["teams"], "teams", "Anything", True),
        ({"teams": "eng-*"}, "teams", "eng-web", True),
        ({"teams": "eng-*"}, "teams", "Eng-web", False),  # case counts, as in names
        ({"teams": "eng-*"}, "teams", "design", False),
        ({"teams": ["eng-*", "ops-?"]}, "teams", "ops-1", True),
        ({"teams": ["eng-*", "ops-?"]}, "teams", "ops-12", False),
        ({"teams": "eng-*"}, "collections", "eng-docs", False),
        ([], "teams", "eng-web", False),
    ],
)
def test_prune_decision(prune: object, section: str, name: str, owned: bool) -> None:
    decided, why = prune_decision(prune, section, name)  # type: ignore[arg-type]
    assert decided is owned
    if owned:
        assert why.startswith("pruned: no manifest entry")
    elif isinstance(prune, dict) and section in prune:
        assert why.startswith(f"`prune` {section} matches only ")
    else:
        assert why == ""  # the plan says once which kinds `prune` does not list


def test_files_merge_prune_lists_and_patterns(tmp_path: Path) -> None:
    write(tmp_path / "a.yaml", "organization: org_acme\nprune: [saml]\n")
    write(tmp_path / "b.yaml", 'organization: org_acme\nprune: {teams: "eng-*"}\n')
    write(tmp_path / "c.yaml", "organization: org_acme\nprune: {teams: [ops-*, eng-*]}\n")
    loaded = load_manifests([str(tmp_path)])
    assert prune_patterns(loaded.manifest.prune) == {
        "saml": ("*",),
        "teams": ("eng-*", "ops-*"),
    }


def test_a_bad_pattern_section_is_located(tmp_path: Path, cli: Cli) -> None:
    path = write(tmp_path / "a.yaml", 'organization: org_acme\nprune: {team: "eng-*"}\n')
    result = cli("validate", path)
    assert result.exit_code == 1
    assert f"{path}:2:9: prune.team" in result.stderr, result.stderr


def two_repositories(emulator: EmulatorHandle) -> None:
    seed = yaml.safe_load(yaml.safe_dump(SEED))
    seed["teams"] = [
        {"id": f"team_{i}", "organization": "org_acme", "title": title}
        for i, title in enumerate(["eng-web", "eng-old", "ops-oncall", "ops-old", "Design"])
    ]
    emulator.reset(seed)


def test_two_repositories_each_prune_only_what_they_own(
    cli: Cli, acme: EmulatorHandle, tmp_path: Path
) -> None:
    two_repositories(acme)
    eng = write(
        tmp_path / "eng.yaml",
        'organization: org_acme\nprune: {teams: "eng-*"}\nteams: [{title: eng-web}]\n',
    )
    ops = write(
        tmp_path / "ops.yaml",
        'organization: org_acme\nprune: {teams: "ops-*"}\nteams: [{title: ops-oncall}]\n',
    )
    result = cli("plan", eng, "--format", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert [(a["verb"], a["address"]) for a in document["actions"]] == [
        ("delete", 'team["eng-old"]')
    ]
    assert document["actions"][0]["notes"] == [
        'pruned: no manifest entry, and `prune` teams owns "eng-*"'
    ]
    kept = {u["address"]: u["reason"] for u in document["unmanaged"] if u["kind"] == "team"}
    assert kept == {
        'team["ops-oncall"]': '`prune` teams matches only "eng-*"',
        'team["ops-old"]': '`prune` teams matches only "eng-*"',
        'team["Design"]': '`prune` teams matches only "eng-*"',
    }
    text = cli("plan", eng).stdout
    assert 'team["Design"] (id team_4): kept, `prune` teams matches only "eng-*"' in text
    markdown = cli("plan", eng, "--format", "markdown").stdout
    assert 'kept, `prune` teams matches only "eng-*"' in markdown

    for path in (eng, ops):
        assert cli("apply", path, "--auto-approve").exit_code == 0
    for path in (eng, ops):  # each repository converged, neither undoes the other
        assert cli("plan", path, "--detailed-exitcode").exit_code == 0
    with acme.client() as client:
        titles = {t["title"] for t in client.get("/v1/orgs/org_acme/teams").json()["items"]}
    assert titles == {"eng-web", "ops-oncall", "Design"}
