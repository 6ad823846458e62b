"""Least privilege: the CI example plans with a read-only token (a member with the read role)
and applies with an admin's. That token plans the rich example, every kind and integrations
included, against both contracts; where the API hides something from a role (a 403 on a read),
the plan names what it could not read and why and plans the rest, and an apply, which must know
everything it changes, refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from docsync.generate import USAGE_PAGE, generated, roles_table
from docsync.kinds import CATALOGUE
from tests.engine.rich import EXAMPLE
from tests.kit import REPO, EmulatorHandle, apply, cli_for

#: the seed's member with the read role (examples/emulator-seed.yaml)
READER = "tok_sam"
STAGE = ("--var", "stage=presentation")


@pytest.mark.slow
def test_a_read_only_token_plans_the_rich_example(either_contract: EmulatorHandle) -> None:
    reader = cli_for(either_contract, DOCSYNC_TOKEN=READER)
    fresh = reader("plan", EXAMPLE, *STAGE)
    assert fresh.exit_code == 0, fresh.output
    assert 'create integration["google-analytics"].site["Developer Docs"]' in fresh.stdout
    assert "not read" not in fresh.output, fresh.output
    apply(cli_for(either_contract), EXAMPLE, *STAGE)
    planned = reader("plan", EXAMPLE, *STAGE, "--detailed-exitcode")
    assert planned.exit_code == 0, planned.output
    assert "No changes." in planned.stdout and "not read" not in planned.output


def forbid(method: str, path: str) -> dict[str, object]:
    """Every request matching answered 403, as production answers a role it hides this from."""
    message = "Forbidden: this operation needs the admin role; you are read"
    return {"method": method, "path": path, "status": 403, "count": 100, "message": message}


MANIFEST = """\
organization: org_acme
spaces: [{title: Guides}]
sites:
  - title: Docs
    visibility: share-link
    siteSpaces: [{space: Guides, path: g}]
    shareLinks: [{name: Agency}]
integrations:
  - name: google-analytics
    configuration: {tracking_id: G-1}
"""


def test_what_a_role_cannot_read_is_named_and_the_rest_planned(
    emulator: EmulatorHandle, tmp_path: Path
) -> None:
    docsync = cli_for(emulator)
    path = tmp_path / "m.yaml"
    path.write_text(MANIFEST, encoding="utf-8")
    apply(docsync, path)
    changed = MANIFEST.replace("{name: Agency}", "{name: Partner}").replace("G-1", "G-2")
    path.write_text(changed + "    sites: {Docs: {}}\n", encoding="utf-8")
    emulator.set_faults(
        rules=[forbid("GET", "/share-links$"), forbid("GET", "/orgs/[^/]+/installations$")]
    )
    planned = docsync("plan", path)
    assert planned.exit_code == 0, planned.output
    out = planned.stdout
    assert 'site["Docs"].shareLinks: not read, so not planned: GET ' in out, out
    assert "integrations: not read, so not planned: GET " in out, out
    assert ": 403 Forbidden: this operation needs the admin role; you are read" in out
    assert "update site" not in out and "integration[" not in out.split("Warning")[0], out
    refused = docsync("apply", path, "--auto-approve")
    assert refused.exit_code == 1, refused.output
    assert "could not read" in refused.output and "site[" in refused.output


def test_the_docs_give_the_role_every_kind_needs() -> None:
    """docs/usage.md's table of roles is what `bash scripts/generate` writes from the kinds'
    declarations (`Declaration.roles`): every kind written at the top of a manifest says what
    plan and apply need, and a kind written in another's entries says it or is in its row."""
    text = (REPO / USAGE_PAGE).read_text(encoding="utf-8")
    assert "<!-- generated: kind-roles -->" in text
    assert generated(USAGE_PAGE, text) == text, "run `bash scripts/generate`"
    silent = [d.name for d in CATALOGUE if not d.parents and not d.roles]
    assert silent == [], f"kinds that say no role: {silent}"
    rows = [row for row in roles_table().splitlines() if row.startswith("| `")]
    assert all(row.count(" | ") == 2 and row.endswith(" |") for row in rows), rows
