"""A site's share links planned without HTTP: one action per site, the exact list keyed by
name, `active` patched, inactive links created then deactivated, and what `validate` finds."""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path
from typing import Any

import pytest

from docsync.core.errors import PlanProblems
from docsync.kinds.presentation.share_links import ShareLinkKind, ShareLinks
from docsync.manifest import ManifestError, load_manifests
from tests.core import plankit as k

SECRET_URL = "https://acme.example/docs/~/share/s3cret-key"


def link(link_id: str, name: str, active: bool = True) -> dict[str, Any]:
    """A live share link as the site's read keeps it."""
    return {"id": link_id, "name": name, "active": active}


def live(*links: dict[str, Any], read: bool = True) -> dict[str, Any]:
    docs = k.site("s1", "Docs", [])
    if read:
        docs["_shareLinks"] = list(links)
    return {"site": [docs]}


def manifest(*links: str) -> str:
    return "sites:\n  - title: Docs\n    shareLinks:\n" + "".join(f"      - {s}\n" for s in links)


def the_action(plan: Any) -> tuple[Any, ShareLinks]:
    return k.only_update(plan, 'site["Docs"].shareLinks', ShareLinks)


def test_new_changed_and_unlisted_links() -> None:
    plan = k.plan(
        manifest(
            "{name: Same}",
            "{name: Paused, active: false}",
            "{name: New}",
            "{name: New off, active: false}",
        ),
        live(link("l1", "Same"), link("l2", "Paused"), link("l3", "Gone")),
    )
    action, payload = the_action(plan)
    assert payload.creates == [
        {"name": "New", "active": True},
        {"name": "New off", "active": False},
    ]
    assert payload.updates == [{"id": "l2", "active": False}]
    assert payload.deletes == ["l3"]
    [change] = action.changes
    assert change.before == [
        {"name": "Gone", "active": True},
        {"name": "Paused", "active": True},
        {"name": "Same", "active": True},
    ]
    assert [item["name"] for item in change.after] == ["New", "New off", "Paused", "Same"]
    assert any("whoever holds their URLs loses access" in note for note in action.notes)


def test_a_list_as_it_is_plans_nothing() -> None:
    plan = k.plan(
        manifest("{name: A}", "{name: B, active: false}"),
        live(link("l1", "B", active=False), link("l2", "A")),
    )
    assert plan.actions == []


def test_links_not_written_are_left_alone() -> None:
    plan = k.plan("sites:\n  - title: Docs\n", live(link("l1", "A"), read=False))
    assert plan.actions == []


def test_an_empty_list_deletes_every_link() -> None:
    plan = k.plan("sites:\n  - title: Docs\n    shareLinks: []\n", live(link("l1", "A")))
    _, payload = the_action(plan)
    assert (payload.creates, payload.updates, payload.deletes) == ([], [], ["l1"])


def test_a_new_site_gets_its_links_after_its_create() -> None:
    plan = k.plan(manifest("{name: A}"), {"site": []})
    assert k.steps(plan) == ['create site["Docs"]', 'update site["Docs"].shareLinks']
    _, payload = the_action_at(plan, 'site["Docs"].shareLinks')
    assert payload.site == {"$ref": 'site["Docs"]'}


def the_action_at(plan: Any, address: str) -> tuple[Any, ShareLinks]:
    action = next(a for a in plan.actions if a.address == address)
    assert isinstance(action.payload, ShareLinks)
    return action, action.payload


def test_two_live_links_with_a_written_name_are_a_located_problem() -> None:
    with pytest.raises(PlanProblems) as raised:
        k.plan(manifest("{name: A}"), live(link("l1", "A"), link("l2", "A")))
    message = str(raised.value)
    assert "sites[0].shareLinks[0]: " in message and "(ids l1, l2)" in message
    assert "rename or delete all but one in the app" in message


def test_the_read_keeps_no_url() -> None:
    masked: list[str] = []

    class Api:
        async def list_all(self, path: str, **_: Any) -> list[dict[str, Any]]:
            assert path == "/v1/orgs/org_acme/sites/s1/share-links"
            answer = link("l1", "A") | {"object": "share-link", "createdAt": "2026-01-01"}
            return [answer | {"urls": {"published": SECRET_URL}}]

        def redact(self, secrets: Any) -> None:
            masked.extend(secrets)

    site: dict[str, Any] = {"id": "s1"}
    asyncio.run(ShareLinkKind().fetch(Api(), site, "/v1/orgs/org_acme/sites/s1"))  # type: ignore[arg-type]
    assert site["_shareLinks"] == [link("l1", "A")]
    assert masked == [SECRET_URL]  # masked wherever a server echoes it (and left out of a snapshot)
    plan = k.plan(manifest("{name: A, active: false}"), {"site": [k.site("s1", "Docs", []) | site]})
    assert SECRET_URL not in repr(plan) and "s3cret" not in repr(plan)


def _problems(text: str, tmp_path: Path) -> list[str]:
    path = tmp_path / "manifest.yaml"
    path.write_text("organization: org_acme\n" + textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(ManifestError) as raised:
        load_manifests([path], environ={})
    return [str(problem) for problem in raised.value.problems]


@pytest.mark.parametrize(
    ("links", "expected"),
    [
        (
            ["{name: A}", "{name: A, active: false}"],
            "sites[0].shareLinks[1].name: share link 'A' is defined twice",
        ),
        (["{name: ''}"], "sites[0].shareLinks[0].name:"),
        (["{name: '" + "x" * 51 + "'}"], "sites[0].shareLinks[0].name:"),
        (["{name: A, url: 'https://x.example'}"], "sites[0].shareLinks[0].url:"),
        (["{active: false}"], "sites[0].shareLinks[0].name:"),
    ],
)
def test_validate_finds_offline(links: list[str], expected: str, tmp_path: Path) -> None:
    problems = _problems(manifest(*links), tmp_path)
    assert any(expected in problem for problem in problems), problems
