"""GitBook's official JS client (`@gitbook/api`, the pinned package) drives a configuration
session against the emulator: a client no one here wrote keeps checking what the emulator
answers (every answer also passes the harness's production-schema check)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tests.contract.document import JS_CLIENT, VERSION, missing
from tests.emulator_harness import EmulatorHandle

SESSION = Path(__file__).with_name("js_session.cjs")


def test_official_js_client_configures_an_organization(emulator: EmulatorHandle) -> None:
    node = shutil.which("node")
    if node is None:
        missing("node is not installed: the @gitbook/api client session needs it")
    if not JS_CLIENT.is_file():
        missing(f"@gitbook/api@{VERSION} is not in .cache/contract/: run bash scripts/contract.sh")
    assert node is not None
    done = subprocess.run(
        [node, str(SESSION), str(JS_CLIENT), emulator.url, "tok_ada"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert len(seen["seen"]) == 35 and all(200 <= s < 300 for s in seen["seen"].values())
    assert seen["root"] == ["Reference", "Learn"]  # sorted, the section moved into its group
    # a group nested in Learn (moved out to the root and back: last of Learn), holding a link
    assert seen["learn"] == ["Guides", "Deep dives"]
    assert seen["deep"] == [["site-external-link", "Status"]]
    (learn, outer, learn_draft), (deep, held_by, deep_draft) = seen["groups"]
    assert (learn, outer, learn_draft) == ("Learn", None, False)
    assert deep == "Deep dives" and held_by is not None and deep_draft is False  # was a draft
    assert seen["localized"] == [{"fr": "Plongées"}, {"fr": "Statut"}, {"fr": "État du service"}]
    kind, same, target = seen["redirect"]
    assert kind == "site-page" and same and target.startswith(emulator.url)
    assert seen["published"] is True and seen["proxy"] == "acme.example/docs"
