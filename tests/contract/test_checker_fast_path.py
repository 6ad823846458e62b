"""The contract checker's fast path (jsonschema_rs) agrees with jsonschema, the reference of
Draft 2020-12: a body it passes, the check passes, so the two must never differ. Every answer of
a tour of the emulator's operations, whole and broken a field at a time, gets the same verdict
from both."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

from docsync.emulator.app import EmulatorConfig
from tests.contract.checker import Contract
from tests.contract.document import require_spec
from tests.contract.fuzz_org import populate
from tests.emulator_harness import SEED, in_process

ORG = "/v1/orgs/org_acme"


def _broken(value: Any) -> Iterator[Any]:
    """`value` with one field at a time removed, nulled or given a number (at most 60)."""
    if not isinstance(value, dict):
        return
    count = 0
    for key in list(value):
        for change in ("remove", "null", "number"):
            broken = copy.deepcopy(value)
            if change == "remove":
                del broken[key]
            else:
                broken[key] = None if change == "null" else 7
            count += 1
            if count > 60:
                return
            yield broken


def test_the_fast_path_agrees_with_the_reference() -> None:
    spec = require_spec()
    fast, reference = Contract(spec), Contract(spec, fast=False)
    with in_process(EmulatorConfig(seed=SEED, contract="production")) as (client, _):
        populate(client, str(client.base_url).rstrip("/"), "tok_ada")
        site = client.get(f"{ORG}/sites").json()["items"][0]["id"]
        reads = [
            f"{ORG}/sites",
            f"{ORG}/sites/{site}",
            f"{ORG}/sites/{site}/structure",
            f"{ORG}/sites/{site}/customization",
            f"{ORG}/sites/{site}/channels",
            f"{ORG}/sites/{site}/context-connections",
            f"{ORG}/sites/{site}/spaces/git/installations",
            f"{ORG}/translations-glossary",
            f"{ORG}/teams",
            f"{ORG}/spaces",
            f"{ORG}/members",
        ]
        compared = 0
        for path in reads:
            answer = client.get(path)
            assert answer.status_code == 200, (path, answer.text)
            body = answer.json()
            variants = [body, *_broken(body)]
            if body.get("items"):  # a list: its first item broken inside it
                variants += [{**body, "items": [item]} for item in _broken(body["items"][0])]
            for value in variants:
                raw = json.dumps(value).encode()
                said = fast.check_answer("GET", path, 200, raw)
                ruled = reference.check_answer("GET", path, 200, raw)
                assert said is not None and ruled is not None
                assert [str(v) for v in said] == [str(v) for v in ruled], (path, value)
                compared += 1
        assert compared > 200
