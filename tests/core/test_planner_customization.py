"""A site's customization planned without HTTP: only the written fields are managed, nested
ones included; the plan shows only those that change, each at its path; applying merges them
into the live object."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from docsync.core.errors import PlanProblems
from docsync.kinds.partial import managed, merged
from docsync.kinds.presentation.customization import Customization, SiteCustomization
from docsync.render.text import render_plan
from tests.core import plankit as k

LIVE: dict[str, Any] = {
    "styling": {
        "theme": "clean",
        "primaryColor": {"light": "#346DDB", "dark": "#346DDB"},
        "corners": "rounded",
    },
    "trademark": {"enabled": True},
    "header": {"preset": "default", "links": []},
    "footer": {"groups": []},
    "announcement": {"enabled": True, "message": "Hi", "style": "info"},
}


def live(customization: dict[str, Any] | None = None) -> dict[str, Any]:
    docs = k.site("s1", "Docs", [])
    docs["_customization"] = copy.deepcopy(customization if customization is not None else LIVE)
    return {"site": [docs]}


def manifest(customization: str) -> str:
    return f"sites:\n  - title: Docs\n    customization: {customization}\n"


def the_action(plan: Any) -> tuple[Any, Customization]:
    return k.only_update(plan, 'site["Docs"].customization', Customization)


def test_only_the_changed_written_fields_are_planned_at_their_paths() -> None:
    plan = k.plan(
        manifest(
            '{styling: {theme: clean, primaryColor: {light: "#0B5FFF"}}, '
            "trademark: {enabled: false}}"
        ),
        live(),
    )
    action, payload = the_action(plan)
    assert payload.fields == {"styling.primaryColor.light": "#0B5FFF", "trademark.enabled": False}
    assert [(c.field, c.before, c.after) for c in action.changes] == [
        (
            "customization",
            {"styling": {"primaryColor": {"light": "#346DDB"}}},
            {"styling": {"primaryColor": {"light": "#0B5FFF"}}},
        ),
        ("customization", {"trademark": {"enabled": True}}, {"trademark": {"enabled": False}}),
    ]
    shown = render_plan(plan)
    assert 'customization.styling.primaryColor.light: "#346DDB" -> "#0B5FFF"' in shown
    assert "customization.trademark.enabled: true -> false" in shown


def test_written_fields_as_they_are_plan_nothing() -> None:
    written = '{styling: {primaryColor: {dark: "#346DDB"}}, header: {links: []}}'
    assert k.plan(manifest(written), live()).actions == []


def test_a_list_is_one_value_and_null_removes() -> None:
    link = '{title: Blog, to: {kind: url, url: "https://acme.example/blog"}, links: []}'
    plan = k.plan(manifest(f"{{header: {{links: [{link}]}}, announcement: null}}"), live())
    _, payload = the_action(plan)
    assert payload.fields == {
        "header.links": [
            {
                "title": "Blog",
                "to": {"kind": "url", "url": "https://acme.example/blog"},
                "links": [],
            }
        ],
        "announcement": None,
    }


def test_the_merge_keeps_what_is_not_written() -> None:
    fields = {
        "styling.primaryColor.light": "#0B5FFF",
        "announcement": None,
        "footer.copyright": "Acme",
    }
    whole = merged(LIVE | {"updatedAt": "2026-01-01T00:00:00.000Z"}, fields)
    assert whole["styling"] == LIVE["styling"] | {
        "primaryColor": {"light": "#0B5FFF", "dark": "#346DDB"}
    }
    assert "announcement" not in whole and "updatedAt" not in whole
    assert whole["footer"] == {"groups": [], "copyright": "Acme"}
    assert whole["header"] == LIVE["header"]
    assert LIVE["styling"]["primaryColor"]["light"] == "#346DDB"  # the live object is not changed


def test_the_managed_values_are_the_leaves_written_in_the_order_written() -> None:
    written = SiteCustomization.model_validate(
        {
            "trademark": {"enabled": False},
            "styling": {"primaryColor": {"light": "#FFF"}, "theme": "bold"},
            "favicon": {"emoji": "📘"},
            "header": {"primaryLink": {"url": "https://acme.example", "kind": "url"}},
            "footer": {},
            "socialAccounts": [],
        }
    )
    assert list(managed(written).items()) == [
        (("trademark", "enabled"), False),
        (("styling", "primaryColor", "light"), "#FFF"),
        (("styling", "theme"), "bold"),
        (("favicon",), {"emoji": "📘"}),  # one value, written whole
        (("header", "primaryLink"), {"url": "https://acme.example", "kind": "url"}),
        (("footer",), {}),
        (("socialAccounts",), []),
    ]


def test_a_new_site_gets_its_customization_after_its_create() -> None:
    plan = k.plan(manifest("{trademark: {enabled: false}}"), {"site": []})
    assert k.steps(plan) == ['create site["Docs"]', 'update site["Docs"].customization']


def test_not_written_is_not_planned() -> None:
    assert k.plan("sites:\n  - title: Docs\n", live()).actions == []


def test_a_value_from_env_is_sensitive() -> None:
    written = "{footer: {copyright: \"{{ env('NOTICE') }}\"}, trademark: {enabled: false}}"
    plan = k.plan(manifest(written), live(), environ={"NOTICE": "s3cret-notice"})
    action, _ = the_action(plan)
    assert [c.sensitive for c in action.changes] == [True, False]
    shown = render_plan(plan)
    assert "s3cret-notice" not in shown and "customization.trademark.enabled" in shown
    # The secret is hidden, not where it is: the reviewer reads which field changes.
    assert "customization.footer.copyright = (sensitive)" in shown, shown


def test_an_object_the_merge_would_leave_without_its_required_keys_is_a_located_problem() -> None:
    """Production's PUT refuses an announcement without `enabled` and `style`: writing only its
    message on a site that has none is refused when planned, at the announcement's line."""
    without = {k: v for k, v in LIVE.items() if k != "announcement"}
    with pytest.raises(PlanProblems) as raised:
        k.plan(manifest("{announcement: {message: Hello}}"), live(without))
    assert str(raised.value).endswith(
        "sites[0].customization.announcement: the site has no `announcement` now, so the "
        "fields written make one, and production needs `enabled`, `style` in it: write them too"
    )
    with pytest.raises(PlanProblems, match=re.escape("`styling: {}` writes it empty")):
        k.plan(manifest("{styling: {}}"), live())
    # where the site has one, the fields written change it; a new site's is not known yet
    assert k.plan(manifest("{announcement: {message: Hello}}"), live()).actions
    assert k.plan(manifest("{announcement: {message: Hello}}"), {"site": []}).actions
