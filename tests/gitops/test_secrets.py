"""No secret leaves docsync, on either side of a change. The rich example, with every secret the
catalogue declares (tests/gitops/secret_slots.py finds them: a kind added later with a secret
field is covered without a line here) and values secret by provenance only, goes through four
phases: applied from `env()`, changed to plain values, back to `env()`, rotated. Each phase is
validated, planned (text, Markdown, JSON, a saved plan), shown (text, Markdown, JSON), rehearsed
on a copy of the organization (text or Markdown), applied from the saved plan with -vv in a
process of its own, planned again (empty) and, twice, exported as manifests and as a snapshot
(the first pseudonymized); a saved plan made stale by a secret changed by hand is refused.
Every byte of every output and of every file written is scanned for every value, its encodings
(base64, URL- and JSON-escaped) and its unkeyed digests, and for the secrets the API makes
(share links' URLs, a visitor-auth site's private key, invite links' ids) and the token."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import Result

from tests.gitops.secret_slots import (
    Slot,
    needles,
    owners,
    placed,
    rich_manifest,
    secret_fields,
    slots,
)
from tests.kit import ORG, TOKEN, EmulatorHandle, cli_env, invoke, listed, run_process

#: the phases: what the declared secrets are written as, and the letter of their values
PHASES = (("env", "a"), ("plain", "b"), ("env", "c"), ("env", "d"))
#: what the hand-made change of the last phase's saved plan writes
BY_HAND = "by-hand-client-secret+/=ë"


def _values(found: list[Slot], letter: str) -> dict[int, str]:
    """Each slot's value in a phase: provenance-only ones stay as they were when the declared
    ones go plain (they change only from env() to env())."""
    own = "a" if letter == "b" else letter
    return {
        index: slot.value(index, letter if slot.owner else own) for index, slot in enumerate(found)
    }


def _manifest(data: dict[str, Any], found: list[Slot], form: str, values: dict[int, str]) -> str:
    text = yaml.safe_dump(placed(data, found), sort_keys=False, allow_unicode=True)
    for index, slot in enumerate(found):
        if form == "plain" and slot.owner is not None:
            written = json.dumps(values[index])
        else:
            written = f"\"{{{{ env('DS_SECRET_{index:02d}') }}}}\""
        text = text.replace(f"'@@SLOT{index:02d}@@'", written)
    assert "@@SLOT" not in text
    return text


def _changed(document: dict[str, Any]) -> int:
    """How many sensitive changes a JSON plan shows, each with two different markers."""
    return sum(
        1
        for action in document["actions"]
        for change in action["changes"]
        if change["sensitive"] and change["before"] != change["after"]
    )


@pytest.mark.slow
def test_no_secret_in_any_output_or_file(emulator: EmulatorHandle, tmp_path: Path) -> None:
    data = rich_manifest()
    found = slots(data)
    declared = {(d.name, f.name) for d, f in secret_fields()}
    assert owners(found) == declared, (
        f"the rich example (examples/rich) writes no text value of {declared - owners(found)}: "
        "write one, so that this test covers it"
    )
    manifest = tmp_path / "acme.yaml"
    outputs: list[bytes] = []
    secrets: set[str] = {BY_HAND, TOKEN}
    #: secret by provenance only: export, which reads no manifest, writes them as they are
    provenance: set[str] = set()

    def run(*args: str | Path, code: int = 0) -> Result:
        result = invoke(env, *args)
        assert result.exit_code == code, (args, result.output)
        outputs.extend([result.stdout.encode(), result.stderr.encode()])
        return result

    for phase, (form, letter) in enumerate(PHASES):
        values = _values(found, letter)
        secrets |= {values[i] for i, slot in enumerate(found) if slot.owner is not None}
        provenance |= {values[i] for i, slot in enumerate(found) if slot.owner is None}
        manifest.write_text(_manifest(data, found, form, values), "utf-8")
        env = cli_env(emulator, **{f"DS_SECRET_{i:02d}": v for i, v in values.items()})
        saved = tmp_path / f"plan-{phase}.json"
        run("validate", manifest)
        # The rotation is planned with --resend-secrets: the secrets the API masks too.
        rotation = phase == len(PHASES) - 1
        resend = ("--resend-secrets",) if rotation else ()
        text = run("plan", manifest, *resend, "--out", saved, "--detailed-exitcode", code=2).stdout
        if phase in (1, len(PHASES) - 1):  # as the live plan draws it; else from the saved
            run("plan", manifest, "--format", "markdown")
        run("show", saved)
        run("show", saved, "--format", "markdown")
        document = json.loads(run("show", saved, "--format", "json").stdout)
        if phase:
            # Every secret that changed is planned, each as `(sensitive) (changed)`; one the
            # API answers masked only when sent again (nothing to compare it with).
            units = {
                s.unit
                for s in found
                if (s.owner is not None or letter != "b") and (rotation or not s.masked)
            }
            assert _changed(document) >= len(units - {None}), text
            assert "(sensitive) (changed)" in text
        if phase == len(PHASES) - 1:
            _change_by_hand(emulator)
            stale = run("apply", "--plan", saved, code=1)
            assert "stale" in stale.stderr
            run("plan", manifest, *resend, "--out", saved, "--detailed-exitcode", code=2)
        # The saved plan on a copy of the organization: the same promise, no secret said.
        shaped = ("--format", "markdown") if phase % 2 else ()
        rehearsed = run("rehearse", "--plan", saved, *shaped).stdout
        assert "Rehearsed: applies, next plan empty" in rehearsed, rehearsed
        applied = run_process("apply", "-vv", "--plan", saved, env=env, cwd=tmp_path)
        assert applied.returncode == 0, applied.stderr
        assert "DEBUG" in applied.stderr  # -vv logs every request
        outputs.extend([applied.stdout.encode(), applied.stderr.encode()])
        run("plan", manifest, "--detailed-exitcode")
        if form == "plain" or phase == len(PHASES) - 1:
            run("export", "--org", "org_acme", "--out", tmp_path / f"export-{phase}")
            pseudonymized = ("--pseudonymize",) if form == "plain" else ()
            snapshot = tmp_path / f"snapshot-{phase}"
            run("export", "--org", "org_acme", "--format", "emulator-seed", *pseudonymized,
                "--out", snapshot)  # fmt: skip
    written = [p for p in tmp_path.rglob("*") if p.is_file() and p != manifest]
    plans = [p.read_bytes() for p in written if p.name.startswith("plan-")]
    exports = [p.read_bytes() for p in written if not p.name.startswith("plan-")]
    assert len(plans) == len(PHASES) and exports
    secrets |= _made_by_the_api(emulator)
    for secret in sorted(secrets | provenance):
        scanned = outputs + plans + ([] if secret in provenance else exports)
        for name, needle in needles(secret).items():
            for blob in scanned:
                assert needle not in blob, f"{secret!r} ({name}) leaked"


def _change_by_hand(emulator: EmulatorHandle) -> None:
    """A client secret changed in the app after the plan was saved: its plan is stale."""
    (okta,) = [
        i
        for i in listed(emulator, f"{ORG}/installations")
        if i["integration"]["name"] == "okta-visitor-auth"
    ]
    installation = okta["installation"]
    configuration = {**installation["configuration"], "client_secret": BY_HAND}
    with emulator.client() as client:
        path = f"/v1/integrations/okta-visitor-auth/installations/{installation['id']}"
        answer = client.patch(path, json={"configuration": configuration})
        assert answer.status_code == 200, answer.text


def _made_by_the_api(emulator: EmulatorHandle) -> set[str]:
    """Share links' URLs (and the keys in them), a visitor-auth site's private key, invite
    links' ids: secrets docsync never reads into an output."""
    found: set[str] = {str(link["id"]) for link in listed(emulator, f"{ORG}/link-invites")}
    with emulator.client() as client:
        for site in listed(emulator, f"{ORG}/sites"):
            path = f"{ORG}/sites/{site['id']}"
            for link in listed(emulator, f"{path}/share-links"):
                url = str(link["urls"]["published"])
                found |= {url, url.rsplit("/", 1)[1]}
            if site.get("visibility") == "visitor-auth":
                found.add(str(client.get(f"{path}/publishing/auth").json()["privateKey"]))
    assert len(found) > 3
    return found
