"""Organizations and members over real HTTP: visibility, settings, role filters, sorting."""

from __future__ import annotations

from tests.contract.answers import check_response
from tests.emulator_harness import EmulatorHandle

ACME = "/v1/orgs/org_acme"


def test_orgs_lists_only_the_callers_organizations(emulator: EmulatorHandle) -> None:
    orgs = emulator.client().get("/v1/orgs").json()
    assert [o["id"] for o in orgs["items"]] == ["org_acme"] and orgs["count"] == 1
    other = emulator.client("tok_olga").get("/v1/orgs").json()["items"]
    assert [o["id"] for o in other] == ["org_other"]
    assert emulator.client().get("/v1/orgs/org_other").status_code == 404
    acme = emulator.client().get(ACME).json()
    assert acme["title"] == "Acme" and acme["emailDomains"] == ["acme.example"]
    assert acme["permissions"]["admin"] is True
    assert emulator.client("tok_sam").get(ACME).json()["permissions"]["admin"] is False


def test_patch_settings(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    body = {
        "title": "Acme Inc",
        "defaultRole": "read",
        "inviteLinks": True,
        "emailDomains": ["acme.example", "acme.test"],
        "hostname": "acme-docs",
        "sso": True,
        "ai": False,
        "logo": "https://acme.example/logo.png",
    }
    patched = client.patch(ACME, json=body)
    assert patched.status_code == 200, patched.text
    again = client.get(ACME).json()
    for key, value in body.items():
        if key != "logo":
            assert again[key] == value, key
    assert again["urls"]["logo"] == body["logo"]
    assert client.patch(ACME, json={"defaultRole": None}).json()["defaultRole"] is None


def test_patch_limits_and_references(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    cases = {
        "title": ["A", "x" * 256, 5],
        "hostname": ["ab", "x" * 33],
        "defaultRole": ["owner", 3],
        "inviteLinks": ["yes"],
        "emailDomains": ["acme.example", [1]],
        "defaultContent": [{"type": "space", "site": "x"}, "x"],
        "logo": ["not a url"],
    }
    for field, values in cases.items():
        for value in values:
            response = client.patch(ACME, json={field: value})
            assert response.status_code == 400, (field, value)
            assert response.json()["error"]["message"].startswith(field), response.text
    assert client.patch(ACME, json={"title": "x" * 255}).status_code == 200
    unknown = client.patch(ACME, json={"defaultContent": {"type": "site", "site": "nope"}})
    assert unknown.status_code == 404
    assert unknown.json()["error"]["message"].startswith("defaultContent.site: no site 'nope'")
    # OrganizationHostname is a length only (3-32), in the description and in production
    assert client.patch(ACME, json={"hostname": "Bad_Host"}).json()["hostname"] == "Bad_Host"
    assert client.patch(ACME, json={"plan": "pro"}).json()["plan"] == "free_2024"  # ignored
    assert client.patch(ACME, json={"defaultContent": None}).status_code == 200
    assert client.get(ACME).json()["title"] == "x" * 255


def test_org_settings_need_admin(emulator: EmulatorHandle) -> None:
    for token in ("tok_kim", "tok_lin", "tok_sam", "tok_guest"):
        response = emulator.client(token).patch(ACME, json={"title": "Mine"})
        assert response.status_code == 403
        assert response.json()["error"]["code"] == 403
    assert emulator.client("tok_olga").patch(ACME, json={"title": "Mine"}).status_code == 404
    assert emulator.client().get(ACME).json()["title"] == "Acme"


def _ids(emulator: EmulatorHandle, **params: str) -> list[str]:
    response = emulator.client().get(f"{ACME}/members", params=params)
    assert response.status_code == 200, response.text
    return [m["id"] for m in response.json()["items"]]


def test_member_filters_and_sorting(emulator: EmulatorHandle) -> None:
    assert sorted(_ids(emulator)) == ["u_ada", "u_guest", "u_kim", "u_lin", "u_sam"]
    assert _ids(emulator, role="guest") == ["u_guest"]
    assert _ids(emulator, role="edit") == ["u_lin"]
    assert _ids(emulator, search="PARTNER") == ["u_guest"]
    assert _ids(emulator, search="li") == ["u_lin"]
    assert _ids(emulator, sort="name", order="asc") == [
        "u_ada",
        "u_guest",
        "u_kim",
        "u_lin",
        "u_sam",
    ]
    assert _ids(emulator, sort="name") == ["u_sam", "u_lin", "u_kim", "u_guest", "u_ada"]
    assert len(_ids(emulator, sort="lastSeenAt")) == 5
    for params in ({"role": "owner"}, {"sort": "email"}, {"order": "up"}):
        response = emulator.client().get(f"{ACME}/members", params=params)
        assert response.status_code == 400 and next(iter(params)) in response.text


def test_member_get_patch_sso_delete(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    lin = client.get(f"{ACME}/members/u_lin").json()
    assert lin["role"] == "edit" and lin["user"]["email"] == "lin@acme.example"
    assert "token" not in str(lin)
    assert client.patch(f"{ACME}/members/u_lin", json={"role": None}).json()["role"] is None
    assert client.patch(f"{ACME}/members/u_lin", json={"role": "admin"}).json()["role"] == "admin"
    assert client.patch(f"{ACME}/members/u_lin", json={"role": "boss"}).status_code == 400
    assert client.post(f"{ACME}/members/u_lin/sso").json()["sso"] is True
    team = client.put(f"{ACME}/teams", json={"title": "T", "members": ["u_sam"]}).json()
    assert client.delete(f"{ACME}/members/u_sam").status_code == 204  # docs-platform-api.md §4.12
    assert client.delete(f"{ACME}/members/u_sam").status_code == 204
    assert client.get(f"{ACME}/members/u_sam").status_code == 404
    assert client.get(f"{ACME}/teams/{team['id']}").json()["members"] == 0
    assert emulator.client("tok_sam").get(ACME).status_code == 404
    assert client.get(f"{ACME}/members/u_olga").status_code == 404
    assert client.post(f"{ACME}/members", json={"user": "u_x"}).status_code == 405


def test_last_admin_cannot_be_removed(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    response = client.patch(f"{ACME}/members/u_ada", json={"role": "read"})
    assert response.status_code == 409 and "last admin" in response.json()["error"]["message"]
    assert client.delete(f"{ACME}/members/u_ada").status_code == 409


def test_member_writes_need_admin(emulator: EmulatorHandle) -> None:
    kim = emulator.client("tok_kim")
    assert kim.get(f"{ACME}/members").status_code == 200
    assert kim.patch(f"{ACME}/members/u_sam", json={"role": "admin"}).status_code == 403
    assert kim.delete(f"{ACME}/members/u_sam").status_code == 403
    assert kim.post(f"{ACME}/members/u_sam/sso").status_code == 403


def test_user_is_the_tokens_own(emulator: EmulatorHandle) -> None:
    """`GET /v1/user` (production's getAuthenticatedUser) says who holds the token."""
    with emulator.client("tok_lin") as client:
        answer = client.get("/v1/user")
    assert answer.status_code == 200
    assert answer.json()["id"] == "u_lin" and answer.json()["email"] == "lin@acme.example"
    assert "token" not in answer.json()
    check_response("GET", "/user", answer)
    with emulator.client("tok_nobody") as client:
        assert client.get("/v1/user").status_code == 401
