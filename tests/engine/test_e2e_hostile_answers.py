"""A server whose answers are not of the shape docsync relies on: one odd item of a list
leaves that one resource out of the plan (named, at its entry, with the request and the field),
and the rest is planned and applied; an answer that is not JSON at all (`NaN`) still ends the
plan in one line naming the request, never an internal error, a traceback or a plan built on it
(an id of `nan`); and when one of the reads running together fails, the others stop cleanly."""

from __future__ import annotations

import json
import re

import pytest

from tests.emulator_harness import EmulatorHandle
from tests.kit import Docsync, Write, apply_ok, cli_env, invoke, listed, run_process
from tests.tamper import on, tampering

TEAMS = "organization: org_acme\nteams: [{title: Platform}, {title: Writers}]\n"
#: the same teams, and one more: what a plan against the odd answers may still do
MORE = "organization: org_acme\nteams: [{title: Platform}, {title: Writers}, {title: Docs}]\n"


def _first_item(change: object) -> object:
    """The first team of the list (Platform) rewritten, the others as the emulator answers."""

    def rewrite(body: bytes) -> bytes:
        page = json.loads(body)
        page["items"][0] = change(dict(page["items"][0]))  # type: ignore[operator]
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


#: an odd first item -> what the plan says of Platform, and whether Docs is still created (a
#: team whose title cannot be read may be Docs: its create is held back)
ODD_ITEMS = {
    "item without id": (
        _first_item(_without_id),
        'team["Platform"]: GET /v1/orgs/org_acme/teams: item 0 of the list: `id` is missing '
        "(expected an id (non-empty text))",
        True,
    ),
    "field of the wrong type": (
        _first_item(_title_a_list),
        'team["Docs"]: not created: a live team in the organization whose key docsync cannot '
        "read may be it (GET /v1/orgs/org_acme/teams: item 0 of the list: `title` must be "
        "text, got a list)",
        False,
    ),
}


@pytest.mark.parametrize("case", list(ODD_ITEMS))
def test_an_odd_item_leaves_that_resource_out_and_the_rest_is_planned_and_applied(
    docsync: Docsync, emulator: EmulatorHandle, write: Write, case: str
) -> None:
    apply_ok(docsync, write("teams.yaml", TEAMS))
    path = write("more.yaml", MORE)
    change, said, creates = ODD_ITEMS[case]
    with tampering(emulator, on("GET", r"/orgs/org_acme/teams$", change)) as url:
        env = cli_env(emulator, DOCSYNC_API_URL=url)
        planned = invoke(env, "plan", path, "--format", "json")
        applied = invoke(env, "apply", path, "--auto-approve")
    assert planned.exit_code == 0, planned.output
    document = json.loads(planned.stdout)
    lines = [f"{n['address']}: {n['why']}" for n in document["not_planned"]]
    assert said in lines, lines
    assert all(re.search(r"more\.yaml:2:\d+$", n["location"]) for n in document["not_planned"])
    made = [a["address"] for a in document["actions"]]
    assert made == (['team["Docs"]'] if creates else []), made
    assert applied.exit_code == 0, applied.output
    assert "Not planned: " in applied.stdout and said.split(": ", 1)[0] in applied.stdout
    titles = sorted(t["title"] for t in listed(emulator, "/v1/orgs/org_acme/teams"))
    assert titles == sorted(["Platform", "Writers", *(["Docs"] if creates else [])])
    assert "internal error" not in planned.output.lower() + applied.output.lower()


def test_an_answer_that_is_not_json_ends_the_plan_in_one_line_naming_the_request(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    path = write("teams.yaml", TEAMS)
    apply_ok(docsync, path)
    with tampering(emulator, on("GET", r"/orgs/org_acme/teams$", _nan_id)) as url:
        result = invoke(cli_env(emulator, DOCSYNC_API_URL=url), "plan", path)
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 1, result.output
    expected = (
        "GET /v1/orgs/org_acme/teams: 200 OK: the answer is not JSON: NaN is not a JSON value"
    )
    assert lines[0].startswith(f"Error: {expected}"), lines[0]
    assert "internal error" not in result.output.lower() and "nan" not in result.stdout


def test_one_failed_read_stops_the_others_without_noise(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    """Many reads run together (a site's parts, grants, members); the teams list is refused
    while they are in flight: one line, and nothing printed at exit by reads left running."""
    sites = "".join(
        f"  - {{title: Site {i}, permissions: {{teams: {{}}}}, redirects: [], shareLinks: []}}\n"
        for i in range(12)
    )
    manifest = write("m.yaml", f"{TEAMS}sites:\n{sites}")
    apply_ok(docsync, manifest)  # in-process: what is checked is the plan's process below
    env = cli_env(emulator)
    # 401: the token refused (a 403, the role's, is named by the plan and the rest planned)
    emulator.set_faults(latency=30, rules=[{"method": "GET", "path": "/teams$", "status": 401}])
    done = run_process("plan", manifest, env=env)
    emulator.set_faults()
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1, done.stderr
    assert len(lines) == 1 and re.match(r"Error: GET /v1/orgs/org_acme/teams: 401", lines[0]), (
        done.stderr
    )


def test_a_part_answered_otherwise_leaves_that_part_out_and_the_site_is_planned(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    """A site's customization answered as a list: the customization is not planned (named,
    with the request), while the site's share links are planned and applied."""
    site = "organization: org_acme\nsites:\n  - title: Docs\n    customization: {title: Docs}\n"
    apply_ok(docsync, write("site.yaml", site))
    path = write(
        "site.yaml",
        site.replace("{title: Docs}", "{title: Our Docs}") + "    shareLinks: [{name: Partners}]\n",
    )
    with tampering(emulator, on("GET", r"/sites/[^/]+/customization$", lambda _: b"[]")) as url:
        env = cli_env(emulator, DOCSYNC_API_URL=url)
        applied = invoke(env, "apply", path, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert re.search(
        r'site\["Docs"\]\.customization: GET /v1/orgs/org_acme/sites/\w+/customization: '
        r"the answer's .*must be an object, got a list",
        applied.stdout,
    ), applied.stdout
    [site_id] = [s["id"] for s in listed(emulator, "/v1/orgs/org_acme/sites")]
    links = listed(emulator, f"/v1/orgs/org_acme/sites/{site_id}/share-links")
    assert [link["name"] for link in links] == ["Partners"]


def test_a_team_whose_members_are_answered_otherwise_keeps_its_membership_out_of_the_plan(
    docsync: Docsync, emulator: EmulatorHandle, write: Write
) -> None:
    """One team's member list has an item without its role: that team's membership is not
    planned (named), the other team's membership change is planned and applied."""
    teams = (
        "organization: org_acme\nteams:\n"
        "  - {title: Platform, members: [ada@acme.example]}\n"
        "  - {title: Writers, members: [lin@acme.example]}\n"
    )
    apply_ok(docsync, write("teams.yaml", teams))
    [platform] = [
        t for t in listed(emulator, "/v1/orgs/org_acme/teams") if t["title"] == "Platform"
    ]
    changed = write(
        "teams.yaml",
        teams.replace("[ada@acme.example]", "[ada@acme.example, sam@acme.example]").replace(
            "[lin@acme.example]", "[lin@acme.example, kim@acme.example]"
        ),
    )

    def no_role(body: bytes) -> bytes:
        page = json.loads(body)
        for item in page["items"]:
            item["team"].pop("role", None)
        return json.dumps(page).encode()

    pattern = rf"/teams/{platform['id']}/members$"
    with tampering(emulator, on("GET", pattern, no_role)) as url:
        applied = invoke(cli_env(emulator, DOCSYNC_API_URL=url), "apply", changed, "--auto-approve")
    assert applied.exit_code == 0, applied.output
    assert re.search(
        r'team\["Platform"\]\.members: GET /v1/orgs/org_acme/teams/\w+/members: item 0 of the '
        r"list: `team.role` is missing",
        applied.stdout,
    ), applied.stdout
    assert (
        'update team["Writers"]' in applied.stdout
        and 'team["Platform"]' not in applied.stdout.split("Not planned")[0]
    )
    with emulator.client() as client:
        members = {
            t["title"]: sorted(
                m["organization"]["id"]
                for m in client.get(f"/v1/orgs/org_acme/teams/{t['id']}/members").json()["items"]
            )
            for t in listed(emulator, "/v1/orgs/org_acme/teams")
        }
    assert members == {"Platform": ["u_ada"], "Writers": ["u_kim", "u_lin"]}
