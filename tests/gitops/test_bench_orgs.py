"""The seed of a bench organization as its manifest's apply leaves it (tests/gitops/bench_orgs.py)
is that organization: what docsync reads of it is what docsync reads once the manifest is
applied, resource by resource, up to the ids and the timestamps the emulator makes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from tests.gitops.bench_orgs import applied_seed, bench_org
from tests.gitops.test_rehearse import _as_read, _read
from tests.kit import TOKEN, EmulatorHandle, apply_ok, assert_converged, cli_for

STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def _alike(applied: Any, prepared: Any, made: dict[str, str], where: str = "") -> None:
    """`applied` and `prepared` hold the same, but for timestamps and the strings in `made`
    (filled as met: each string of `applied` stands for one of `prepared`, always the same)."""
    if isinstance(applied, dict) and isinstance(prepared, dict):
        assert applied.keys() == prepared.keys(), (where, applied.keys() ^ prepared.keys())
        for key in applied:
            _alike(applied[key], prepared[key], made, f"{where}.{key}")
    elif isinstance(applied, list | tuple) and isinstance(prepared, list | tuple):
        assert len(applied) == len(prepared), where
        for i, pair in enumerate(zip(applied, prepared, strict=True)):
            _alike(*pair, made, f"{where}[{i}]")
    elif applied != prepared:
        assert isinstance(applied, str) and isinstance(prepared, str), (where, applied, prepared)
        if not (STAMP.fullmatch(applied) and STAMP.fullmatch(prepared)):
            assert made.setdefault(applied, prepared) == prepared, (where, applied, prepared)


def test_an_applied_bench_organization_is_its_seed_read_back(
    production: EmulatorHandle, tmp_path: Path
) -> None:
    """At 100 resources: 2 published sites of 6 sections of 3 site spaces, 5 teams (the last
    one's members wrapping round the list), a collection of 7 spaces, 25 members (an admin,
    editors, readers)."""
    org = bench_org(100)
    production.reset(org.seed())
    docsync = cli_for(production)
    path = tmp_path / "org.yaml"
    path.write_text(yaml.safe_dump(org.manifest(), sort_keys=False), "utf-8")
    apply_ok(docsync, path)
    applied = _as_read(_read(production.url, TOKEN))
    production.reset(applied_seed(org, "2026-01-01T00:00:00.000Z"))
    prepared = _as_read(_read(production.url, TOKEN))
    assert_converged(docsync, path)
    assert applied.keys() == prepared.keys()
    made: dict[str, str] = {}
    _alike(applied, prepared, made)
    ids = {applied[a][0]: prepared[a][0] for a in applied}
    assert len(set(ids.values())) == len(ids)  # one resource for one
    for made_by_the_emulator, written in made.items():  # ids, or made of them (a revision)
        for id_, its in ids.items():
            made_by_the_emulator = made_by_the_emulator.replace(id_, its)
        assert made_by_the_emulator == written
