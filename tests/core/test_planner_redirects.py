"""A site's redirects planned without HTTP: one action per site, the exact list keyed by
source, destinations by name resolved to placeholders, and what `validate` finds offline."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from docsync.core.errors import PlanProblems
from docsync.engine.cost import action_requests
from docsync.kinds.presentation.redirects import Redirects
from docsync.manifest import ManifestError, load_manifests
from tests.core import plankit as k

SPACES = [{"id": "sp1", "title": "Guides"}, {"id": "sp2", "title": "Old"}]
GUIDES_ID = {"kind": "site-section", "siteSectionId": "sec1"}


def redirect(source: str, destination: dict[str, Any], **flags: bool) -> dict[str, Any]:
    """A live redirect as the API lists it."""
    return {
        "object": "site-redirect",
        "id": f"r{source}",
        "source": source,
        "draft": False,
        "captureWildcard": flags.get("captureWildcard", False),
        "permanent": flags.get("permanent", False),
        "destination": destination,
        "createdAt": "2026-01-01T00:00:00.000Z",
    }


def live(*redirects: dict[str, Any]) -> dict[str, Any]:
    docs = k.site(
        "s1",
        "Docs",
        [
            k.section(
                "sec1",
                "Guides",
                k.site_space("ss1", "sp1", "v2", True),
                k.site_space("ss2", "sp2", "v1"),
                default=True,
            )
        ],
        _redirects=list(redirects),
    )
    return {"space": SPACES, "site": [docs]}


def manifest(*redirects: str, sections: str = "") -> str:
    return (
        "sites:\n  - title: Docs\n"
        + sections
        + "    redirects:\n"
        + "".join(f"      - {r}\n" for r in redirects)
    )


def the_action(plan: Any) -> tuple[Any, Redirects]:
    return k.only_update(plan, 'site["Docs"].redirects', Redirects)


def test_only_what_differs_is_upserted_and_what_is_not_written_is_deleted() -> None:
    plan = k.plan(
        manifest(
            '{source: /same, destination: {url: "https://acme.example/a"}}',
            "{source: /changed, destination: {section: Guides}, permanent: true}",
            "{source: /new, destination: {section: Guides, siteSpace: v1}}",
        ),
        live(
            redirect("/same", {"kind": "external", "url": "https://acme.example/a"}),
            redirect("/changed", GUIDES_ID),
            redirect("/gone", {"kind": "site-space", "siteSpaceId": "ss2"}),
        ),
    )
    action, payload = the_action(plan)
    assert [u["source"] for u in payload.upserts or []] == ["/changed", "/new"]
    assert (payload.upserts or [])[1]["destination"] == {
        "kind": "site-space",
        "siteSpaceId": {"$ref": 'site["Docs"].section["Guides"].site_space["v1"]'},
    }
    assert payload.deletes == ["/gone"]
    assert payload.requests == 1
    [change] = action.changes
    assert [r["source"] for r in change.before] == ["/changed", "/gone", "/same"]
    assert change.before[1]["destination"] == {"section": "Guides", "siteSpace": "v1"}
    assert any("the list is exact" in note for note in action.notes)


def test_a_list_as_it_is_plans_nothing() -> None:
    plan = k.plan(
        manifest(
            "{source: /s, destination: {section: Guides}}",
            "{source: /p/*, destination: {section: Guides, siteSpace: v2, page: pg1}, "
            "captureWildcard: true}",
        ),
        live(
            redirect("/s", GUIDES_ID),
            redirect(
                "/p/*",
                {"kind": "site-page", "siteSpaceId": "ss1", "pageId": "pg1"},
                captureWildcard=True,
            ),
        ),
    )
    assert plan.actions == []


def test_a_redirect_to_a_deleted_section_is_rewritten_by_name() -> None:
    plan = k.plan(
        manifest("{source: /s, destination: {section: Guides}}"),
        live(redirect("/s", {"kind": "site-section", "siteSectionId": "sec_gone"})),
    )
    _, payload = the_action(plan)
    assert [u["source"] for u in payload.upserts or []] == ["/s"]


def test_a_redirect_to_a_new_section_waits_for_its_create() -> None:
    sections = (
        "    sections:\n"
        "      - {title: Guides, siteSpaces: [{space: Guides, path: g}]}\n"
        "      - {title: Start, siteSpaces: [{space: Old, path: o}]}\n"
    )
    redirects = manifest("{source: /s, destination: {section: Start}}", sections=sections)
    plan = k.plan(redirects, {"space": SPACES})
    action = next(a for a in plan.actions if a.address.endswith(".redirects"))
    assert 'create site["Docs"].section["Start"]' in action.depends_on
    assert 'create site["Docs"]' in action.depends_on


def test_1200_redirects_are_3_requests() -> None:
    lines = [
        f'{{source: /p{i}, destination: {{url: "https://acme.example/{i}"}}}}' for i in range(1200)
    ]
    action, payload = the_action(k.plan(manifest(*lines), live()))
    assert payload.requests == 3 and action_requests(action) == 3


def test_a_destination_the_live_site_does_not_have_is_a_located_problem() -> None:
    with pytest.raises(PlanProblems) as raised:
        k.plan(manifest("{source: /s, destination: {section: Guide}}"), live())
    message = str(raised.value)
    assert "sites[0].redirects[0].destination.section: no section 'Guide'" in message
    assert "(did you mean 'Guides'?)" in message and "manifest.yaml:" in message


def _problems(text: str, tmp_path: Path) -> list[str]:
    path = tmp_path / "manifest.yaml"
    path.write_text("organization: org_acme\n" + textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(ManifestError) as raised:
        load_manifests([path], environ={})
    return [str(problem) for problem in raised.value.problems]


@pytest.mark.parametrize(
    ("redirects", "expected"),
    [
        (
            ["{source: old, destination: {url: 'https://a.example'}}"],
            "sites[0].redirects[0].source: 'old' must be a path like '/old-guides'",
        ),
        (
            ["{source: '/a*/b', destination: {url: 'https://a.example'}}"],
            "at most one '*', at the end",
        ),
        (
            ["{source: /a, destination: {section: Guide}}"],
            "sites[0].redirects[0].destination.section: 'Guide' names no section of this site; "
            "did you mean 'Guides'?",
        ),
        (
            ["{source: /a, destination: {section: Guides, siteSpace: v22}}"],
            "sites[0].redirects[0].destination.siteSpace: 'v22' names no site space of section "
            "'Guides'; did you mean 'v2'?",
        ),
        (
            ["{source: /a, destination: {url: 'https://a.example'}}"] * 2,
            "sites[0].redirects[1].source: redirect '/a' is defined twice",
        ),
        (
            ["{source: /a, destination: {page: p1}}"],
            "a destination needs `url`, `section` or `siteSpace`",
        ),
        (
            ["{source: /a, destination: {url: 'https://a.example', section: Guides}}"],
            "either a `url` or a place in the site",
        ),
    ],
)
def test_validate_finds_offline(redirects: list[str], expected: str, tmp_path: Path) -> None:
    sections = "    sections:\n      - title: Guides\n        siteSpaces: [{space: G, path: v2}]\n"
    problems = _problems(manifest(*redirects, sections=sections), tmp_path)
    assert any(expected in problem for problem in problems), problems
