"""Apply along the dependency graph: order, partial failure, and convergence under faults."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.emulator_harness import EmulatorHandle
from tests.kit import (
    Docsync,
    Write,
    apply_ok,
    assert_converged,
    listed,
    progress_lines,
)

ORG = "/v1/orgs/org_acme"

TREE = """\
organization: org_acme
teams: [{title: Platform}, {title: Spare}]
saml: [{label: Okta, defaultTeam: Platform, defaultRole: read}]
collections: [{title: Developers}, {title: Internal, parent: Developers}]
spaces: [{title: Guides, collection: Developers}, {title: Runbooks, collection: Internal}]
translations: [{title: French}]
"""


def position(lines: list[str], wanted: str) -> int:
    (index,) = [i for i, line in enumerate(lines) if line.endswith(wanted)]
    return index


def space_id(emulator: EmulatorHandle, title: str) -> str:
    (found,) = [s["id"] for s in listed(emulator, f"{ORG}/spaces") if s["title"] == title]
    return str(found)


def test_references_first_deletes_in_reverse(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    created = progress_lines(apply_ok(docsync, write("tree.yaml", TREE)))
    assert position(created, 'create team["Platform"]') < position(created, 'create saml["Okta"]')
    dev = position(created, 'create collection["Developers"]')
    assert dev < position(created, 'create collection["Developers/Internal"]')
    assert dev < position(created, 'create space["Developers/Guides"]')
    internal = position(created, 'create collection["Developers/Internal"]')
    assert internal < position(created, 'create space["Developers/Internal/Runbooks"]')

    runbooks_id = space_id(emulator, "Runbooks")
    teardown = write(
        "down.yaml",
        f"""\
organization: org_acme
teams: [{{title: Platform, state: absent}}]
saml: [{{label: Okta, state: absent}}]
collections: [{{title: Developers}}, {{title: Internal, parent: Developers, state: absent}}]
spaces:
  - {{title: Guides, collection: Developers}}
  - {{id: {runbooks_id}, title: Runbooks, state: absent}}
""",
    )
    deleted = progress_lines(apply_ok(docsync, teardown))
    assert position(deleted, 'delete saml["Okta"]') < position(deleted, 'delete team["Platform"]')
    runbooks = position(deleted, 'delete space["Developers/Internal/Runbooks"]')
    assert runbooks < position(deleted, 'delete collection["Developers/Internal"]')
    assert_converged(docsync, teardown)


def test_space_moved_out_before_its_collection_is_pruned(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    apply_ok(docsync, write("tree.yaml", TREE))
    runbooks_id = space_id(emulator, "Runbooks")
    moved = write(
        "moved.yaml",
        f"""\
organization: org_acme
prune: [collections]
collections: [{{title: Developers}}]
spaces:
  - {{title: Guides, collection: Developers}}
  - {{id: {runbooks_id}, title: Runbooks, collection: Developers}}
""",
    )
    result = apply_ok(docsync, moved)
    lines = progress_lines(result)
    assert lines.index('ok      update space["Developers/Runbooks"]') < lines.index(
        'ok      delete collection["Developers/Internal"]'
    )
    assert [c["title"] for c in listed(emulator, f"{ORG}/collections")] == ["Developers"]
    assert space_id(emulator, "Runbooks") == runbooks_id
    assert_converged(docsync, moved)


def test_partial_failure_skips_dependents_then_converges(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    path = write("tree.yaml", TREE)
    # Every attempt at creating a collection fails: docsync re-reads, finds none, tries again.
    rule = {"method": "POST", "path": "/collections$", "status": 500, "count": 50}
    emulator.set_faults(rules=[rule])
    result = docsync("apply", path, "--auto-approve")
    assert result.exit_code == 1, result.output
    lines = progress_lines(result)
    assert any(line.startswith('FAILED  create collection["Developers"]: ') for line in lines)
    assert "500" in result.stdout and "Injected failure" in result.stdout
    for skipped in (
        'create collection["Developers/Internal"]',
        'create space["Developers/Guides"]',
        'create space["Developers/Internal/Runbooks"]',
    ):
        assert f"skipped {skipped}" in " ".join(lines), skipped
    for done in ('create team["Platform"]', 'create saml["Okta"]', 'create translation["French"]'):
        assert f"ok      {done}" in lines, done
    assert "Apply finished: 4 done, 1 failed, 3 skipped." in result.stdout
    assert listed(emulator, f"{ORG}/collections") == []

    emulator.set_faults()
    second = apply_ok(docsync, path)
    assert "4 to create, 0 to update, 0 to delete" in second.stdout
    assert_converged(docsync, path)


@pytest.mark.slow
@pytest.mark.usefixtures("quick_retries")
def test_faults_converge_without_duplicates(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    path = write("tree.yaml", TREE)
    emulator.set_faults(fail_429=0.15, fail_5xx=0.15, drop_after_commit=0.3, retry_after=0, seed=11)
    outcomes = []
    for _ in range(4):
        result = docsync("apply", path, "--auto-approve", "--parallelism", "4")
        outcomes.append(result.exit_code)
        if result.exit_code == 0 and "No changes." in result.stdout:
            break
    assert outcomes[-1] == 0, outcomes
    faults = emulator.stats()["faults"]
    assert faults.get("drop", 0) > 0 and faults.get("429", 0) > 0, faults
    emulator.set_faults()
    assert_converged(docsync, path)
    for what, key in (
        ("teams", "title"),
        ("saml", "label"),
        ("collections", "title"),
        ("spaces", "title"),
        ("translations", "title"),
    ):
        counts = Counter(item[key] for item in listed(emulator, f"{ORG}/{what}"))
        assert all(n == 1 for n in counts.values()), (what, counts)
    assert sorted(t["title"] for t in listed(emulator, f"{ORG}/teams")) == ["Platform", "Spare"]
