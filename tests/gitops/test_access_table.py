"""The Markdown plan's access table (no server): every direct grant of the principal types
managed on a resource whose grants change, those kept as they are included, so a reviewer sees
who has access after the apply; the kept grants travel in the plan (a saved or JSON plan
renders the same table offline) and hold nothing but names and roles."""

from __future__ import annotations

import json
import re
from typing import Any

from docsync.core.model import Kept
from docsync.engine.target import narrow
from docsync.kinds.access.grant_writes import grant_address, grant_of
from docsync.render.json import render_json
from docsync.render.load import plan_from_document, read_document
from docsync.render.markdown import render_markdown
from tests.core import plankit as k
from tests.gitops.conftest import check_golden

TEAMS = [
    {"id": "t1", "title": "Writers"},
    {"id": "t2", "title": "Platform"},
    {"id": "t3", "title": "Support"},
    {"id": "t4", "title": "Partners"},
]
MEMBERS = [
    {
        "id": f"u_{name}",
        "role": "edit",
        "user": {"id": f"u_{name}", "email": f"{name}@acme.example"},
    }
    for name in ("ada", "lin", "sam", "kim")
]


def team(ident: str, role: str | None) -> dict[str, Any]:
    return {"permission": role, "team": {"id": ident}}


def user(name: str, role: str | None) -> dict[str, Any]:
    return {"permission": role, "user": {"id": f"u_{name}"}}


def live() -> dict[str, Any]:
    grants = {
        "teams": [team("t1", "read"), team("t2", "read"), team("t3", "edit")],
        "members": [user("ada", "admin"), user("lin", "edit"), user("sam", "read")],
    }
    site = k.site("s1", "Developer Docs", [], _grants=grants)
    quiet = {"id": "c1", "title": "Quiet", "_grants": {"teams": [team("t2", "admin")]}}
    return {"team": TEAMS, "member": MEMBERS, "site": [site], "collection": [quiet]}


#: Platform kept, Writers raised, Support made a guest, Partners a new guest; lin lowered, ada
#: removed, kim new, sam kept. Quiet keeps its only grant: no table.
MANIFEST = """\
sites:
  - title: Developer Docs
    permissions:
      teams: {Writers: edit, Platform: read, Support: null, Partners: null}
      members: {lin@acme.example: read, sam@acme.example: read, kim@acme.example: review}
collections:
  - title: Quiet
    permissions: {teams: {Platform: admin}}
"""
SITE = 'site["Developer Docs"]'


def test_golden_table_with_kept_raised_lowered_removed_new_and_guest_rows() -> None:
    plan = k.plan(MANIFEST, live())
    assert plan.kept == [
        Kept("grant", SITE, f'{SITE}.grant[team "Platform"]', "read"),
        Kept("grant", SITE, f'{SITE}.grant[member "sam@acme.example"]', "read"),
    ]
    text = render_markdown(plan, title="Acme (org_acme)")
    check_golden("access.md", re.sub(r"/[^ `<]*/(manifest\.yaml:)", r"\1", text))
    table = text[text.index("#### Access") : text.index("#### Actions")]
    assert table.splitlines()[2:] == [
        f"`{SITE}`",
        "",
        "| principal | before | after | change |",
        "|---|---|---|---|",
        "| team Partners | — | guest | 🟠 new |",
        "| team Platform | read | read | = |",
        "| team Support | edit | guest | 🟠 lowered |",
        "| team Writers | read | edit | raised |",
        "| member ada@acme.example | admin | — | 🔴 removed |",
        "| member kim@acme.example | — | review | new |",
        "| member lin@acme.example | edit | read | 🟠 lowered |",
        "| member sam@acme.example | read | read | = |",
        "",
    ]
    assert "Quiet" not in table


def test_a_saved_or_json_plan_renders_the_same_table_offline() -> None:
    plan = k.plan(MANIFEST, live())
    document = json.loads(render_json(plan))
    assert document["kept_grants"] == [
        {"resource": SITE, "principal": "team", "name": "Platform", "role": "read"},
        {"resource": SITE, "principal": "member", "name": "sam@acme.example", "role": "read"},
    ]
    again = plan_from_document(read_document(document, "plan.json"))
    assert render_markdown(again) == render_markdown(plan)


def test_only_the_types_written_are_shown_and_a_partial_plan_keeps_only_its_tables() -> None:
    only_teams = (
        "sites:\n  - title: Developer Docs\n    permissions: {teams: {Writers: edit, "
        "Platform: read, Support: edit}}\n"
        "collections:\n  - title: Quiet\n    permissions: {teams: {Platform: read}}\n"
    )
    items = live()
    items["site"][0]["_grants"].pop("members")  # not written: not read
    plan = k.plan(only_teams, items)
    assert {(g.parent, g.address) for g in plan.kept} == {
        (SITE, f'{SITE}.grant[team "Platform"]'),
        (SITE, f'{SITE}.grant[team "Support"]'),
    }
    assert "member" not in render_markdown(plan).split("#### Access")[1].split("####")[0]
    partial = narrow(plan, ['collection["Quiet"]'])
    assert partial.kept == []
    assert narrow(plan, [f'{SITE}.grant[team "Writers"]']).kept == plan.kept


def test_a_grant_address_reads_back_its_resource_principal_and_name() -> None:
    """The table is drawn from addresses (a saved plan has nothing else): a name with a quote or
    a backslash, and a resource nested in another, read back as written."""
    for resource, principal, name in [
        ('space["Dev/Guides"]', "team", 'The "A" \\ Team'),
        ('site["Docs"]', "member", "ada@acme.example"),
    ]:
        address = grant_address(resource, principal, name)
        assert grant_of(address) == (resource, principal, name)
    assert grant_of('team["Writers"]') is None
