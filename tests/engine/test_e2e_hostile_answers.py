"""A server whose answers are not of the shape its API promises ends a plan in one line that
names the request and the field, never an internal error, a traceback or a plan built on them
(an id of `nan`); and when one of the reads running together fails, the others stop cleanly."""

from __future__ import annotations

import json
import re

import pytest

from tests.emulator_harness import EmulatorHandle
from tests.kit import Docsync, Write, apply_ok, cli_env, invoke, run_process
from tests.tamper import on, tampering

TEAMS = "organization: org_acme\nteams: [{title: Platform}, {title: Writers}]\n"


def _items(change: object) -> object:
    def rewrite(body: bytes) -> bytes:
        page = json.loads(body)
        page["items"] = [change(dict(item)) for item in page["items"]]  # type: ignore[operator]
        return json.dumps(page).encode()

    return rewrite


def _without_id(item: dict[str, object]) -> dict[str, object]:
    item.pop("id", None)
    return item


def _title_a_list(item: dict[str, object]) -> dict[str, object]:
    return {**item, "title": [item["title"]]}


def _nan_id(body: bytes) -> bytes:
    page = json.loads(body)
    text = json.dumps(page)
    first = page["items"][0]
    return (
        text.replace(f'"id": "{first["id"]}"', '"id": NaN', 1)
        .replace(f'"title": "{first["title"]}"', '"title": Infinity', 1)
        .encode()
    )


CASES = {
    "item without id": (
        _items(_without_id),
        "GET /v1/orgs/org_acme/teams: 200 OK: item 0 of the list: `id` is missing "
        "(expected an id (non-empty text))",
    ),
    "field of the wrong type": (
        _items(_title_a_list),
        "GET /v1/orgs/org_acme/teams: 200 OK: item 0 of the list: `title` must be text, got a list",
    ),
    "NaN id": (
        _nan_id,
        "GET /v1/orgs/org_acme/teams: 200 OK: the answer is not JSON: NaN is not a JSON value",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_malformed_answer_ends_the_plan_in_one_line_naming_the_request_and_field(
    docsync: Docsync, emulator: EmulatorHandle, write: Write, case: str
) -> None:
    path = write("teams.yaml", TEAMS)
    apply_ok(docsync, path)
    change, expected = CASES[case]
    with tampering(emulator, on("GET", r"/orgs/org_acme/teams$", change)) as url:
        result = invoke(cli_env(emulator, DOCSYNC_API_URL=url), "plan", path)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1, result.output
    assert lines[0].startswith(f"Error: {expected}"), lines[0]
    assert "internal error" not in result.output.lower() and "nan" not in result.stdout


def test_one_failed_read_stops_the_others_without_noise(
    emulator: EmulatorHandle, write: Write
) -> None:
    """Many reads run together (a site's parts, grants, members); the teams list is refused
    while they are in flight: one line, and nothing printed at exit by reads left running."""
    sites = "".join(
        f"  - {{title: Site {i}, permissions: {{teams: {{}}}}, redirects: [], shareLinks: []}}\n"
        for i in range(12)
    )
    manifest = write("m.yaml", f"{TEAMS}sites:\n{sites}")
    env = cli_env(emulator)
    assert run_process("apply", manifest, "--auto-approve", env=env).returncode == 0
    # 401: the token refused (a 403, the role's, is named by the plan and the rest planned)
    emulator.set_faults(latency=30, rules=[{"method": "GET", "path": "/teams$", "status": 401}])
    done = run_process("plan", manifest, env=env)
    emulator.set_faults()
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1, done.stderr
    assert len(lines) == 1 and re.match(r"Error: GET /v1/orgs/org_acme/teams: 401", lines[0]), (
        done.stderr
    )
