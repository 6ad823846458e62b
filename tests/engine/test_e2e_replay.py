"""A replay of a real organization's answers, as production sends them: the multilingual site
of examples/multilingual (sections in groups, site spaces in five languages, the API reference
synced through the older GitHub integration) read from an emulator of production's contract,
every answer recorded, then served back with what production's answers hold beyond its document
in every object (tests/engine/replay.py). docsync exports it, the export validates and plans
empty against the replay, a section renamed with `was:` plans as one update, and nothing but
reads is sent."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from tests.emulator_harness import REPO, start_emulator
from tests.engine.replay import Replay, as_production, recording, serving
from tests.kit import cli_for, invoke

EXAMPLE = REPO / "examples" / "multilingual"
SEED = REPO / "examples" / "multilingual-seed.yaml"


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Replay]:
    """The organization's answers to an export and a plan, made production's."""
    found = Replay()
    with start_emulator(seed=SEED, contract="production") as emulator:
        applied = cli_for(emulator)("apply", EXAMPLE, "--auto-approve")
        assert applied.exit_code == 0, applied.output
        out = tmp_path_factory.mktemp("recorded") / "export"
        with recording(emulator, found) as url:
            docsync = cli_for(emulator, DOCSYNC_API_URL=url)
            assert docsync("export", "--org", "org_acme", "--out", out).exit_code == 0
            assert docsync("plan", EXAMPLE).exit_code == 0
    as_production(found)
    yield found


@pytest.mark.slow
def test_a_replay_of_production_exports_validates_and_plans_empty_with_reads_only(
    replay: Replay, tmp_path: Path
) -> None:
    out = tmp_path / "export"
    with serving(replay) as url:
        docsync = cli_for_url(url)
        exported = docsync("export", "--org", "org_acme", "--out", out)
        assert exported.exit_code == 0, exported.output
        assert docsync("validate", out).exit_code == 0
        planned = docsync("plan", out, "--detailed-exitcode")
        assert planned.exit_code == 0, planned.output
        renamed = out / "sites.yaml"
        text = renamed.read_text("utf-8")
        text = re.sub(
            r"( *)- title: Guides\n", r"\1- title: How-to guides\n\1  was: Guides\n", text
        )
        renamed.write_text(text.replace("- Guides\n", "- How-to guides\n"), "utf-8")
        again = docsync("plan", out, "--format", "json")
    assert again.exit_code == 0, again.output
    assert "customization: pdf.toc, aiSearch: fields docsync does not know" in exported.stderr
    assert exported.stderr.count("legacy Git Sync") == 6
    actions = json.loads(again.stdout)["actions"]
    assert [(a["verb"], a["address"]) for a in actions] == [
        ("update", 'site["Acme Docs"].section["How-to guides"]')
    ], actions
    assert replay.writes == [] and replay.unknown == []


def cli_for_url(url: str) -> Callable[..., Result]:
    """docsync(*args) against the replay, as a user runs it."""
    env = {"DOCSYNC_API_URL": url, "DOCSYNC_TOKEN": "tok_ada", "NO_COLOR": "1"}
    return lambda *args: invoke(env, *args)
