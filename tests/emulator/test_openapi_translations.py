"""OpenAPI specs (slug-keyed, versioned) and translation settings over real HTTP."""

from __future__ import annotations

from tests.emulator_harness import EmulatorHandle

SPECS = "/v1/orgs/org_acme/openapi"
URL = {"url": "https://acme.example/openapi.yaml"}


def test_post_put_versions(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    created = client.post(SPECS, json={"slug": "public-api", "source": URL})
    assert created.status_code == 201 and created.json()["sourceURL"] == URL["url"]
    taken = client.post(SPECS, json={"slug": "public-api", "source": URL})
    assert taken.status_code == 400 and "already exists" in taken.json()["error"]["message"]
    same = client.put(f"{SPECS}/public-api", json={"source": URL})
    assert same.status_code == 200 and same.json()["lastVersion"] == created.json()["lastVersion"]
    changed = client.put(f"{SPECS}/public-api", json={"source": {"text": "openapi: 3.1.0"}})
    assert changed.status_code == 200 and "sourceURL" not in changed.json()
    versions = client.get(f"{SPECS}/public-api/versions").json()["items"]
    assert len(versions) == 2 and versions[0]["id"] == changed.json()["lastVersion"]
    latest = client.get(f"{SPECS}/public-api/versions/latest").json()
    assert latest["id"] == versions[0]["id"]
    old = client.get(f"{SPECS}/public-api/versions/{versions[1]['id']}/content").json()
    assert old["url"] == URL["url"] and old["filesystem"]
    new = client.get(f"{SPECS}/public-api/versions/latest/content").json()
    assert new["filesystem"]["openapi"]["text"] == "openapi: 3.1.0"
    assert client.get(f"{SPECS}/public-api/versions/nope").status_code == 404
    upserted = client.put(f"{SPECS}/internal", json={"source": URL})
    assert upserted.status_code == 201
    assert [s["slug"] for s in client.get(SPECS).json()["items"]] == ["public-api", "internal"]
    assert client.patch(f"{SPECS}/internal", json={"visibility": "public"}).json()[
        "visibility"
    ] == ("public")
    assert client.delete(f"{SPECS}/internal").status_code == 205
    assert client.delete(f"{SPECS}/internal").status_code == 204
    assert client.get(f"{SPECS}/internal").status_code == 404
    assert client.get(f"{SPECS}/internal/versions/latest").status_code == 404


def test_openapi_limits(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    assert client.post(SPECS, json={"slug": "a" * 100, "source": URL}).status_code == 201
    long_url = {"url": "https://acme.example/" + "p" * 2027}
    assert client.post(SPECS, json={"slug": "b", "source": long_url}).status_code == 201
    cases = [
        ({"slug": "a" * 101, "source": URL}, "slug"),
        ({"slug": "", "source": URL}, "slug"),
        ({"slug": "Public", "source": URL}, "slug"),
        ({"slug": "two--dashes", "source": URL}, "slug"),
        ({"slug": "c"}, "source"),
        ({"slug": "c", "source": {}}, "source"),
        ({"slug": "c", "source": {"url": "https://a.example/" + "p" * 2031}}, "source.url"),
        ({"slug": "c", "source": {"url": "ftp:nope"}}, "source.url"),
        ({"slug": "c", "source": {"text": ""}}, "source.text"),
        ({"slug": "c", "source": {"url": "https://a.example", "text": "x"}}, "source"),
    ]
    for body, field in cases:
        response = client.post(SPECS, json=body)
        assert response.status_code == 400, body
        assert response.json()["error"]["message"].startswith(f"{field}:"), response.text
    assert client.put(f"{SPECS}/Bad_Slug", json={"source": URL}).status_code == 400
    assert client.get(SPECS).json()["count"] == 2
    assert emulator.client("tok_lin").post(
        SPECS, json={"slug": "x", "source": URL}
    ).status_code == (403)


def test_translations(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    base = "/v1/orgs/org_acme/translations"
    created = client.post(base, json={"title": "French"})
    assert created.status_code == 201 and created.json()["object"] == "translation-settings"
    tid = created.json()["id"]
    assert client.put(f"{base}/{tid}", json={"title": "Français"}).json()["title"] == "Français"
    assert [t["title"] for t in client.get(base).json()["items"]] == ["Français"]
    for body in (
        {},
        {"title": ""},
        {"title": "x" * 101},
        {"title": 1},
    ):
        assert client.post(base, json=body).status_code == 400, body
    assert client.post(base, json={"title": "x" * 100}).status_code == 201
    assert client.get(f"{base}/nope").status_code == 404
    assert client.put(f"{base}/nope", json={"title": "x"}).status_code == 404
    assert emulator.client("tok_kim").delete(f"{base}/{tid}").status_code == 403
    assert client.delete(f"{base}/{tid}").status_code == 205
    assert client.delete(f"{base}/{tid}").status_code == 204
