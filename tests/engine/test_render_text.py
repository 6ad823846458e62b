"""docsync.render.text: a golden rendering (DOCSYNC_UPDATE_GOLDEN=1 rewrites it), masking, color."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from docsync.cli.options import setup_output
from docsync.core.model import Action, FieldChange, Plan, Unmanaged
from docsync.render.markdown import render_markdown
from docsync.render.text import render_plan, value_text
from tests.golden import golden_files

check_golden = golden_files(Path(__file__).resolve().parent / "golden")
SECRET = "MIIC-super-secret-certificate"


def sample_plan() -> Plan:
    actions = [
        Action(
            "create",
            "team",
            'team["Platform"]',
            [
                FieldChange("title", None, "Platform"),
                FieldChange("members", None, {"ada@acme.example": "member", "lin@x": "owner"}),
            ],
            location="teams.yaml:3:5",
        ),
        Action(
            "create",
            "saml",
            'saml["Okta"]',
            [
                FieldChange("label", None, "Okta"),
                FieldChange("certificate", None, SECRET, sensitive=True),
                FieldChange("defaultTeam", None, 'team["Platform"]', reference=True),
            ],
            location="teams.yaml:9:5",
        ),
        Action(
            "update",
            "saml",
            'saml["Azure"]',
            [
                FieldChange("certificate", "old-" + SECRET, SECRET, sensitive=True),
                FieldChange("defaultRole", "read", None),
            ],
            location="teams.yaml:20:5",
        ),
        Action(
            "update",
            "team",
            'team["Core"]',
            [FieldChange("title", "Kernel", "Core")],
            location="teams.yaml:30:5",
            notes=['was team["Kernel"]'],
        ),
        Action(
            "restore",
            "space",
            'space["Guides"]',
            [
                FieldChange("deletedAt", "2024-01-01T00:00:00Z", None),
                FieldChange("emoji", "1f4d8", "1f4d9"),
            ],
            location="content.yaml:7:5",
            notes=["in the bin: restored rather than created anew"],
        ),
        Action(
            "delete",
            "translation",
            'translation["Klingon"]',
            [FieldChange("title", "Klingon", None)],
            notes=["pruned: no manifest entry, and `prune` lists translations"],
        ),
        Action("replace", "openapi", 'openapi["public-api"]', []),
    ]
    plan = Plan("org_acme", actions)
    plan.unmanaged = [Unmanaged("member", 'member["kim@acme.example"]', "u_kim")]
    plan.warnings = ["something to know"]
    return plan


def test_plan_golden() -> None:
    text = render_plan(sample_plan(), title="Acme (org_acme)")
    check_golden("plan.txt", text)
    assert "\x1b[" not in text
    assert SECRET not in text


def test_empty_plan_golden() -> None:
    plan = Plan("org_acme")
    plan.unmanaged = [Unmanaged("space", 'space["Internal Handbook"]', "space_handbook")]
    check_golden("empty.txt", render_plan(plan, title="Acme (org_acme)"))


def test_summary_counts_each_verb_as_what_it_is() -> None:
    """A replace and a restore are named, not folded into creates, updates and deletes."""
    assert sample_plan().summary() == (
        "2 to create, 2 to update, 1 to replace, 1 to restore, 1 to delete"
    )


def test_color_only_when_asked_and_secret_still_masked() -> None:
    colored = render_plan(sample_plan(), color=True)
    assert '\x1b[32m+ create team["Platform"]\x1b[0m' in colored
    assert "\x1b[31m- delete translation" in colored
    assert SECRET not in colored
    assert colored.endswith("\x1b[0m\n")


@pytest.mark.parametrize("value", [SECRET, None, {"a": 1}, ["x"], 0])
def test_sensitive_value_never_shown(value: object) -> None:
    assert value_text(value, sensitive=True) == "(sensitive)"


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_color_on_a_terminal_unless_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert setup_output(0, False, Tty()) is True
    assert setup_output(0, True, Tty()) is False  # --no-color
    assert setup_output(0, False, io.StringIO()) is False  # not a terminal
    monkeypatch.setenv("NO_COLOR", "1")
    assert setup_output(0, False, Tty()) is False


def test_an_unmanaged_address_that_holds_its_id_is_not_followed_by_it_again() -> None:
    """Two live spaces titled Untitled each get an address with its id; the list showed
    `space["Untitled"](id s1) (id s1)`."""
    plan = Plan(organization="org_acme", actions=[])
    plan.unmanaged = [
        Unmanaged("space", 'space["Untitled"](id s1)', "s1"),
        Unmanaged("space", 'space["Notes"]', "s3"),
    ]
    text = render_plan(plan)
    assert '  space["Untitled"](id s1)\n' in text and '  space["Notes"] (id s3)\n' in text
    markdown = render_markdown(plan)
    assert "(id s1)` (id" not in markdown and "(id `s3`)" in markdown
