"""Collections and spaces over real HTTP: CRUD, nesting, moves, soft delete, transfer."""

from __future__ import annotations

from typing import Any

from tests.emulator.test_conformance import two_org_seed
from tests.emulator_harness import EmulatorHandle

ACME = "/v1/orgs/org_acme"


def _post(emulator: EmulatorHandle, path: str, body: dict[str, Any]) -> Any:
    response = emulator.client().post(path, json=body)
    assert response.status_code == 201, response.text
    return response.json()


def _collection(emulator: EmulatorHandle, title: str, parent: str | None = None) -> str:
    body: dict[str, Any] = (
        {"title": title} if parent is None else {"title": title, "parent": parent}
    )
    created: str = _post(emulator, f"{ACME}/collections", body)["id"]
    return created


def _space(emulator: EmulatorHandle, title: str, parent: str | None = None) -> str:
    body: dict[str, Any] = (
        {"title": title} if parent is None else {"title": title, "parent": parent}
    )
    created: str = _post(emulator, f"{ACME}/spaces", body)["id"]
    return created


def _titles(emulator: EmulatorHandle, path: str, **params: str) -> list[str]:
    return [i["title"] for i in emulator.client().get(path, params=params).json()["items"]]


def test_collections_crud_and_nesting(emulator: EmulatorHandle) -> None:
    dev = _collection(emulator, "Developers")
    _collection(emulator, "Internal", dev)
    assert _titles(emulator, f"{ACME}/collections") == ["Developers", "Internal"]
    assert _titles(emulator, f"{ACME}/collections", nested="false") == ["Developers"]
    client = emulator.client()
    patched = client.patch(
        f"/v1/collections/{dev}",
        json={"title": "Devs", "description": "Everything for builders", "defaultLevel": "read"},
    )
    assert patched.status_code == 200
    got = client.get(f"/v1/collections/{dev}").json()
    assert (got["title"], got["description"], got["defaultLevel"]) == (
        "Devs",
        "Everything for builders",
        "read",
    )
    for body in ({"title": "x" * 51}, {"description": "d" * 101}, {"defaultLevel": "boss"}):
        assert client.patch(f"/v1/collections/{dev}", json=body).status_code == 400
    unknown = client.post(f"{ACME}/collections", json={"parent": "nope"})
    assert unknown.status_code == 404 and unknown.json()["error"]["message"].startswith("parent:")
    assert client.get("/v1/collections/nope").status_code == 404


def test_collection_delete_refuses_while_not_empty(emulator: EmulatorHandle) -> None:
    dev = _collection(emulator, "Developers")
    space = _space(emulator, "Guides", dev)
    client = emulator.client()
    refused = client.delete(f"/v1/collections/{dev}")
    assert refused.status_code == 409 and "Guides" in refused.json()["error"]["message"]
    assert client.delete(f"/v1/spaces/{space}").status_code == 205
    assert client.delete(f"/v1/collections/{dev}").status_code == 205
    assert client.delete(f"/v1/collections/{dev}").status_code == 204
    restored = client.post(f"/v1/spaces/{space}/restore").json()
    assert "parent" not in restored


def test_spaces_crud(emulator: EmulatorHandle) -> None:
    dev = _collection(emulator, "Developers")
    space = _post(emulator, f"{ACME}/spaces", {"title": "Guides", "emoji": "1f4d8", "parent": dev})
    assert space["visibility"] == "in-collection" and space["parent"] == dev
    assert _titles(emulator, f"/v1/collections/{dev}/spaces") == ["Guides"]
    assert _titles(emulator, f"{ACME}/spaces") == ["Internal Handbook", "Guides"]
    client = emulator.client()
    url = f"/v1/spaces/{space['id']}"
    patched = client.patch(url, json={"title": "Guide", "editMode": "locked", "defaultLevel": None})
    assert patched.status_code == 200
    assert (patched.json()["editMode"], patched.json()["defaultLevel"]) == ("locked", None)
    for body in (
        {"title": "x" * 51},
        {"editMode": "frozen"},
        {"emoji": 5},
    ):
        response = client.patch(url, json=body)
        assert response.status_code == 400, body
        assert response.json()["error"]["message"].startswith(next(iter(body)))
    unknown = client.post(f"{ACME}/spaces", json={"parent": "nope"})
    assert unknown.status_code == 404 and unknown.json()["error"]["message"].startswith("parent:")
    assert client.get("/v1/spaces/nope").status_code == 404
    assert emulator.client("tok_olga").get(url).status_code == 404


def test_soft_delete_and_restore_window(emulator: EmulatorHandle) -> None:
    space = _space(emulator, "Old Notes")
    client = emulator.client()
    url = f"/v1/spaces/{space}"
    assert client.delete(url).status_code == 205
    assert client.delete(url).status_code == 204
    assert "Old Notes" not in _titles(emulator, f"{ACME}/spaces")
    assert client.get(url).json()["deletedAt"]
    restored = client.post(f"{url}/restore")
    assert restored.status_code == 200 and "deletedAt" not in restored.json()
    again = client.post(f"{url}/restore")  # a retried restore: the space as it is, no refusal
    assert again.status_code == 200 and again.json()["id"] == space
    assert "Old Notes" in _titles(emulator, f"{ACME}/spaces")
    client.delete(url)
    copy = client.post(f"{url}/duplicate")
    # duplicating a space in the bin is a 404 (restore it first), as managing its grants is
    assert copy.status_code == 404 and "restore it" in copy.json()["error"]["message"]
    emulator.advance_clock(6 * 86400)
    assert client.get(url).status_code == 200
    emulator.advance_clock(2 * 86400)
    assert client.get(url).status_code == 404
    assert client.post(f"{url}/restore").status_code == 404


def test_move_spaces_and_collections(emulator: EmulatorHandle) -> None:
    dev = _collection(emulator, "Developers")
    a, b, c = (_space(emulator, t, dev) for t in "ABC")
    client = emulator.client()
    pointer = {"before": {"type": "space", "space": a}}
    assert client.post(f"/v1/spaces/{c}/move", json={"position": pointer}).status_code == 200
    assert _titles(emulator, f"/v1/collections/{dev}/spaces") == ["C", "A", "B"]
    pointer = {"after": {"type": "space", "space": b}}
    assert client.post(f"/v1/spaces/{c}/move", json={"position": pointer}).status_code == 200
    assert _titles(emulator, f"/v1/collections/{dev}/spaces") == ["A", "B", "C"]
    assert client.post(f"/v1/spaces/{a}/move", json={"parent": dev}).status_code == 409
    assert client.post(f"/v1/spaces/{a}/move", json={}).status_code == 400
    # an anchor the target level does not hold names nothing there: 404 naming the side
    elsewhere = {"before": {"type": "space", "space": "space_handbook"}}
    unknown = client.post(f"/v1/spaces/{a}/move", json={"position": elsewhere})
    assert unknown.status_code == 404 and "position.before" in unknown.json()["error"]["message"]
    # production's position takes both sides: the place between two adjacent items, or none
    between = {"after": {"type": "space", "space": b}, "before": {"type": "space", "space": c}}
    assert client.post(f"/v1/spaces/{a}/move", json={"position": between}).status_code == 200
    assert _titles(emulator, f"/v1/collections/{dev}/spaces") == ["B", "A", "C"]
    apart = {"after": {"type": "space", "space": c}, "before": {"type": "space", "space": b}}
    refused = client.post(f"/v1/spaces/{a}/move", json={"position": apart})
    assert refused.status_code == 400 and "adjacent" in refused.json()["error"]["message"]
    # `{}` is production's default place: the end of the level
    assert client.post(f"/v1/spaces/{a}/move", json={"position": {}}).status_code == 200
    assert _titles(emulator, f"/v1/collections/{dev}/spaces") == ["B", "C", "A"]
    moved = client.post(f"/v1/spaces/{a}/move", json={"parent": None})
    assert moved.status_code == 200 and "parent" not in moved.json()
    inner = _collection(emulator, "Inner", dev)
    loop = client.post(f"/v1/collections/{dev}/move", json={"parent": inner})
    assert loop.status_code == 400
    assert client.post(f"/v1/collections/{inner}/move", json={"parent": None}).status_code == 200
    assert _titles(emulator, f"{ACME}/collections", nested="false") == ["Developers", "Inner"]


def test_duplicate_and_transfer(emulator: EmulatorHandle) -> None:
    emulator.reset(two_org_seed())
    dev = _collection(emulator, "Developers")
    space = _space(emulator, "Guides", dev)
    client = emulator.client()
    copy = client.post(f"/v1/spaces/{space}/duplicate")
    assert copy.status_code == 201 and copy.json()["title"] == "Guides (copy)"
    assert copy.json()["parent"] == dev
    moved = client.post(f"/v1/collections/{dev}/transfer", json={"organization": "org_other"})
    assert moved.status_code == 200 and moved.json()["organization"] == "org_other"
    assert client.get(f"/v1/spaces/{space}").json()["organization"] == "org_other"
    assert _titles(emulator, f"{ACME}/spaces") == ["Internal Handbook"]
    again = client.post(f"/v1/collections/{dev}/transfer", json={"organization": "org_other"})
    assert again.status_code == 409
    back = client.post(f"/v1/spaces/{space}/transfer", json={"organization": "org_acme"})
    assert back.status_code == 200 and "parent" not in back.json()
    same = client.post(f"/v1/spaces/{space}/transfer", json={"organization": "org_acme"})
    assert same.status_code == 409 and "would not result in any update" in same.text
    kim = emulator.client("tok_kim")
    no = kim.post("/v1/spaces/space_handbook/transfer", json={"organization": "org_other"})
    assert no.status_code == 403


def test_content_roles(emulator: EmulatorHandle) -> None:
    kim, lin = emulator.client("tok_kim"), emulator.client("tok_lin")
    made = kim.post(f"{ACME}/spaces", json={"title": "Kim's"})
    assert made.status_code == 201
    assert lin.post(f"{ACME}/spaces", json={"title": "Lin's"}).status_code == 403
    assert lin.post(f"{ACME}/collections", json={"title": "Lin's"}).status_code == 403
    assert kim.delete(f"/v1/spaces/{made.json()['id']}").status_code == 403
    assert emulator.client("tok_guest").get(f"{ACME}/spaces").status_code == 200
