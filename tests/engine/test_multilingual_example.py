"""examples/multilingual: a site shaped as a real multilingual, versioned one (languages as the
site spaces of each section, versions as the sections of one group, localized navigation, the
API reference's spaces synced through the older GitHub integration) converges in one apply on the
emulator of either contract, from its seed, and plans empty after; its export plans empty. With
production's contract the plan names the syncs it leaves alone, and the export says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.emulator_harness import REPO, start_emulator
from tests.kit import cli_for

EXAMPLE = REPO / "examples" / "multilingual"
SEED = REPO / "examples" / "multilingual-seed.yaml"


@pytest.mark.slow
@pytest.mark.parametrize("contract", ["description", "production"])
def test_the_multilingual_site_converges_in_one_apply_and_exports_empty(
    contract: str, tmp_path: Path
) -> None:
    with start_emulator(seed=SEED, contract=contract) as emulator:
        docsync = cli_for(emulator)
        applied = docsync("apply", EXAMPLE, "--auto-approve")
        assert applied.exit_code == 0, applied.output
        assert "Apply finished: 50 done, 0 failed, 0 skipped." in applied.stdout
        planned = docsync("plan", EXAMPLE, "--detailed-exitcode")
        assert planned.exit_code == 0, planned.output
        exported = docsync("export", "--org", "org_acme", "--out", tmp_path / "export")
        assert exported.exit_code == 0, exported.output
        synced = "synced with github through the github integration (legacy Git Sync"
        assert (exported.stderr.count(synced) == 6) == (contract == "production")
        again = docsync("plan", tmp_path / "export", "--detailed-exitcode")
        assert again.exit_code == 0, again.output
