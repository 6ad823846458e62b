"""Sites over real HTTP: create, list filters, get, update, limits, publish, delete, permissions."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.depth import examples
from tests.emulator.test_sites_kit import ORG, SitesKit
from tests.emulator_harness import EmulatorHandle


def test_create_defaults_get_and_location(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    response = kit.client.post(kit.url())
    site = kit.ok(response, 201)
    assert response.headers["location"].endswith(f"/v1/orgs/{ORG}/sites/{site['id']}")
    assert len(site["id"]) == 20 and site["id"].isalnum()
    assert site["object"] == "site" and site["type"] == "basic" and site["title"] == "Untitled site"
    assert (site["visibility"], site["published"], site["siteSpaces"]) == ("public", False, 0)
    assert site["agentsContext"] == "excluded" and "published" not in site["urls"]
    assert kit.ok(kit.client.get(kit.url(site["id"]))) == site


def test_create_with_spaces_makes_root_site_spaces(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(
        title="Docs", type="premium", visibility="unlisted", spaces=["space_guides", "space_api"]
    )
    assert (site["type"], site["visibility"], site["siteSpaces"]) == ("premium", "unlisted", 2)
    assert kit.outline(site["id"]) == ["guides*", "api-reference"]
    for spaces, field in ((["space_guides", "nope"], "spaces[1]"), (["space_other"], "spaces[0]")):
        refused = kit.client.post(kit.url(), json={"title": "Bad", "spaces": spaces})
        assert refused.status_code == 404
        assert refused.json()["error"]["message"].startswith(f"{field}: no space")
    assert kit.ok(kit.client.get(kit.url()))["count"] == 1  # nothing half-created


def test_list_filters_and_pages(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    docs = kit.create_site(title="Developer Docs", spaces=["space_guides"])
    kit.create_site(title="Handbook", type="ultimate")
    kit.ok(kit.client.post(kit.url(docs["id"], "publish")))

    def titles(**params: Any) -> list[str]:
        return [s["title"] for s in kit.ok(kit.client.get(kit.url(), params=params))["items"]]

    assert titles() == ["Developer Docs", "Handbook"]
    assert titles(space="space_guides") == ["Developer Docs"]
    assert titles(title="HANDB") == ["Handbook"]
    assert titles(published="true") == ["Developer Docs"]
    assert titles(published="false") == ["Handbook"]
    assert titles(type="ultimate") == ["Handbook"]
    page = kit.ok(kit.client.get(kit.url(), params={"limit": 1}))
    assert page["count"] == 2 and len(page["items"]) == 1 and "page" in page["next"]
    for params in ({"published": "maybe"}, {"type": "gold"}, {"limit": -1}):
        assert kit.client.get(kit.url(), params=params).status_code == 400


@pytest.mark.parametrize(
    ("field", "good", "bad"),
    [
        ("title", ["ab", "x" * 128], ["a", "x" * 129, None, 7]),
        ("basename", ["a", "b" * 100], ["", "b" * 101, None]),
        ("visibility", ["share-link", "visitor-auth"], ["secret", None]),
        ("agentsContext", ["included", "excluded"], ["all", None]),
        ("defaultLevel", ["read", None, "inherit"], ["owner"]),
        ("adaptiveContent", [{"enabled": True}], [{}, {"enabled": "yes"}, {"on": True}, None]),
        (
            "proxy",
            ["acme.example/docs", "www.a-b.example.org/dev/docs", None],
            ["acme.example", "https://acme.example/docs", "a.b/" + "c" * 510, "acme/docs"],
        ),
    ],
)
def test_patch_limits(
    emulator: EmulatorHandle, field: str, good: list[Any], bad: list[Any]
) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")
    for value in good:
        kit.ok(kit.client.patch(kit.url(site["id"]), json={field: value}))
    before = kit.ok(kit.client.get(kit.url(site["id"])))
    companion = {"basename": "changed"} if field != "basename" else {"title": "Changed"}
    for value in bad:
        response = kit.client.patch(kit.url(site["id"]), json={**companion, field: value})
        assert response.status_code == 400, (field, value, response.text)
        assert response.json()["error"]["message"].startswith(field)
    assert kit.ok(kit.client.get(kit.url(site["id"]))) == before  # no partial write


def test_create_limits(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    for body in ({"title": "a"}, {"title": "x" * 129}, {"type": "gold"}, {"visibility": "x"}):
        response = kit.client.post(kit.url(), json=body)
        assert response.status_code == 400
        assert response.json()["error"]["message"].startswith(next(iter(body)))
    assert kit.client.post(kit.url(), json={"spaces": "new"}).status_code == 400
    assert kit.client.post(kit.url(), content=b"[1]").status_code == 400


def test_patch_reads_back(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")
    body = {
        "title": "Developer Docs",
        "visibility": "share-link",
        "basename": "docs",
        "agentsContext": "included",
        "adaptiveContent": {"enabled": True},
        "proxy": "acme.example/docs",
        "defaultLevel": "read",
    }
    patched = kit.ok(kit.client.patch(kit.url(site["id"]), json=body))
    for key in ("title", "visibility", "basename", "agentsContext", "adaptiveContent"):
        assert patched[key] == body[key]
    assert patched["defaultLevel"] == "read"
    assert patched["proxy"]["origin"] == "acme.example/docs"
    assert patched["proxy"]["target"].endswith(f"/published/{ORG}/docs")
    assert kit.ok(kit.client.get(kit.url(site["id"]))) == patched
    cleared = kit.ok(kit.client.patch(kit.url(site["id"]), json={"proxy": None}))
    assert "proxy" not in cleared and cleared["title"] == "Developer Docs"


def test_publish_and_unpublish_are_idempotent(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")
    for _ in range(2):
        published = kit.ok(kit.client.post(kit.url(site["id"], "publish")))
        assert published["published"] is True and "published" in published["urls"]
    for _ in range(2):
        unpublished = kit.ok(kit.client.post(kit.url(site["id"], "unpublish")))
        assert unpublished["published"] is False and "published" not in unpublished["urls"]
    assert kit.client.post(kit.url("nope", "publish")).status_code == 404


def test_published_profile(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")
    kit.add_section(site["id"], "space_guides")
    kit.ok(kit.client.post(kit.url(site["id"], "publish")))
    profile = kit.ok(kit.client.get(kit.url(site["id"], "published")))
    assert profile["object"] == "published-content-site"
    assert profile["site"]["published"] is True
    assert profile["structure"] == kit.structure(site["id"])
    section = profile["structure"]["structure"][0]
    assert section["urls"]["published"] == profile["site"]["urls"]["published"]


def test_delete_cascades_and_is_idempotent(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    section = kit.add_section(site, "space_guides")
    kit.add_site_space(site, "space_api")
    kit.add_group(site, "Learn", [section["id"]])
    other = kit.create_site(title="Other", spaces=["space_guides"])["id"]
    assert kit.client.delete(kit.url(site)).status_code == 205
    assert kit.client.delete(kit.url(site)).status_code == 204
    for path in ("", "sections", "site-spaces", "section-groups", "structure"):
        assert kit.client.get(kit.url(site, *([path] if path else []))).status_code == 404
    listed = kit.ok(kit.client.get(kit.url(), params={"space": "space_guides"}))["items"]
    assert [s["id"] for s in listed] == [other]
    assert kit.outline(other) == ["guides*"]


def test_delete_of_the_default_content_site_is_refused(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    org = f"/v1/orgs/{ORG}"
    kit.ok(kit.client.patch(org, json={"defaultContent": {"type": "site", "site": site}}))
    refused = kit.client.delete(kit.url(site))
    assert refused.status_code == 409 and "defaultContent" in refused.json()["error"]["message"]
    kit.ok(kit.client.get(kit.url(site)))
    kit.ok(kit.client.patch(org, json={"defaultContent": None}))
    assert kit.client.delete(kit.url(site)).status_code == 205


def test_permissions(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    creator = emulator.client("tok_kim")
    assert creator.post(kit.url(), json={"title": "By Kim"}).status_code == 201
    assert creator.patch(kit.url(site), json={"title": "Kim's"}).status_code == 200
    assert creator.post(kit.url(site, "publish")).status_code == 200
    assert creator.delete(kit.url(site)).status_code == 403  # deleting a site needs admin
    for token in ("tok_lin", "tok_sam", "tok_guest"):
        client = emulator.client(token)
        shown = client.get(kit.url(site))
        assert shown.status_code == 200 and shown.json()["permissions"]["create"] is False
        assert client.post(kit.url(), json={"title": "Nope"}).status_code == 403
        assert client.patch(kit.url(site), json={"title": "Nope"}).status_code == 403
        assert client.post(kit.url(site, "sections"), json={"spaceId": "x"}).status_code == 403
    assert emulator.client("tok_olga").get(kit.url(site)).status_code == 404
    assert emulator.client("tok_olga").delete(kit.url(site)).status_code == 404


def test_unknown_site_and_fields(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    for method, part in (("GET", ""), ("PATCH", ""), ("GET", "structure"), ("GET", "published")):
        path = kit.url("nope", *([part] if part else []))
        response = kit.client.request(method, path, json={} if method == "PATCH" else None)
        assert response.status_code == 404, (method, part)
    ignored = kit.client.patch(kit.url(site), json={"published": True})  # not production's
    assert ignored.status_code == 200 and ignored.json()["published"] is False
    assert kit.client.patch(kit.url(site), content=b"").status_code == 400


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=8)
    | st.sampled_from(["space_api", "x" * 200]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=3)
    ),
    max_leaves=8,
)
_FIELDS = st.sampled_from(
    [
        "title",
        "spaces",
        "proxy",
        "adaptiveContent",
        "defaultSiteSpace",
        "defaultSiteSection",
        "spaceId",
        "sectionId",
        "siteSectionGroupId",
        "sections",
        "path",
        "condition",
        "icon",
        "item",
        "position",
        "jsonSchema",
        "type",
        "visibility",
    ]
)
_WRITES = [
    ("POST", ""),
    ("PATCH", "{site}"),
    ("POST", "{site}/sections"),
    ("PATCH", "{site}/sections/{section}"),
    ("POST", "{site}/site-spaces"),
    ("PATCH", "{site}/site-spaces/{ss}"),
    ("POST", "{site}/section-groups"),
    ("PATCH", "{site}/section-groups/{group}"),
    ("POST", "{site}/section-groups/{group}/sections"),
    ("PATCH", "{site}/structure/sort"),
    ("PUT", "{site}/adaptive-schema"),
    ("POST", "{site}/sections/{section}/move"),
    ("POST", "{site}/site-spaces/{ss}/move"),
    ("POST", "{site}/section-groups/{group}/move"),
]


@pytest.mark.slow
@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.sampled_from(_WRITES), st.dictionaries(_FIELDS, _JSON, max_size=3))
def test_random_bodies_never_break_the_emulator(
    emulator_server: EmulatorHandle, write: tuple[str, str], body: dict[str, Any]
) -> None:
    kit = SitesKit(emulator_server)
    site = kit.create_site(title="Docs")["id"]
    section = kit.add_section(site, "space_guides")
    group = kit.add_group(site, "Learn")["id"]
    ids = {
        "site": site,
        "section": section["id"],
        "ss": section["siteSpaces"][0]["id"],
        "group": group,
    }
    method, template = write
    response = kit.client.request(
        method, kit.url(None, template.format(**ids)) if template else kit.url(), json=body
    )
    assert response.status_code in (200, 201, 204, 400, 404, 409), response.text
    assert response.status_code < 300 or set(response.json()) == {"error"}
