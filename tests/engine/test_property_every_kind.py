"""Property: whatever `validate` accepts applies and converges, across every kind at once.

A random manifest A is applied to the seed (a random live state); then a second random manifest
B, drawn from the same pools of names, is validated, applied, planned (empty) and the
organization exported and planned (empty). In one history of two, B renames with `was:` a
space, site or team A made and names it by its new name where A named it by its old one (an
installation, a translation, the default content, a SAML provider: every_kind_renames.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.depth import examples
from tests.engine import every_kind_org as org
from tests.engine.every_kind_live import settle
from tests.engine.every_kind_org import Doc
from tests.engine.every_kind_renames import NEW_NAMES, renamed_and_named
from tests.engine.every_kind_sites import SITES, sites
from tests.kit import CERT, EmulatorHandle, apply, assert_converged, cli_for

#: what export writes a visitor-auth site's fallback URL as (a secret): the one value drawn
FALLBACKS = {
    "DOCSYNC_SITE_"
    + re.sub(r"[^A-Za-z0-9]+", "_", title).upper()
    + "_PUBLISHINGAUTH_FALLBACKURL": ("https://acme.example/login")
    for title in NEW_NAMES["sites"]
}
#: what export writes the integration's configuration as (a text: taken as a secret)
EXPORTED = {"DOCSYNC_INTEGRATION_GOOGLE_ANALYTICS_CONFIGURATION_TRACKING_ID": org.TRACKING_ID}
#: the kinds `prune:` may name (spaces and members never go but by `state: absent`)
PRUNABLE = ("teams", "saml", "collections", "openapi", "translations", "sites")
#: the pool of names of each kind whose entries may be written `state: absent`
ABSENT: dict[str, tuple[str, tuple[str, ...]]] = {
    "teams": ("title", org.TEAMS),
    "saml": ("label", org.LABELS),
    "collections": ("title", org.COLLECTIONS),
    "spaces": ("title", org.SPACES),
    "openapi": ("slug", org.SLUGS),
    "sites": ("title", SITES),
}


def _absent(draw: st.DrawFn, doc: Doc) -> None:
    """Now and then `state: absent` for a name of the pool that no entry keeps or renames (a
    space's within one of the manifest's collections, or at the top level)."""
    holders = [c["title"] for c in doc.get("collections", []) if c.get("state") != "absent"]
    for kind, (key, pool) in ABSENT.items():
        entries = doc.setdefault(kind, [])
        used = {e[key] for e in entries} | {e["was"].split("/")[-1] for e in entries if "was" in e}
        free = [name for name in pool if name not in used]
        if free and draw(st.booleans()):
            entry: Doc = {key: draw(st.sampled_from(free)), "state": "absent"}
            if kind == "spaces" and holders and draw(st.booleans()):
                entry["collection"] = draw(st.sampled_from(holders))
            entries.append(entry)


def _prune(draw: st.DrawFn) -> Any:
    kinds = draw(st.lists(st.sampled_from(PRUNABLE), unique=True))
    if not kinds or draw(st.booleans()):
        return kinds
    return {kind: draw(st.sampled_from(("*", "[A-P]*", ["Dev*", "Okta"]))) for kind in kinds}


def often(draw: st.DrawFn) -> bool:
    """Three times in four: the kinds others refer to (teams, spaces) and sites."""
    return draw(st.integers(0, 3)) > 0


@st.composite
def manifests(draw: st.DrawFn, before: Doc | None = None) -> Doc:
    """One manifest, each kind written or not independently (so that Hypothesis shrinks a
    failure to the kinds it needs). `before`: the manifest applied first, which this one may
    rename from (`was:`), prune or delete."""
    doc: Doc = {"organization": "org_acme"}
    later = before is not None
    if draw(st.booleans()):
        doc["members"] = draw(org.members(later))
    if often(draw):
        doc["teams"] = draw(org.teams(before))
    teams = [t["title"] for t in doc.get("teams", [])]
    if draw(st.booleans()):
        doc["saml"] = draw(org.saml(teams, before))
    if draw(st.booleans()):
        doc["collections"] = draw(org.collections(teams, before))
    if draw(st.booleans()):
        holders = org.collection_paths(doc)
        doc["spaces"] = draw(org.spaces(teams, holders, before))
    published = [s["title"] for s in doc.get("spaces", [])] + [org.SEED_SPACE]
    if draw(st.booleans()):
        doc["openapi"] = draw(org.openapi())
    if draw(st.booleans()):
        doc["translations"] = draw(org.translations(published[:-1]))
    if often(draw):
        doc["sites"] = draw(sites(published, teams, before))
    if draw(st.booleans()):
        titles = [s["title"] for s in doc.get("sites", [])]
        doc["integrations"] = draw(org.integrations(titles, published))
    if draw(st.booleans()):
        doc["settings"] = draw(org.settings([s["title"] for s in doc.get("sites", [])]))
    if later:
        _absent(draw, doc)
        doc["prune"] = _prune(draw)
        doc["safety"] = {"max_delete_share": 1}
    return {k: v for k, v in doc.items() if v != [] or draw(st.booleans())}


@st.composite
def histories(draw: st.DrawFn) -> tuple[Doc, Doc]:
    first = draw(manifests())
    second = draw(manifests(first))
    renamed_and_named(draw, first, second)
    return first, settle(first, second)


def _write(path: Path, doc: Doc) -> Path:
    path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


@pytest.mark.slow
@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(history=histories())
def test_validate_apply_plan_and_export_agree_on_every_kind(
    either_contract: EmulatorHandle,
    tmp_path_factory: pytest.TempPathFactory,
    history: tuple[Doc, Doc],
) -> None:
    """What A left live is B's to adopt, delete or leave, as a Terraform user expects:
    adopted when an entry of B names it (by its key, or by the name it had, `was:`), deleted
    when B writes it `state: absent` or prunes its kind (`prune:`, the opt-in to deleting what
    the manifest does not list; members and spaces never go that way), and otherwise left
    alone as unmanaged. Either way `validate` passes, the apply goes through, the next plan is
    empty, and so is the plan of the export of everything then live.

    B drops the deletion rail (`safety: {max_delete_share: 1}`: it has tests of its own) and
    the deletes a plan rightly refuses because something B leaves still names what they delete
    (`every_kind_live.settle`, which also keeps the one documented exception of export out:
    a redirect left pointing at a deleted site space)."""
    first, second = history
    either_contract.reset()
    certificates = {f"DOCSYNC_SAML_{label.upper()}_CERTIFICATE": CERT for label in org.LABELS}
    docsync = cli_for(either_contract, **certificates, **FALLBACKS, **EXPORTED)
    work = tmp_path_factory.mktemp("every-kind")
    apply(docsync, _write(work / "a.yaml", first))
    manifest = _write(work / "b.yaml", second)
    validated = docsync("validate", manifest)
    assert validated.exit_code == 0, validated.output
    apply(docsync, manifest)
    assert_converged(docsync, manifest)
    exported = docsync("export", "--org", "org_acme", "--out", work / "export")
    assert exported.exit_code == 0, exported.output
    assert_converged(docsync, work / "export")
