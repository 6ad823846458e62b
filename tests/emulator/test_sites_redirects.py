"""Site redirects over real HTTP: CRUD, the bulk upsert's results and limits, destinations
inside the site, pages that cost what they return, and what deleting a section or site does."""

from __future__ import annotations

from typing import Any

import pytest

from docsync.emulator import store_rows
from docsync.emulator.app import EmulatorConfig
from tests.emulator.test_sites_kit import SITES, SitesKit, sites_seed
from tests.emulator_harness import EmulatorHandle, in_process

EXTERNAL = {"kind": "external", "url": "https://acme.example/new"}


def _site(kit: SitesKit) -> tuple[str, str, str]:
    """A site with one section (Guides): (site, section, its site space)."""
    site = kit.create_site(title="Docs")["id"]
    section = kit.add_section(site, "space_guides")
    return site, section["id"], section["siteSpaces"][0]["id"]


def _bulk(kit: SitesKit, site: str, items: list[dict[str, Any]], status: int = 200) -> Any:
    return kit.ok(kit.client.put(kit.url(site, "redirects"), json={"redirects": items}), status)


def _list(kit: SitesKit, site: str, **params: Any) -> Any:
    return kit.ok(kit.client.get(kit.url(site, "redirects"), params=params))


def _error(kit: SitesKit, response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    message: str = response.json()["error"]["message"]
    return message


def test_create_update_resolve_delete(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site, section, site_space = _site(kit)
    url = kit.url(site, "redirects")
    start = kit.ok(kit.client.post(url, json={"source": "/start", "destination": EXTERNAL}), 201)
    assert start["object"] == "site-redirect" and "updatedAt" not in start
    assert (start["draft"], start["permanent"], start["captureWildcard"]) == (False, False, False)
    refused = kit.client.post(url, json={"source": "/start", "destination": EXTERNAL})
    assert "already has a live redirect from '/start'" in _error(kit, refused, 409)
    to_section = {"kind": "site-section", "siteSectionId": section}
    changed = kit.ok(
        kit.client.patch(
            f"{url}/{start['id']}", json={"destination": to_section, "permanent": True}
        )
    )
    assert changed["destination"] == to_section and changed["permanent"] is True
    assert "updatedAt" in changed
    resolved = kit.ok(kit.client.get(kit.url(site, "redirect"), params={"source": "/start"}))
    assert resolved["redirect"]["id"] == start["id"]
    assert resolved["target"].endswith("/guides")
    kit.ok(
        kit.client.post(
            url,
            json={
                "source": "/v1/*",
                "destination": {"kind": "site-space", "siteSpaceId": site_space},
            },
        ),
        201,
    )
    assert [r["source"] for r in _list(kit, site)["items"]] == ["/v1/*", "/start"]  # newest first
    assert [r["source"] for r in _list(kit, site, orderBy="source")["items"]] == ["/start", "/v1/*"]
    assert [r["source"] for r in _list(kit, site, search="V1")["items"]] == ["/v1/*"]
    emulator.advance_clock(1)
    kit.ok(kit.client.patch(f"{url}/{start['id']}", json={"permanent": False}))
    # the most recently updated first (one never updated: by its creation)
    assert [r["source"] for r in _list(kit, site, orderBy="updatedAt")["items"]] == [
        "/start",
        "/v1/*",
    ]
    assert kit.client.delete(f"{url}/{start['id']}").status_code == 205
    assert kit.client.delete(f"{url}/{start['id']}").status_code == 204
    missing = kit.client.get(kit.url(site, "redirect"), params={"source": "/start"})
    assert _error(kit, missing, 404).startswith("No redirect from '/start'")
    assert _list(kit, site)["count"] == 1


def test_refusals_name_the_field(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site, _, _ = _site(kit)
    other, other_section, _ = _site(kit)
    url = kit.url(site, "redirects")
    cases: list[tuple[dict[str, Any], str]] = [
        ({"source": "no-slash", "destination": EXTERNAL}, "source: must match the pattern"),
        ({"source": "/*", "destination": EXTERNAL}, "source: must match the pattern"),
        ({"source": "/a*/b", "destination": EXTERNAL}, "source: must match the pattern"),
        ({"source": "/" + "a" * 512, "destination": EXTERNAL}, "source: must be at most 512"),
        ({"source": "/a"}, "destination: is required"),
        ({"source": "/a", "destination": {"kind": "nope"}}, "destination.kind: must be one of"),
        ({"source": "/a", "destination": {"kind": "external"}}, "destination.url: is required"),
        ({"source": "/a", "destination": {"kind": "path", "path": "p"}}, "destination.spaceId"),
    ]
    for body, message in cases:
        assert _error(kit, kit.client.post(url, json=body), 400).startswith(message), body
    # a well-formed destination naming what the site does not hold: 404 naming the field
    unknown: list[tuple[dict[str, Any], str]] = [
        (
            {"kind": "site-section", "siteSectionId": other_section},
            f"destination.siteSectionId: no section {other_section!r} in site {site!r}",
        ),
        (
            {"kind": "path", "spaceId": "space_api", "path": "p"},
            f"destination.spaceId: no site space of site {site!r} publishes space 'space_api'",
        ),
    ]
    for destination, message in unknown:
        body = {"source": "/a", "destination": destination}
        assert _error(kit, kit.client.post(url, json=body), 404).startswith(message), body
    assert _list(kit, site)["count"] == 0 and _list(kit, other)["count"] == 0


def test_bulk_upsert_creates_updates_deletes_and_publishes(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site, section, _ = _site(kit)
    first = _bulk(
        kit,
        site,
        [
            {"source": "/a", "destination": EXTERNAL, "permanent": True},
            {"source": "/b", "destination": EXTERNAL, "intent": "draft"},
            {"source": "/c", "destination": {"kind": "site-section", "siteSectionId": "nope"}},
        ],
    )["results"]
    assert [(r["status"], r["draft"]) for r in first] == [
        ("created", False),
        ("created", True),
        ("error", False),
    ]
    assert first[2]["error"] == f"destination.siteSectionId: no section 'nope' in site {site!r}"
    to_section = {"kind": "site-section", "siteSectionId": section}
    second = _bulk(
        kit,
        site,
        [
            {"source": "/a", "destination": to_section},  # permanent stays as it is
            {"source": "/b", "intent": "publish"},
            {"source": "/gone", "destination": None},
        ],
    )["results"]
    assert [r["status"] for r in second] == ["updated", "published", "deleted"]
    assert second[0]["id"] == first[0]["id"] and second[1]["id"] == first[1]["id"]
    live = {r["source"]: r for r in _list(kit, site)["items"]}
    assert live["/a"]["destination"] == to_section and live["/a"]["permanent"] is True
    assert sorted(live) == ["/a", "/b"] and _list(kit, site, draft="true")["count"] == 0
    third = _bulk(kit, site, [{"source": "/a", "destination": None}])["results"]
    assert third == [{"status": "deleted", "source": "/a", "draft": False}]
    assert [r["source"] for r in _list(kit, site)["items"]] == ["/b"]


def test_a_path_destination_is_answered_as_the_page_it_names(emulator: EmulatorHandle) -> None:
    """Production takes `{kind: path, spaceId, path}` on create and bulk upsert and answers the
    resolved page (SiteRedirectDestination has no `path` kind)."""
    kit = SitesKit(emulator)
    site, _, site_space = _site(kit)
    url = kit.url(site, "redirects")
    by_path = {"kind": "path", "spaceId": "space_guides", "path": "/getting-started/"}
    made = kit.ok(kit.client.post(url, json={"source": "/start", "destination": by_path}), 201)
    page = made["destination"]
    assert page["kind"] == "site-page" and page["siteSpaceId"] == site_space
    again = {**by_path, "path": "getting-started"}  # the same page: the same id
    bulk = _bulk(kit, site, [{"source": "/begin", "destination": again}])["results"]
    assert bulk[0]["status"] == "created"
    assert _list(kit, site)["items"][0]["destination"] == page
    resolved = kit.ok(kit.client.get(kit.url(site, "redirect"), params={"source": "/start"}))
    assert resolved["target"].endswith(f"/guides/{page['pageId']}")
    unpublished = {**by_path, "spaceId": "space_api"}
    missing = _bulk(kit, site, [{"source": "/api", "destination": unpublished}])["results"]
    assert missing[0]["status"] == "error" and "space_api" in missing[0]["error"]
    # an update's destination is production's SiteRedirectDestination: no `path` kind
    refused = kit.client.patch(f"{url}/{made['id']}", json={"destination": by_path})
    assert _error(kit, refused, 400).startswith("destination.kind: must be one of")


def test_bulk_limits_refuse_the_whole_request(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site, _, _ = _site(kit)
    url = kit.url(site, "redirects")
    items = [{"source": f"/p{i}", "destination": EXTERNAL} for i in range(501)]
    too_many = kit.client.put(url, json={"redirects": items})
    assert _error(kit, too_many, 400) == "redirects: must have 1 to 500 items; got 501"
    assert _error(kit, kit.client.put(url, json={"redirects": []}), 400).startswith("redirects:")
    bad = [*items[:3], {"source": "/x y", "destination": EXTERNAL}]
    message = _error(kit, kit.client.put(url, json={"redirects": bad}), 400)
    assert message.startswith("redirects[3].source: must match the pattern")
    assert _list(kit, site)["count"] == 0  # nothing of a refused request applied


def test_1200_redirects_in_3_writes_and_2_reads(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site, _, _ = _site(kit)
    items = [{"source": f"/old/{i:04}", "destination": EXTERNAL} for i in range(1200)]
    for start in range(0, 1200, 500):
        results = _bulk(kit, site, items[start : start + 500])["results"]
        assert {r["status"] for r in results} == {"created"}
    first = _list(kit, site, limit=1000)
    assert (len(first["items"]), first["count"]) == (1000, 1200)
    second = _list(kit, site, limit=1000, page=first["next"]["page"])
    assert len(second["items"]) == 200 and "next" not in second
    sources = {r["source"] for r in first["items"] + second["items"]}
    assert sources == {item["source"] for item in items}
    requests = emulator.stats()["requests"]
    assert requests["PUT /v1/orgs/{organizationId}/sites/{siteId}/redirects"] == 3
    assert requests["GET /v1/orgs/{organizationId}/sites/{siteId}/redirects"] == 2


def test_redirects_go_with_their_site_and_outlive_their_section(
    emulator: EmulatorHandle,
) -> None:
    kit = SitesKit(emulator)
    site, section, _ = _site(kit)
    to_section = {"kind": "site-section", "siteSectionId": section}
    _bulk(kit, site, [{"source": "/s", "destination": to_section}])
    assert kit.client.delete(kit.url(site, "sections", section)).status_code == 205
    [kept] = _list(kit, site)["items"]
    assert kept["destination"] == to_section
    dangling = kit.client.get(kit.url(site, "redirect"), params={"source": "/s"})
    assert "points at a section or site space that was deleted" in _error(kit, dangling, 404)
    assert kit.client.delete(kit.url(site)).status_code == 205
    again = kit.create_site(title="Docs")["id"]
    assert _list(kit, again)["count"] == 0
    assert kit.client.get(kit.url(site, "redirects")).status_code == 404


def _rows_decoded(monkeypatch: pytest.MonkeyPatch, redirects: int) -> list[int]:
    """Rows decoded by a bulk upsert of 20 and a list page of 20, in a site of `redirects`."""
    counted = {"rows": 0}
    real = store_rows.decode

    def counting(values: tuple[Any, ...]) -> Any:
        counted["rows"] += 1
        return real(values)

    monkeypatch.setattr(store_rows, "decode", counting)
    with in_process(EmulatorConfig(seed=sites_seed())) as (client, _):
        site = client.post(SITES, json={"title": "Docs"}).json()["id"]
        url = f"{SITES}/{site}/redirects"
        items = [{"source": f"/p{i}", "destination": EXTERNAL} for i in range(redirects)]
        for start in range(0, redirects, 500):
            client.put(url, json={"redirects": items[start : start + 500]})
        decoded = []
        for method, params, body in (
            ("PUT", None, {"redirects": items[:20]}),
            ("GET", {"limit": 20, "orderBy": "source", "search": "P"}, None),
        ):
            before = counted["rows"]
            answer = client.request(method, url, params=params, json=body)
            assert answer.status_code == 200, answer.text
            decoded.append(counted["rows"] - before)
    return decoded


def test_writes_and_pages_cost_what_they_touch(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _rows_decoded(monkeypatch, 1500) == _rows_decoded(monkeypatch, 100)
