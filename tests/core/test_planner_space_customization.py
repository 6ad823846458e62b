"""A site space's customization override planned without HTTP: the written fields compared with
the effective settings production's GET answers, null compared with the site's value,
`customization: null` planned where the site space differs from its site, one action per site
space after the site space exists, and the PATCH body built at production's override units."""

from __future__ import annotations

import copy
import re
import typing
from typing import Any

import pytest

from docsync.core.errors import PlanProblems
from docsync.core.nullability import nullable
from docsync.kinds.partial import Setting
from docsync.kinds.presentation.override_units import units
from docsync.kinds.presentation.space_customization import (
    SiteSpaceOverride,
    SpaceCustomization,
    body,
    unit_of,
)
from docsync.manifest.problems import ManifestError
from docsync.render.text import render_plan
from tests.core import plankit as k

SITE: dict[str, Any] = {
    "styling": {"theme": "bold", "primaryColor": {"light": "#346DDB", "dark": "#346DDB"}},
    "trademark": {"enabled": True},
}
#: the effective settings of site space v1: its site's, with the theme overridden
V1 = copy.deepcopy(SITE) | {"styling": SITE["styling"] | {"theme": "muted"}}
WHERE = 'site["Docs"].section["Guides"].site_space["v1"].customization'


def live(v1: dict[str, Any] | None = None) -> dict[str, Any]:
    v1_item = k.site_space("ss2", "sp2", "v1") | {"_customization": copy.deepcopy(v1 or V1)}
    docs = k.site(
        "s1",
        "Docs",
        [k.section("sec1", "Guides", k.site_space("ss1", "sp1", "latest", True), v1_item)],
    )
    docs["_customization"] = copy.deepcopy(SITE)
    return {
        "site": [docs],
        "space": [{"id": "sp1", "title": "Guides"}, {"id": "sp2", "title": "V1"}],
    }


def manifest(customization: str, site: str = "") -> str:
    return (
        "sites:\n  - title: Docs\n"
        + (f"    customization: {site}\n" if site else "")
        + "    sections:\n      - title: Guides\n        siteSpaces:\n"
        + "          - {space: Guides, path: latest}\n"
        + f"          - {{space: V1, path: v1, customization: {customization}}}\n"
    )


def the_action(plan: Any) -> tuple[Any, SpaceCustomization]:
    return k.only_update(plan, WHERE, SpaceCustomization)


def test_only_the_changed_written_fields_are_planned_at_their_paths() -> None:
    written = (
        '{styling: {theme: muted, primaryColor: {light: "#0B5FFF"}}, trademark: {enabled: true}}'
    )
    action, payload = the_action(k.plan(manifest(written), live()))
    assert payload.fields == {"styling.primaryColor.light": "#0B5FFF"} and not payload.remove
    assert payload.site_space == {"$ref": WHERE.removesuffix(".customization")}
    shown = render_plan(k.plan(manifest(written), live()))
    assert 'customization.styling.primaryColor.light: "#346DDB" -> "#0B5FFF"' in shown
    assert "theme" not in shown and "trademark" not in shown
    assert [c.field for c in action.changes] == ["customization"]


def test_written_as_it_is_and_not_written_plan_nothing() -> None:
    assert k.plan(manifest("{styling: {theme: muted}}"), live()).actions == []
    plain = manifest("{}").replace(", customization: {}", "")
    assert "customization" not in plain.split("sections")[1]
    assert k.plan(plain, live()).actions == []


def test_null_on_a_field_is_compared_with_the_site_value() -> None:
    action, payload = the_action(k.plan(manifest("{styling: {theme: null}}"), live()))
    assert payload.fields == {"styling.theme": None}
    assert [(c.before, c.after) for c in action.changes] == [
        ({"styling": {"theme": "muted"}}, {"styling": {"theme": "bold"}})
    ]
    # Not overridden any more: nothing to do.
    assert k.plan(manifest("{styling: {theme: null}}"), live(SITE)).actions == []
    # The site's value this plan writes is the one the site space falls back to.
    plan = k.plan(manifest("{styling: {theme: null}}", site="{styling: {theme: muted}}"), live())
    assert k.steps(plan) == ['update site["Docs"].customization']


def test_customization_null_removes_the_override_where_it_shows() -> None:
    action, payload = the_action(k.plan(manifest("null"), live()))
    assert payload.remove and payload.fields == {}
    assert [(c.before, c.after) for c in action.changes] == [
        ({"styling": {"theme": "muted"}}, {"styling": {"theme": "bold"}})
    ]
    assert "removes the site space's override" in render_plan(k.plan(manifest("null"), live()))
    assert k.plan(manifest("null"), live(SITE)).actions == []


def test_a_new_site_space_gets_its_override_after_its_create() -> None:
    items = live()
    items["site"][0]["_structure"]["structure"][0]["siteSpaces"].pop()  # v1 is not live yet
    plan = k.plan(manifest("{trademark: {enabled: false}}"), items)
    create = f"create {WHERE.removesuffix('.customization')}"
    assert k.steps(plan) == [create, 'reorder site["Docs"]', f"update {WHERE}"]
    create_action, _, override = plan.actions
    assert override.depends_on == [create_action.key]


def test_what_production_does_not_override_is_a_located_problem() -> None:
    with pytest.raises(PlanProblems, match=re.escape("`styling` cannot be overridden")) as raised:
        k.plan(manifest("{styling: {}}"), live())
    assert "siteSpaces[1].customization.styling" in str(raised.value)


def test_what_production_refuses_in_an_override_is_refused_by_validate() -> None:
    for written, says in (
        ("{ai: {mode: assistant}}", "customization.ai: unknown field 'ai'"),
        ("{styling: {primaryColor: {light: null}}}", "primaryColor.light: null is not accepted"),
        ("{announcement: null}", "customization.announcement: null is not accepted"),
        ("{announcement: {link: null}}", "customization.announcement.link: null is not"),
    ):
        with pytest.raises(ManifestError, match=re.escape(says)):
            k.plan(manifest(written), live())


def test_the_body_sends_whole_units_and_keeps_the_other_mode() -> None:
    fields = {"styling.primaryColor.light": "#0B5FFF", "styling.theme": None, "title": "V1"}
    assert body(SITE, fields) == {
        "styling": {"primaryColor": {"light": "#0B5FFF", "dark": "#346DDB"}, "theme": None},
        "title": "V1",
    }
    assert unit_of(("styling", "sidebar", "list")) == ("styling", "sidebar", "list")
    assert unit_of(("styling",)) is None and unit_of(("ai", "mode")) is None


def test_a_value_from_env_is_sensitive() -> None:
    written = "{footer: {copyright: \"{{ env('NOTICE') }}\"}, trademark: {enabled: false}}"
    plan = k.plan(manifest(written), live(), environ={"NOTICE": "s3cret-notice"})
    action, _ = the_action(plan)
    assert [c.sensitive for c in action.changes] == [True, False]
    shown = render_plan(plan)
    assert "s3cret-notice" not in shown and "customization.trademark.enabled" in shown


def test_an_override_unit_the_merge_would_leave_incomplete_is_a_located_problem() -> None:
    with pytest.raises(PlanProblems, match=re.escape("the site space has no `announcement`")):
        k.plan(manifest("{announcement: {message: Old}}"), live())


def _unsettable(model: type[Setting], prefix: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """The paths of the override model's fields that take null, its groups walked."""
    found: set[tuple[str, ...]] = set()
    for name, info in model.model_fields.items():
        if nullable(model, name):
            found.add((*prefix, name))
            continue
        for inner in typing.get_args(info.annotation) or (info.annotation,):
            if isinstance(inner, type) and issubclass(inner, Setting):
                found |= _unsettable(inner, (*prefix, name))
    return found


def test_the_override_units_are_what_the_model_lets_null_unset() -> None:
    """The units the planner compares and sends are the fields the override model takes null
    on (the unit's override unset), but `announcement`, which production takes whole, never
    null."""
    assert set(units()) - {("announcement",)} == _unsettable(SiteSpaceOverride)
