"""Property: `validate` is as strict as `plan` offline. Manifests are drawn (the every-kind
strategies, then the mistakes a plan refuses without reading anything: an entry the manifest
deletes that others still name, an integration installed where a deleted or pruned site or space
stood, publishing auth on a site written with another visibility, `prune:` over sites and
integrations, the seed's space renamed with `was:` while entries still name it by its old
name); each is validated, and one that passes is planned, without a request, against the
organization as it is before docsync runs (the seed's members and its one space, read once).
A plan that refuses it then refuses for a reason no live state gave (but a name no entry holds
and the seed has not, which a live resource elsewhere could answer): `validate` should have
refused first, at the line that writes it."""

from __future__ import annotations

import asyncio
import copy
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from docsync.api import ApiClient
from docsync.core.errors import PlanProblems
from docsync.core.state import LiveState
from docsync.engine.planner import diff, read_live
from docsync.kinds import KINDS
from docsync.manifest import ManifestError, load_manifests
from tests.depth import examples
from tests.engine.every_kind_org import SEED_SPACE, Doc
from tests.engine.every_kind_sites import SITES, VISIBILITIES
from tests.engine.test_property_every_kind import manifests
from tests.kit import CERT, TOKEN, EmulatorHandle

TOP = [k for k in KINDS if not k.nested]
INTEGRATIONS = ("google-analytics", "okta-visitor-auth")
#: the kinds an entry may be written `state: absent` for, with their key
DELETABLE = {"spaces": "title", "sites": "title", "teams": "title", "collections": "title"}
_SEED: list[LiveState] = []
#: what only a live resource answers: a name neither the manifest nor the seed holds may stand
#: in another organization (a live site of that title), so validate leaves it to plan
LIVE = "in the manifest or the organization"


@st.composite
def mistaken(draw: st.DrawFn) -> Doc:
    """A drawn manifest with some of what plan refuses offline."""
    doc: Doc = draw(manifests())
    for section, key in DELETABLE.items():
        entries = doc.get(section) or []
        if entries and draw(st.integers(0, 3)) == 0:
            index = draw(st.integers(0, len(entries) - 1))
            gone = {key: entries[index][key], "state": "absent"}
            if "collection" in entries[index]:
                gone["collection"] = entries[index]["collection"]
            entries[index] = gone
    sites = [s["title"] for s in doc.get("sites", [])] + list(SITES) + ["Elsewhere"]
    spaces = [s["title"] for s in doc.get("spaces", [])] + [SEED_SPACE]
    if draw(st.booleans()):
        doc["integrations"] = [
            {
                "name": name,
                "sites": {t: {} for t in draw(st.lists(st.sampled_from(sites), max_size=2))},
                "spaces": {t: {} for t in draw(st.lists(st.sampled_from(spaces), max_size=2))},
            }
            for name in draw(st.lists(st.sampled_from(INTEGRATIONS), unique=True, min_size=1))
        ]
    if draw(st.booleans()):
        doc["prune"] = draw(
            st.lists(st.sampled_from(("sites", "integrations", "teams")), unique=True)
            | st.fixed_dictionaries({"sites": st.sampled_from(("*", "Dev*", "Elsewhere"))})
        )
    for site in doc.get("sites", []):
        if site.get("state") != "absent" and draw(st.integers(0, 3)) == 0:
            site["publishingAuth"] = {"backend": "custom"}
            site["visibility"] = draw(st.sampled_from(VISIBILITIES))
    _renames_the_seed_space(draw, doc)
    return doc


def _renames_the_seed_space(draw: st.DrawFn, doc: Doc) -> None:
    """Now and then a space renames the seed's (`was: Internal Handbook`), which what the
    manifest writes may still name by that old name (its translations, site spaces and
    integrations draw it): after the apply that name names nothing."""
    spaces = doc.get("spaces", [])
    kept = {s["title"] for s in spaces} | {s.get("was") for s in spaces}
    free = [s for s in spaces if "was" not in s and s.get("state") != "absent"]
    if SEED_SPACE not in kept and free and draw(st.integers(0, 2)) == 0:
        draw(st.sampled_from(free))["was"] = SEED_SPACE


def _seed(emulator: EmulatorHandle) -> LiveState:
    """The organization before docsync runs, read once (as export reads it)."""
    if not _SEED:

        async def read() -> LiveState:
            async with ApiClient(emulator.url, TOKEN) as api:
                live, _ = await read_live(api, "org_acme", None, KINDS)
            return live

        live = asyncio.run(read())
        live.read_aside.pop("integration", None)  # the integrations' schemas: not read offline
        _SEED.append(live)
    return copy.deepcopy(_SEED[0])


def _load(doc: Doc) -> Any:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "m.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
        return load_manifests([path], environ={"SAML_CERT": CERT})


@pytest.mark.slow
@settings(
    max_examples=examples(120),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(doc=mistaken())
def test_what_plan_refuses_offline_validate_refused_first(
    emulator: EmulatorHandle, doc: Doc
) -> None:
    live = _seed(emulator)
    try:
        loaded = _load(doc)
    except ManifestError:
        return  # validate refused it
    try:
        diff(loaded, live, TOP)
    except PlanProblems as refused:
        offline = [p for p in refused.problems if LIVE not in p]
        assert not offline, "validate passed what plan refuses offline:\n" + "\n".join(offline)
