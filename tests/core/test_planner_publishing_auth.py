"""A visitor-auth site's publishing auth planned without HTTP: only the fields written, one
PATCH with the backend the API requires, after a change of visibility, and refused on a site
that is not visitor-auth."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from docsync.core.errors import PlanProblems
from docsync.kinds.presentation.publishing_auth import PublishingAuth, PublishingAuthKind
from docsync.render.text import render_plan
from tests.core import plankit as k

KEY = "pk_s3cret-private-key"


def live(visibility: str = "visitor-auth", **auth: Any) -> dict[str, Any]:
    docs = k.site("s1", "Docs", [], visibility=visibility)
    if visibility == "visitor-auth":
        docs["_publishingAuth"] = {"backend": "custom", "fallbackURL": None, "logoutURL": None}
        docs["_publishingAuth"] |= auth
    return {"site": [docs]}


def manifest(auth: str, visibility: str = "") -> str:
    return f"sites:\n  - title: Docs\n{visibility}    publishingAuth: {auth}\n"


def the_action(plan: Any) -> tuple[Any, PublishingAuth]:
    action = next(a for a in plan.actions if a.address == 'site["Docs"].publishingAuth')
    assert action.verb == "update" and isinstance(action.payload, PublishingAuth)
    return action, action.payload


def test_only_the_changed_written_fields_are_sent_with_the_backend() -> None:
    plan = k.plan(
        manifest('{fallbackURL: "https://acme.example/login", logoutURL: null}'),
        live(logoutURL="https://acme.example/out"),
    )
    action, payload = the_action(plan)
    assert payload.body == {
        "backend": "custom",
        "fallbackURL": "https://acme.example/login",
        "logoutURL": None,
    }
    # the fallback URL may carry a key: sensitive by declaration, named at its path
    assert [(c.field, c.before, c.after, c.sensitive) for c in action.changes] == [
        ("publishingAuth.fallbackURL", None, "https://acme.example/login", True),
        ("publishingAuth", {"logoutURL": "https://acme.example/out"}, {"logoutURL": None}, False),
    ]


def test_fields_not_written_are_left_alone() -> None:
    plan = k.plan(
        manifest("{backend: custom}"),
        live(fallbackURL="https://acme.example/login", logoutURL="https://acme.example/out"),
    )
    assert plan.actions == []


def test_a_changed_backend() -> None:
    _, payload = the_action(k.plan(manifest("{backend: integration}"), live()))
    assert payload.body == {"backend": "integration"}


def test_a_site_made_visitor_auth_gets_its_auth_after_the_change() -> None:
    plan = k.plan(
        manifest('{fallbackURL: "https://acme.example/login"}', "    visibility: visitor-auth\n"),
        live("public"),
    )
    assert k.steps(plan) == ['update site["Docs"]', 'update site["Docs"].publishingAuth']
    action, payload = the_action(plan)
    assert payload.body == {"backend": "custom", "fallbackURL": "https://acme.example/login"}
    assert plan.actions[0].key in action.depends_on


def test_a_site_that_is_not_visitor_auth_is_a_located_problem() -> None:
    with pytest.raises(PlanProblems) as raised:
        k.plan(manifest("{backend: custom}"), live("public"))
    message = str(raised.value)
    assert "sites[0].publishingAuth: publishingAuth applies to visitor-auth sites" in message


def test_the_read_keeps_no_private_key() -> None:
    masked: list[str] = []

    class Api:
        async def get(self, path: str, **_: Any) -> dict[str, Any]:
            assert path == "/v1/orgs/org_acme/sites/s1/publishing/auth"
            return {"object": "publishing-auth", "backend": "custom", "privateKey": KEY}

        def redact(self, secrets: Any) -> None:
            masked.extend(secrets)

    site: dict[str, Any] = {"id": "s1", "visibility": "visitor-auth"}
    asyncio.run(PublishingAuthKind().fetch(Api(), site, "/v1/orgs/org_acme/sites/s1"))  # type: ignore[arg-type]
    assert site["_publishingAuth"] == {"backend": "custom", "fallbackURL": None, "logoutURL": None}
    assert masked == [KEY]  # masked wherever a server echoes it (and left out of a snapshot)
    public: dict[str, Any] = {"id": "s2", "visibility": "public"}
    asyncio.run(PublishingAuthKind().fetch(Api(), public, "/v1/orgs/org_acme/sites/s2"))  # type: ignore[arg-type]
    assert "_publishingAuth" not in public
    plan = k.plan(manifest("{backend: integration}"), {"site": [k.site("s1", "Docs", []) | site]})
    assert KEY not in repr(plan)


def test_a_url_from_env_is_hidden_but_named() -> None:
    written = manifest("{fallbackURL: \"{{ env('LOGIN') }}\"}")
    plan = k.plan(written, live(), environ={"LOGIN": "https://s3cret.acme.example/login"})
    action, _ = the_action(plan)
    assert [(c.field, c.sensitive) for c in action.changes] == [
        ("publishingAuth.fallbackURL", True)
    ]
    shown = render_plan(plan)
    assert "s3cret" not in shown and "publishingAuth.fallbackURL = (sensitive)" in shown, shown
