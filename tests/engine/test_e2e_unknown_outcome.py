"""A write whose answer was lost after the server carried it out, and the apply that wrote it
ended before it could look (a crash): the next apply adopts what was made. The scenarios where
answers are lost within one apply are each kind's (`test_e2e_lost_answers.py`)."""

from __future__ import annotations

import pytest

from tests.emulator_harness import EmulatorHandle
from tests.engine.conftest import Docsync, Write, apply_ok, assert_converged, listed
from tests.engine.faultkit import ORG

#: what is retried and that it converges is tested here, not how long the client waits
pytestmark = pytest.mark.usefixtures("quick_retries")


def test_a_section_left_at_the_path_the_api_chose_is_adopted(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    """As after a crash between a section's create and its site space's path change."""
    head = "organization: org_acme\nspaces: [{title: Guides}]\nsites:\n  - title: Docs\n"
    apply_ok(docsync, write("site.yaml", head))
    (site,) = [s["id"] for s in listed(emulator, f"{ORG}/sites") if s["title"] == "Docs"]
    (space,) = [s["id"] for s in listed(emulator, f"{ORG}/spaces") if s["title"] == "Guides"]
    with emulator.client() as client:
        made = client.post(f"{ORG}/sites/{site}/sections", json={"spaceId": space, "title": "Gs"})
    assert made.status_code == 201, made.text
    assert made.json()["siteSpaces"][0]["path"] != "latest"
    wanted = write(
        "site.yaml",
        head + "    sections:\n      - title: Gs\n"
        "        siteSpaces: [{space: Guides, path: latest}]\n",
    )
    planned = docsync("plan", wanted)
    assert "Plan: 0 to create, 1 to update, 0 to delete." in planned.stdout, planned.output
    apply_ok(docsync, wanted)
    assert_converged(docsync, wanted)
