"""Every loss is flagged for review, in text, Markdown and JSON: deleting or deactivating what
others rely on (a share link its holders open the site with, an invite link, a grant, a
glossary entry, a redirect, a site space's override, a team's member) and a delete that takes
more with it, named (a site's share links, site spaces and customization, an
integration's installations, a team's grants). Planned without HTTP, from what the reads keep;
tests/engine/test_e2e_losses.py checks that a plan reads what these need."""

from __future__ import annotations

import json
from typing import Any

from docsync.core.model import Action, Plan
from docsync.render.json import render_json
from docsync.render.load import plan_from_document, read_document
from docsync.render.markdown import render_markdown
from docsync.render.text import render_plan
from tests.core import plankit as k
from tests.core.test_planner_redirects import redirect
from tests.core.test_planner_space_customization import live as overrides
from tests.core.test_planner_space_customization import manifest as overridden


def flagged(plan: Plan, key: str, *, audience: bool) -> Action:
    """The action `key`, under "Needs a careful look" in text and Markdown, and `destructive`
    (with `audience_change` as given) in JSON, and in a plan read back from its JSON (a saved
    plan, `show`)."""
    (action,) = [a for a in plan.actions if a.key == key]
    for shown in (plan, plan_from_document_of(plan)):
        text = render_plan(shown)
        careful = text[text.index("Needs a careful look") :]
        assert key in careful, text
        markdown = render_markdown(shown, budget=0)
        careful = markdown[markdown.index("Needs a careful look") :]
        assert f"`{action.address}`" in careful, markdown
    (document,) = [a for a in json.loads(render_json(plan))["actions"] if a["key"] == key]
    assert document["destructive"] and document["needs_review"], document
    assert document["audience_change"] is audience, document
    return action


def plan_from_document_of(plan: Plan) -> Plan:
    return plan_from_document(read_document(json.loads(render_json(plan)), "plan.json"))


def link(link_id: str, name: str, active: bool = True) -> dict[str, Any]:
    return {"id": link_id, "name": name, "active": active}


def test_removing_or_deactivating_an_active_share_link_is_flagged() -> None:
    docs = k.site("s1", "Docs", [], visibility="share-link", published=True)
    docs["_shareLinks"] = [link("l1", "Agency"), link("l2", "Partner"), link("l3", "Old", False)]
    plan = k.plan(
        "sites:\n  - title: Docs\n    shareLinks: [{name: Partner, active: false}]\n",
        {"site": [docs]},
    )
    action = flagged(plan, 'update site["Docs"].shareLinks', audience=True)
    notes = "\n".join(action.notes)
    assert "Agency" in notes and "Partner" in notes and "Old" in notes, notes


def test_removing_an_inactive_share_link_is_destructive_but_no_audience_change() -> None:
    docs = k.site("s1", "Docs", [])
    docs["_shareLinks"] = [link("l1", "Agency"), link("l3", "Old", False)]
    plan = k.plan("sites:\n  - title: Docs\n    shareLinks: [{name: Agency}]\n", {"site": [docs]})
    action = flagged(plan, 'update site["Docs"].shareLinks', audience=False)
    assert any("Old" in note for note in action.notes)


def test_deleting_an_invite_link_or_turning_them_off_is_flagged() -> None:
    links = [{"id": "inv-secret-1", "role": "read"}, {"id": "inv-secret-2", "role": "admin"}]
    plan = k.plan("inviteLinks: [{role: read}]\n", {"invite_link": links})
    flagged(plan, 'delete invite_link["admin"]', audience=True)
    plan = k.plan("settings: {inviteLinks: false}\n", {}, {**k.ORG, "inviteLinks": True})
    (action,) = plan.actions
    flagged(plan, action.key, audience=True)


def test_a_deleted_site_names_what_goes_with_it() -> None:
    structure = [k.section("sec1", "Guides", k.site_space("ss1", "sp1", "latest"))]
    docs = k.site("s1", "Docs", structure, published=True)
    docs["_shareLinks"] = [link("l1", "Agency")]
    docs["_customization"] = {"styling": {"theme": "clean"}}
    docs["_redirects"] = []
    items = {"space": [{"id": "sp1", "title": "Guides"}], "site": [docs]}
    plan = k.plan("sites:\n  - {title: Docs, state: absent}\n", items)
    action = flagged(plan, 'delete site["Docs"]', audience=True)
    notes = "\n".join(action.notes)
    assert "Agency" in notes and "Guides" in notes and "customization" in notes, notes
    assert "redirects" not in notes  # none: nothing goes


def test_a_pruned_integration_names_its_installations() -> None:
    installed = {
        "id": "i1",
        "name": "google-analytics",
        "configuration": {},
        "_integration_sites": [{"site": "s1", "configuration": {}}],
        "_integration_spaces": [],
    }
    items = {
        "site": [k.site("s1", "Docs", [])],
        "integration": {"items": [installed], "schemas": {"google-analytics": {}}},
    }
    plan = k.plan("sites: [{title: Docs}]\nintegrations: []\nprune: [integrations]\n", items)
    action = flagged(plan, 'delete integration["google-analytics"]', audience=False)
    assert any("Docs" in note for note in action.notes), action.notes


def test_a_pruned_team_names_its_grants() -> None:
    guides = {"id": "sp1", "title": "Guides"}
    guides["_grants"] = {"teams": [{"team": {"id": "t1"}, "permission": "edit"}]}
    items = {"team": [{"id": "t1", "title": "Writers"}], "space": [guides]}
    plan = k.plan("teams: []\nprune: [teams]\n", items)
    action = flagged(plan, 'delete team["Writers"]', audience=True)
    assert any('space["Guides"]: edit' in note for note in action.notes), action.notes


def test_a_glossary_entry_deleted_is_flagged() -> None:
    """Translations use its terms: an entry the exact list drops was noted, never flagged."""
    items = {
        "translations_glossary": [
            {"id": "g1", "translations": {"en": "Workspace", "fr": "Espace de travail"}},
            {"id": "g2", "translations": {"en": "Site", "fr": "Site"}},
        ]
    }
    manifest = "translationsGlossary: {keyLanguage: en, entries: [{en: Site, fr: Site}]}\n"
    action = flagged(k.plan(manifest, items), "update translationsGlossary", audience=False)
    assert any("Workspace" in note for note in action.notes), action.notes


def test_a_redirect_deleted_is_flagged() -> None:
    """Visitors following its source reach nothing: it was noted, never flagged."""
    away = {"kind": "external", "url": "https://acme.example/"}
    docs = k.site("s1", "Docs", [], _redirects=[redirect(s, away) for s in ("/old", "/start")])
    kept = '{source: /start, destination: {url: "https://acme.example/"}}'
    plan = k.plan(f"sites:\n  - title: Docs\n    redirects: [{kept}]\n", {"site": [docs]})
    action = flagged(plan, 'update site["Docs"].redirects', audience=False)
    assert any("/old" in note for note in action.notes), action.notes


def test_a_site_space_override_removed_is_flagged() -> None:
    """`customization: null` deletes what the site space shows instead of its site's: it was
    noted, never flagged."""
    plan = k.plan(overridden("null"), overrides())
    (action,) = plan.actions
    flagged(plan, action.key, audience=False)


def test_a_member_removed_from_a_team_is_flagged_and_loses_its_grants() -> None:
    """The member loses what the team's grants give: an audience change, where it has some."""
    guides = {"id": "sp1", "title": "Guides"}
    guides["_grants"] = {"teams": [{"team": {"id": "t1"}, "permission": "edit"}]}
    members = [
        {"id": "u1", "role": "admin", "user": {"id": "u1", "email": "ada@acme.example"}},
        {"id": "u2", "role": "edit", "user": {"id": "u2", "email": "lin@acme.example"}},
    ]
    writers = {
        "id": "t1",
        "title": "Writers",
        "_members": [
            {"organization": {"id": user}, "team": {"role": "member"}} for user in ("u1", "u2")
        ],
    }
    items = {"member": members, "team": [writers], "space": [guides]}
    plan = k.plan("teams: [{title: Writers, members: [ada@acme.example]}]\n", items)
    action = flagged(plan, 'update team["Writers"]', audience=True)
    assert any("lin@acme.example" in note and 'space["Guides"]' in note for note in action.notes)
    ungranted = {"member": members, "team": [writers]}
    plan = k.plan("teams: [{title: Writers, members: [ada@acme.example]}]\n", ungranted)
    flagged(plan, 'update team["Writers"]', audience=False)


def test_a_site_proxy_removed_is_flagged() -> None:
    """Readers at the proxy's origin no longer reach the site."""
    docs = k.site("s1", "Docs", [], proxy="https://acme.example/docs")
    plan = k.plan("sites: [{title: Docs, proxy: null}]\n", {"site": [docs]})
    action = flagged(plan, 'update site["Docs"]', audience=False)
    assert any("acme.example/docs" in note for note in action.notes), action.notes
