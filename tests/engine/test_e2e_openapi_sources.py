"""OpenAPI sources: a text source is never read back, so export names such a spec by slug
alone, an entry without `source` keeps a live spec as it is, and a new spec needs one."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.emulator_harness import EmulatorHandle
from tests.kit import ORG, Docsync, Write, apply_ok, converged, export_plans_empty, listed

SPECS = """\
organization: org_acme
openapi:
  - {slug: public-api, source: {url: "https://acme.example/openapi.yaml"}}
  - slug: inline-api
    source: {text: "openapi: 3.0.0\\ninfo: {title: Inline, version: '1'}\\npaths: {}\\n"}
"""


def test_a_spec_made_from_text_exports_by_slug_and_plans_empty(
    docsync: Docsync, write: Write, tmp_path: Path
) -> None:
    apply_ok(docsync, write("specs.yaml", SPECS))
    _, content = export_plans_empty(docsync, tmp_path / "out", "content.yaml")
    specs = {s["slug"]: s for s in yaml.safe_load(content)["openapi"]}
    assert specs["public-api"]["source"] == {"url": "https://acme.example/openapi.yaml"}
    assert specs["inline-api"] == {"slug": "inline-api"}  # its text cannot be read back


def test_an_entry_without_source_keeps_a_live_spec(docsync: Docsync, write: Write) -> None:
    apply_ok(docsync, write("specs.yaml", SPECS))
    kept = write("kept.yaml", "organization: org_acme\nopenapi: [{slug: inline-api}]\n")
    converged(docsync, kept)


def test_a_new_spec_without_source_is_a_located_problem(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    path = write("new.yaml", "organization: org_acme\nopenapi:\n  - slug: fresh-api\n")
    assert docsync("validate", path).exit_code == 0  # whether it exists is known live only
    result = docsync("plan", path)
    assert result.exit_code == 1
    assert (
        f"{path}:3:5: openapi[0]: a new OpenAPI spec needs 'source': {{url: ...}} or {{text: ...}}"
        in result.stderr
    )
    assert "Traceback" not in result.output
    assert listed(emulator, f"{ORG}/openapi") == []


def test_a_url_source_changed_to_text_is_planned(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    apply_ok(docsync, write("specs.yaml", SPECS))
    text = SPECS.replace('{url: "https://acme.example/openapi.yaml"}', '{text: "openapi: 3.1.0"}')
    changed = write("changed.yaml", text)
    result = docsync("plan", changed)
    assert 'update openapi["public-api"]' in result.stdout, result.output
    apply_ok(docsync, changed)
    public = next(s for s in listed(emulator, f"{ORG}/openapi") if s["slug"] == "public-api")
    assert "sourceURL" not in public
    converged(docsync, changed)
