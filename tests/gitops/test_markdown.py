"""The Markdown plan on big and hostile plans (no server): the size budget holds, what is cut is
said, destructive and audience-changing actions come first, names cannot break the layout."""

from __future__ import annotations

import re
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.core.model import Action, FieldChange, Plan, Unmanaged
from docsync.render.markdown import DEFAULT_BUDGET, SHOWN_UNFOLDED, render_markdown
from tests.depth import examples

GITHUB_LIMIT = 65_536


def big_plan(creates: int = 3000, deletes: int = 1500, unpublishes: int = 300) -> Plan:
    actions = [
        Action(
            "create",
            "team",
            f'team["Team {i:05}"]',
            [FieldChange("title", None, f"Team {i:05}"), FieldChange("members", None, ["a", "b"])],
            location=f"teams.yaml:{i + 3}:5",
        )
        for i in range(creates)
    ]
    # The risky ones come last in plan order: the rendering must still show them first.
    actions += [
        Action(
            "delete",
            "space",
            f'space["Space {i:05}"]',
            [FieldChange("title", f"Space {i:05}", None)],
            notes=["pruned: no manifest entry"],
        )
        for i in range(deletes)
    ]
    actions += [
        Action(
            "unpublish",
            "site",
            f'site["Site {i:04}"]',
            [FieldChange("published", True, False)],
            audience_change=True,
        )
        for i in range(unpublishes)
    ]
    plan = Plan("org_acme", actions)
    plan.unmanaged = [
        Unmanaged("member", f'member["m{i}@acme.example"]', f"u_{i}") for i in range(900)
    ]
    plan.warnings = [f"warning number {i}" for i in range(50)]
    return plan


def test_thousands_of_risky_actions_stay_within_the_budget_and_say_what_is_cut() -> None:
    """1,800 destructive or audience-changing actions cannot all be named in 60,000
    characters: the note says how many are named nowhere, and counts the rest per kind."""
    plan = big_plan()
    started = time.perf_counter()
    text = render_markdown(plan, title="Acme (org_acme)")
    assert time.perf_counter() - started < 2
    assert len(text) <= DEFAULT_BUDGET < GITHUB_LIMIT
    shown = text.count("<details><summary>") - 1  # one for the unmanaged list
    left = int(re.search(r"the changes of \*\*([\d,]+) of 4,800", text)[1].replace(",", ""))  # type: ignore[index]
    assert shown + left == len(plan.actions)
    named = len(re.findall(r"^- 🔴|^- 🟠|^- 🟣", text, re.M))
    unnamed = re.search(r"\(([\d,]+) flagged one\(s\) among", text)
    assert unnamed and int(unnamed[1].replace(",", "")) == 1800 - named
    assert "**The whole plan: `docsync plan --format markdown --max-chars 0`" in text
    assert "**Plan: 3000 to create, 0 to update, 300 to unpublish, 1500 to delete**" in text
    assert "🔴 1500 destructive · 🟠 300 audience changes" in text
    assert text.count("> ⚠️ warning number") == 50  # warnings before the actions' changes


def test_destructive_and_audience_changing_actions_come_first() -> None:
    text = render_markdown(big_plan(creates=2000, deletes=40, unpublishes=10))
    careful = text.index("#### Needs a careful look")
    assert careful < text.index("#### Actions")
    summaries = re.findall(r"<details><summary>(.*?)</summary>", text)
    kinds = [("risky" if s.startswith(("🔴", "🟠", "🟣")) else "plain") for s in summaries[:-1]]
    assert kinds[:50] == ["risky"] * 50
    assert "risky" not in kinds[50:]
    # Every risky action is in the careful-look list, before any detail.
    head = text[careful : text.index("#### Actions")]
    assert head.count("\n- 🔴 **delete**") == 40 and head.count("\n- 🟠 **unpublish**") == 10


def test_one_huge_action_is_listed_without_its_changes() -> None:
    schema = {"properties": {f"p{i}": {"type": "string"} for i in range(10_000)}}
    plan = Plan(
        "org_acme",
        [
            Action("update", "site", 'site["Docs"]', [FieldChange("adaptiveSchema", None, schema)]),
            Action("create", "team", 'team["Small"]', [FieldChange("title", None, "Small")]),
        ],
    )
    text = render_markdown(plan)
    assert len(text) <= DEFAULT_BUDGET
    assert '**update** `site["Docs"]` (changes too long to show here)' in text
    assert '<code>team["Small"]</code>' in text
    assert "the changes of" not in text  # no action is left out entirely
    assert "- 1 action(s) shown by their headline only (changes too long)" in text
    whole = render_markdown(plan, budget=0)
    assert '"p9999"' in whole and "Left out" not in whole


def test_a_small_plan_is_not_truncated() -> None:
    text = render_markdown(big_plan(creates=5, deletes=1, unpublishes=1))
    assert "Left out" not in text and "… and" not in text.split("unmanaged")[0]


HOSTILE = "x</summary></details>\n\n# gotcha ``` ` <script>alert(1)</script> &amp;"


def test_names_cannot_break_out_of_code_or_summary() -> None:
    action = Action(
        "delete",
        "team",
        f'team["{HOSTILE}"]',
        [FieldChange("title", HOSTILE, None)],
        notes=[f"was {HOSTILE}"],
    )
    text = render_markdown(Plan("org_acme", [action]), title=HOSTILE)
    # Outside code (fenced or inline, where HTML is literal text) no tag of the name survives.
    prose = re.sub(r"```diff\n.*?\n```\n", "", text, flags=re.S)
    prose = re.sub(r"(`+) .*? \1|`[^`]*`", "", prose)
    assert "<script>" not in prose
    assert prose.count("</summary>") == prose.count("<summary>") == 1
    assert prose.count("</details>") == prose.count("<details open>") == 1  # one: shown
    assert "\n# gotcha" not in text  # no stray heading from a newline in a name
    fenced = text.split("```diff\n", 1)[1].split("\n```\n", 1)[0]
    assert "```" not in fenced  # a name cannot close the fence early
    careful = [line for line in text.splitlines() if line.startswith("- 🔴")]
    assert len(careful) == 1 and "``` " in careful[0]  # a longer fence around the backticks


@settings(max_examples=examples(40), deadline=None)
@given(
    titles=st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=30),
    budget=st.integers(min_value=4_000, max_value=20_000),
)
def test_any_names_any_budget_stays_within_it(titles: list[str], budget: int) -> None:
    actions = [
        Action(
            "delete" if i % 3 == 0 else "create",
            "team",
            f'team["{t}"]',
            [FieldChange("title", t * 50, None)],
            notes=[t],
        )
        for i, t in enumerate(titles)
    ]
    plan = Plan("org_acme", actions * 20)
    plan.warnings = titles
    text = render_markdown(plan, title=titles[0], budget=budget)
    assert len(text) <= budget
    # Every block opened is closed: counted at line starts, where the renderer writes them (a
    # name `<details>` inside a code span is text, and a name cannot break a line)
    lines = text.splitlines()
    opened = sum(line.startswith("<details") for line in lines)
    assert opened == sum(line.startswith("</details>") for line in lines)


def test_a_small_plan_shows_its_changes_unfolded_and_a_large_one_folded() -> None:
    def plan(count: int) -> Plan:
        return Plan(
            "org_acme",
            [
                Action("create", "team", f'team["T{i}"]', [FieldChange("title", None, f"T{i}")])
                for i in range(count)
            ],
        )

    small, large = render_markdown(plan(SHOWN_UNFOLDED)), render_markdown(plan(SHOWN_UNFOLDED + 1))
    assert small.count("<details open><summary>") == SHOWN_UNFOLDED
    assert "<details><summary>" not in small
    assert large.count("<details><summary>") == SHOWN_UNFOLDED + 1
    assert "<details open>" not in large


def test_a_security_change_is_flagged_apart_from_audience_changes() -> None:
    """What runs on a site (its assistant's tools, an integration's scripts) is no audience
    change: the reviewer sees it counted and flagged as what it is."""
    mcp = Action(
        "update",
        "site",
        'site["Docs"].mcpServers',
        [FieldChange("mcpServers", [], [{"name": "Billing"}])],
        security_change=True,
        notes=["MCP SERVERS CHANGE: the tools the site's assistant may call change"],
    )
    text = render_markdown(Plan("org_acme", [mcp]))
    assert "to update, 0 to delete** · 🟣 1 security change\n" in text
    careful = text[text.index("#### Needs a careful look") :]
    assert '- 🟣 **update** `site["Docs"].mcpServers`' in careful
    assert "audience" not in text
