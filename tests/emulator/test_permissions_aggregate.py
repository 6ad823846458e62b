"""Who can access a collection, space or site (`.../permissions/aggregate`) over real HTTP: the
organization role, default levels and grants combined, a site's origins and filters, content
inheriting its collections' grants, site grants overriding where content grants add."""

from __future__ import annotations

from tests.emulator.test_permissions import ORG, Target, make, target, team
from tests.emulator_harness import EmulatorHandle

__all__ = ["target"]  # the fixture: each test of a Target runs on the three kinds of resource


def test_aggregate_combines_organization_role_default_level_and_grants(target: Target) -> None:
    writers = team(target.client, "Writers", ["u_lin"])
    target.invite(role="admin", teams=[writers])
    target.invite(role="comment", users=["u_guest", "u_sam"])
    everyone = {
        "u_ada": "admin",  # organization admin
        "u_lin": "admin",  # through Writers
        "u_sam": "comment",  # the grant is above the organization role read
        "u_kim": "create",  # organization role
        "u_guest": "comment",  # a guest reaches it through the grant only
    }
    assert target.aggregate() == everyone
    assert target.aggregate(role="comment") == {"u_sam": "comment", "u_guest": "comment"}
    patch = target.client.patch(target.url, json={"defaultLevel": None})
    assert patch.status_code == 200, patch.text
    closed = {"u_ada": "admin", "u_lin": "admin", "u_sam": "comment", "u_guest": "comment"}
    if target.kind == "site":  # a site's aggregate lists every member, null without access
        assert target.aggregate() == {**closed, "u_kim": None}
        assert target.aggregate(role="guest") == {"u_kim": None}
    else:
        assert target.aggregate() == closed
    assert target.client.get(f"{target.grants}/aggregate", params={"role": "x"}).status_code == 400


def test_site_aggregate_origins_and_filters(emulator: EmulatorHandle) -> None:
    site = make(emulator.client(), "site")
    writers = team(site.client, "Writers", ["u_lin", "u_sam"])
    site.invite(role="admin", teams=[writers])
    site.invite(role="review", users=["u_kim"])
    items = site.client.get(f"{site.grants}/aggregate", params={"sort": "name", "order": "asc"})
    body = items.json()
    assert [i["user"]["displayName"] for i in body["items"]] == [
        "Ada",
        "Guest",
        "Kim",
        "Lin",
        "Sam",
    ]
    origins = {i["user"]["id"]: i["origin"] for i in body["items"]}
    site_id = site.url.rsplit("/", 1)[1]
    assert origins["u_ada"] == {"type": "organization", "organization": "org_acme"}
    assert origins["u_lin"] == {"type": "site", "site": site_id, "reason": "team", "team": writers}
    assert origins["u_kim"] == {"type": "site", "site": site_id, "reason": "member"}
    assert site.aggregate(team=writers) == {"u_lin": "admin", "u_sam": "admin"}
    assert site.aggregate(search="KIM") == {"u_kim": "review"}
    unknown = site.client.get(f"{site.grants}/aggregate", params={"team": "t_x"})
    assert unknown.status_code == 404 and unknown.json()["error"]["message"].startswith("team:")


def test_space_inherits_the_grants_of_its_collections(emulator: EmulatorHandle) -> None:
    client = emulator.client()
    outer = make(client, "collection", defaultLevel=None)
    inner_id = client.post(
        f"{ORG}/collections", json={"title": "Inner", "parent": outer.url.rsplit("/", 1)[1]}
    ).json()["id"]
    space = make(client, "space", parent=inner_id)
    outer.invite(role="edit", users=["u_guest"])
    Target("collection", f"/v1/collections/{inner_id}", client).invite(role="read", users=["u_sam"])
    # the space and the inner collection inherit the outer collection's defaultLevel null
    assert space.aggregate() == {"u_ada": "admin", "u_sam": "read", "u_guest": "edit"}
    assert space.listed("users") == {}  # the list shows direct grants only


def test_site_grants_override_content_grants_add(target: Target) -> None:
    readers = team(target.client, "Readers", ["u_kim"])  # u_kim: create in the organization
    target.invite(role="read", teams=[readers])
    assert target.aggregate()["u_kim"] == ("read" if target.kind == "site" else "create")
    target.invite(role="edit", users=["u_kim"])  # the member's own grant decides on a site
    assert target.aggregate()["u_kim"] == ("edit" if target.kind == "site" else "create")
