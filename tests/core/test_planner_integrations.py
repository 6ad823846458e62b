"""Integration installations planned without HTTP: one action per installation that changes
(on the organization, a site, a space), one change per configuration key, a secret key named
and hidden, a site left out of an exact list uninstalled and flagged when published, an
uninstall saying what goes with it; and `publishingAuth.integration` checked offline."""

from __future__ import annotations

from typing import Any

import pytest

from docsync.manifest.problems import ManifestError
from docsync.render.text import render_plan
from tests.core import plankit as k

GA = 'integration["google-analytics"]'
SECRET = "G-SECRET-77"
#: the schemas of the integrations' configurations, as read beside the installations
SCHEMAS: dict[str, Any] = {
    "google-analytics": {
        "account": {
            "properties": {"tracking_id": {"type": "string"}, "mode": {"type": "string"}},
            "required": ["tracking_id"],
        },
        "site": {
            "properties": {"anonymize": {"type": "boolean"}, "sample_rate": {"type": "number"}}
        },
        "space": {"properties": {"label": {"type": "string"}}},
    },
    "intercom": {
        "account": {"properties": {"app_id": {"type": "string"}}},
        "site": {"properties": {"launcher": {"type": "boolean"}}},
    },
}


def live(
    configuration: dict[str, Any] | None = None,
    sites: list[dict[str, Any]] | None = None,
    spaces: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Docs (published) and Blog, the space Guides, and google-analytics installed (`i1`) with
    its installations on sites and spaces as their lists answer them."""
    installed: dict[str, Any] = {
        "id": "i1",
        "name": "google-analytics",
        "configuration": configuration or {"tracking_id": "G-1"},
    }
    if sites is not None:
        installed["_integration_sites"] = sites
    if spaces is not None:
        installed["_integration_spaces"] = spaces
    return {
        "site": [k.site("s1", "Docs", [], published=True), k.site("s2", "Blog", [])],
        "space": [{"id": "sp1", "title": "Guides"}],
        "integration": {"items": [installed], "schemas": SCHEMAS},
    }


def on_site(site: str, **configuration: Any) -> dict[str, Any]:
    return {"site": site, "configuration": configuration}


def manifest(entry: str) -> str:
    return f"sites: [{{title: Docs, published: true}}, {{title: Blog}}]\nintegrations:\n{entry}"


def test_a_new_installation_is_one_create_per_level_with_its_configuration() -> None:
    plan = k.plan(
        manifest(
            "  - name: intercom\n    configuration: {app_id: ic-1}\n"
            "    sites: {Blog: {configuration: {launcher: true}}}\n    spaces: {Guides: {}}\n"
        ),
        live(),
    )
    assert k.steps(plan) == [
        'create integration["intercom"]',
        'create integration["intercom"].site["Blog"]',
        'create integration["intercom"].space["Guides"]',
    ]
    made = plan.actions[0]
    assert [(c.field, c.before, c.after) for c in made.changes] == [
        ("configuration", None, {"app_id": "ic-1"})
    ]
    assert not any(a.security_change for a in plan.actions)  # Blog is not published


def test_one_key_changed_is_one_update_showing_that_key_only() -> None:
    plan = k.plan(
        manifest(
            "  - name: google-analytics\n    configuration: {tracking_id: G-1}\n"
            "    sites: {Docs: {configuration: {anonymize: false, sample_rate: 5}}}\n"
        ),
        live(sites=[on_site("s1", anonymize=True, sample_rate=5)]),
    )
    assert k.steps(plan) == [f'update {GA}.site["Docs"]']
    (change,) = plan.actions[0].changes
    assert (change.before, change.after) == (
        {"anonymize": True},
        {"anonymize": False},
    )
    text = render_plan(plan, color=False)
    assert "anonymize" in text and "sample_rate" not in text and "tracking_id" not in text


def test_a_key_set_for_the_first_time_is_shown_added() -> None:
    plan = k.plan(
        manifest("  - name: google-analytics\n    configuration: {tracking_id: G-1, mode: x}\n"),
        live(),
    )
    text = render_plan(plan, color=False)
    assert '+ configuration.mode: (absent) -> "x"' in text, text


def test_a_site_left_out_of_the_exact_list_is_one_uninstall_flagged_when_published() -> None:
    plan = k.plan(
        manifest("  - name: google-analytics\n    sites: {Blog: {}}\n"),
        live(sites=[on_site("s1"), on_site("s2")]),
    )
    assert k.steps(plan) == [f'delete {GA}.site["Docs"]']
    assert plan.actions[0].security_change  # Docs is published: visitors run its scripts


def test_installing_on_a_published_site_is_flagged() -> None:
    plan = k.plan(manifest("  - name: google-analytics\n    sites: {Docs: {}}\n"), live(sites=[]))
    assert k.steps(plan) == [f'create {GA}.site["Docs"]']
    assert plan.actions[0].security_change


def test_an_uninstall_says_what_goes_with_it() -> None:
    plan = k.plan(
        manifest("  - {name: google-analytics, state: absent}\n"),
        live(sites=[on_site("s1")], spaces=[{"space": "sp1", "configuration": {}}]),
    )
    assert k.steps(plan) == [f"delete {GA}"]
    (action,) = plan.actions
    assert "LOSS: uninstalls it from its sites too: Docs" in action.notes
    assert "LOSS: uninstalls it from its spaces too: Guides" in action.notes
    assert action.security_change and not action.audience_change


def test_a_configuration_value_from_env_is_named_and_hidden() -> None:
    plan = k.plan(
        manifest(
            "  - name: google-analytics\n    configuration: {tracking_id: \"{{ env('GA') }}\"}\n"
        ),
        live(),
        environ={"GA": SECRET},
    )
    (action,) = plan.actions
    (change,) = action.changes
    assert change.sensitive and change.field == "configuration.tracking_id"
    text = render_plan(plan, color=False)
    assert SECRET not in text and "configuration.tracking_id" in text


def test_a_live_secret_written_plainly_now_is_still_hidden() -> None:
    """The live value came from env() (docsync cannot know): text not known to be plain is a
    secret on the live side, whatever the manifest writes now."""
    plan = k.plan(
        manifest("  - name: google-analytics\n    configuration: {tracking_id: plainKEY}\n"),
        live({"tracking_id": SECRET}),
    )
    (action,) = plan.actions
    (change,) = action.changes
    assert change.sensitive and change.field == "configuration.tracking_id"
    text = render_plan(plan, color=False)
    assert SECRET not in text and "plainKEY" not in text
    assert "configuration.tracking_id = (sensitive) (changed)" in text


def test_numbers_flags_and_the_schemas_choices_are_known_to_be_plain() -> None:
    mode = {"type": "string", "enum": ["a", "b"]}
    schemas = {"site": {"properties": {"anonymize": {"type": "boolean"}, "mode": mode}}}
    state = live(sites=[on_site("s1", anonymize=True, mode="a", note="secret-note")])
    state["integration"]["schemas"] = {
        "google-analytics": {**SCHEMAS["google-analytics"], **schemas}
    }
    plan = k.plan(
        manifest(
            "  - name: google-analytics\n"
            "    sites: {Docs: {configuration: {anonymize: false, mode: b}}}\n"
        ),
        state,
    )
    changes = [(c.field, c.before, c.after, c.sensitive) for c in plan.actions[0].changes]
    assert changes == [
        ("configuration", {"anonymize": True}, {"anonymize": False}, False),
        ("configuration", {"mode": "a"}, {"mode": "b"}, False),
    ]


def test_sites_and_spaces_not_written_are_not_managed() -> None:
    plan = k.plan(
        manifest("  - name: google-analytics\n    configuration: {tracking_id: G-1}\n"),
        live(),
    )
    assert plan.actions == []


PUBLISHED_WITH = """\
integrations:
  - {name: okta-visitor-auth, sites: {Docs: {}}}
sites:
  - title: Docs
    visibility: visitor-auth
    publishingAuth: %s
"""


@pytest.mark.parametrize(
    ("auth", "message"),
    [
        (
            "{backend: integration, integration: okta-visitor-aut}",
            "publishingAuth.integration: 'okta-visitor-aut' names no integration this manifest "
            "installs: declare it under 'integrations' with this site in its 'sites'; did you "
            "mean 'okta-visitor-auth'?",
        ),
        (
            "{backend: custom, integration: okta-visitor-auth}",
            "'integration' goes with `backend: integration`, and this backend is 'custom'",
        ),
    ],
)
def test_publishing_auth_names_an_integration_the_manifest_installs(
    auth: str, message: str
) -> None:
    with pytest.raises(ManifestError) as raised:
        k.load(PUBLISHED_WITH % auth)
    assert message in str(raised.value)
    k.load(PUBLISHED_WITH % "{backend: integration, integration: okta-visitor-auth}")


def test_publishing_auth_names_an_integration_installed_on_its_site() -> None:
    text = (PUBLISHED_WITH % "{backend: integration, integration: okta-visitor-auth}").replace(
        "sites: {Docs: {}}", "sites: {Blog: {}}"
    )
    with pytest.raises(ManifestError) as raised:
        k.load(text)
    assert (
        "integration 'okta-visitor-auth' is not installed on site 'Docs': add 'Docs' to its "
        in (str(raised.value))
    )
    assert "manifest.yaml:3:" in str(raised.value)  # where its sites are written


def test_a_space_is_named_by_its_collection_path() -> None:
    items = live()
    items["collection"] = [{"id": "c1", "title": "Developers"}]
    items["space"] = [{"id": "sp1", "title": "Guides", "parent": "c1"}]
    text = manifest("  - name: google-analytics\n    spaces: {Developers/Guides: {}}\n")
    plan = k.plan(text, items)
    assert k.steps(plan) == [f'create {GA}.space["Developers/Guides"]']
    assert plan.actions[0].payload.target == "sp1"  # type: ignore[attr-defined]
    items["integration"]["items"][0]["_integration_spaces"] = [
        {"space": "sp1", "configuration": {}}
    ]
    assert k.plan(text, items).actions == []  # installed there: nothing to do


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        (
            "  - name: google-analytics\n    sites: {Docs: {configuration: {anonymize: fals}}}\n",
            "integrations[0].sites.Docs.configuration.anonymize: must be a boolean; got text",
        ),
        (
            "  - name: google-analytics\n    configuration: {tracking_idd: G-2}\n",
            "integrations[0].configuration.tracking_idd: not a property of this configuration "
            "(it has: mode, tracking_id)",
        ),
        (
            "  - name: intercom\n    configuration: {}\n    spaces: {Guides: {}}\n",
            "",  # intercom requires nothing, and a space installation writes no configuration
        ),
        (
            "  - name: google-analytics\n    state: absent\n",
            "",  # an uninstall is not checked
        ),
        (
            "  - name: google-analytic\n",
            "integrations[0].name: no integration 'google-analytic' is known to the API",
        ),
    ],
)
def test_what_the_integration_refuses_is_a_located_problem_of_the_plan(
    entry: str, problem: str
) -> None:
    """A configuration checked against its integration's own schemas (read beside the
    installations): the apply would be refused, so the plan is, at the line."""
    found = k.attempt(manifest(entry), live()).problems
    if not problem:
        assert found == []
        return
    assert len(found) == 1 and problem in found[0], found
    assert found[0].startswith(("manifest.yaml:", "/")), found  # located: file:line:column


def test_a_required_key_is_checked_with_what_the_installation_holds() -> None:
    """The account configuration sent is the live one with the keys written: a required key
    already set is kept; a new installation must write it."""
    kept = manifest("  - name: google-analytics\n    configuration: {mode: x}\n")
    assert k.attempt(kept, live()).problems == []
    fresh = live()
    fresh["integration"]["items"] = []
    problems = k.attempt(kept, fresh).problems
    assert len(problems) == 1 and "tracking_id required by the integration" in problems[0]


def test_a_secret_of_the_wrong_type_is_refused_without_its_value() -> None:
    text = (
        "  - name: google-analytics\n"
        "    sites: {Docs: {configuration: {sample_rate: \"{{ env('RATE') }}\"}}}\n"
    )
    problems = k.attempt(manifest(text), live(), environ={"RATE": "7713 a day"}).problems
    assert len(problems) == 1 and "must be a number; got text" in problems[0]
    assert "7713" not in problems[0]


def test_a_rendered_boolean_or_number_is_one_as_the_docs_say() -> None:
    """docs/manifest.md: a rendered value is text, and boolean and number fields take its text
    forms; an integration's are no exception: they are planned, compared and sent typed."""
    text = (
        "  - name: google-analytics\n"
        "    configuration: {tracking_id: G-1}\n"
        "    sites:\n"
        '      Docs: {configuration: {anonymize: "{{ env(\'FLAG\') }}", sample_rate: "25"}}\n'
    )
    attempt = k.attempt(manifest(text), live(), environ={"FLAG": "true"})
    assert attempt.problems == []
    (site,) = [a for a in attempt.actions if a.address == f'{GA}.site["Docs"]']
    assert site.payload.configuration == {"anonymize": True, "sample_rate": 25}  # type: ignore[attr-defined]
