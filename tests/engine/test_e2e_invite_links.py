"""The organization's invite links end to end, against both contracts: keyed by role (`null`, a
guest link), exact once written, applied, converged, exported; a link's id is what joins, so it
is in no output, plan file or export."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.kit import (
    ORG,
    EmulatorHandle,
    Write,
    apply,
    assert_converged,
    cli_for,
    export_plans_empty,
    listed,
    requests_between,
)

LINKS = "/v1/orgs/{organizationId}/link-invites"
FIRST = """\
organization: org_acme
inviteLinks:
  - {role: read}
  - {role: null}
"""
CHANGED = """\
organization: org_acme
inviteLinks:
  - {role: null}
  - {role: edit}
"""


def live(emulator: EmulatorHandle) -> dict[str | None, str]:
    """The organization's invite links as the API holds them: role -> id (the secret)."""
    return {link["role"]: link["id"] for link in listed(emulator, f"{ORG}/link-invites")}


def test_invite_links_apply_converge_change_and_export_without_their_ids(
    either_contract: EmulatorHandle, write: Write, tmp_path: Path
) -> None:
    docsync = cli_for(either_contract)
    manifest = write("org.yaml", FIRST)
    planned = docsync("plan", manifest)
    assert planned.exit_code == 0, planned.output
    assert '+ create invite_link["read"]' in planned.stdout
    assert '+ create invite_link["guest"]' in planned.stdout
    outputs = [planned.output, apply(docsync, manifest)]
    outputs.append(assert_converged(docsync, manifest).output)
    first = live(either_contract)
    assert set(first) == {None, "read"}

    # The list is exact: the read link goes, an edit link comes, the guest link stays.
    manifest = write("org.yaml", CHANGED)
    saved = tmp_path / "plan.json"
    planned = docsync("plan", manifest, "--out", saved)
    assert planned.exit_code == 0, planned.output
    assert '- delete invite_link["read"]' in planned.stdout
    assert "not in the manifest's list, which is exact" in planned.stdout
    assert '+ create invite_link["edit"]' in planned.stdout
    assert 'invite_link["guest"]' not in planned.stdout
    outputs += [planned.output, docsync("plan", manifest, "--format", "json").output]
    outputs.append(docsync("plan", manifest, "--format", "markdown").output)
    before = either_contract.stats()
    applied = docsync("apply", "--plan", saved, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    outputs.append(applied.output)
    written = requests_between(before, either_contract.stats())
    assert written[f"POST {LINKS}"] == 1
    assert written[f"DELETE {LINKS}/{{inviteId}}"] == 1
    outputs.append(assert_converged(docsync, manifest).output)
    now = live(either_contract)
    assert set(now) == {None, "edit"}
    assert now[None] == first[None]  # the guest link kept: the same link, the same id

    # `inviteLinks: []` is written, and exact: every link goes.
    emptied = write("empty.yaml", "organization: org_acme\ninviteLinks: []\n")
    for path in (emptied, manifest):  # the apply's report (`--format json`) holds ids
        reported = docsync("apply", path, "--auto-approve", "--format", "json")
        assert reported.exit_code == 0, reported.output
        outputs += [reported.stdout, reported.stderr]
        if path == emptied:
            assert live(either_contract) == {}
    exported, org = export_plans_empty(docsync, tmp_path / "export", "org.yaml")
    outputs.append(exported.output)
    assert yaml.safe_load(org)["inviteLinks"] == [{"role": None}, {"role": "edit"}]
    files = [p.read_text(encoding="utf-8") for p in tmp_path.rglob("*") if p.is_file()]
    # A link cannot be pinned by its id: that would write the secret into the manifest.
    guest = live(either_contract)[None]
    pinned = docsync("validate", write("pin.yaml", f"{FIRST}  - {{id: {guest}, role: read}}\n"))
    assert pinned.exit_code == 1
    assert "inviteLinks[2].id: an invite link's id is the link itself" in pinned.stderr
    outputs.append(pinned.output)
    for secret in {*first.values(), *now.values(), *live(either_contract).values()}:
        for blob in outputs + files:
            assert secret not in blob, f"an invite link's id leaked: {blob[:300]}"
