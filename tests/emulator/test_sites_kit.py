"""Helpers of the sites tests (no tests here): a seed with spaces and a client that asserts.

`SitesKit(emulator)` resets the emulator to the example seed plus a few spaces and offers short
calls for the sites routes, each asserting the expected success status.
"""

from __future__ import annotations

from typing import Any

import httpx
import yaml

from tests.emulator_harness import SEED, EmulatorHandle

ORG = "org_acme"
SITES = f"/v1/orgs/{ORG}/sites"
SPACES = {
    "space_guides": "Guides",
    "space_api": "API Reference",
    "space_notes": "Old Notes",
    "space_faq": "FAQ",
    "space_x": "X",
}


def sites_seed() -> dict[str, Any]:
    """The example seed plus the spaces of SPACES in org_acme and one in org_other."""
    seed: dict[str, Any] = yaml.safe_load(SEED.read_text("utf-8"))
    seed["spaces"] += [
        {"id": sid, "organization": ORG, "title": title} for sid, title in SPACES.items()
    ]
    seed["spaces"].append({"id": "space_other", "organization": "org_other", "title": "Other"})
    return seed


class SitesKit:
    """A reset emulator and a client (as `token`) with shortcuts for the sites routes."""

    def __init__(self, emulator: EmulatorHandle, token: str = "tok_ada") -> None:
        emulator.reset(sites_seed())
        self.emulator = emulator
        self.client = emulator.client(token)

    def url(self, site: str | None = None, *parts: str) -> str:
        """`/v1/orgs/org_acme/sites[/site[/part...]]`."""
        return "/".join([SITES, *([site] if site else []), *parts])

    def ok(self, response: httpx.Response, status: int = 200) -> Any:
        """The JSON body after asserting the status (with the body in the failure message)."""
        assert response.status_code == status, f"{response.status_code}: {response.text}"
        return response.json() if response.content else None

    def create_site(self, **body: Any) -> Any:
        """POST a site; its JSON."""
        return self.ok(self.client.post(self.url(), json=body), 201)

    def add_section(self, site: str, space: str, **body: Any) -> Any:
        """POST a section backed by `space`; its JSON."""
        response = self.client.post(self.url(site, "sections"), json={"spaceId": space, **body})
        return self.ok(response, 201)

    def add_site_space(self, site: str, space: str, section: str | None = None) -> Any:
        """POST a site space (to `section`, or where the API puts it); its JSON."""
        body = {"spaceId": space, **({"sectionId": section} if section else {})}
        return self.ok(self.client.post(self.url(site, "site-spaces"), json=body), 201)

    def add_group(self, site: str, title: str, sections: list[str] | None = None) -> Any:
        """POST a section group; its JSON."""
        body: dict[str, Any] = {"title": title}
        if sections is not None:
            body["sections"] = sections
        return self.ok(self.client.post(self.url(site, "section-groups"), json=body), 201)

    def structure(self, site: str) -> Any:
        """GET .../structure."""
        return self.ok(self.client.get(self.url(site, "structure")))

    def site_spaces(self, site: str, **params: Any) -> list[Any]:
        """Every site space (one page of 1000)."""
        response = self.client.get(self.url(site, "site-spaces"), params={"limit": 1000, **params})
        items: list[Any] = self.ok(response)["items"]
        return items

    def outline(self, site: str) -> list[Any]:
        """The structure as titles and paths: `[title, [paths]]` per section, `[group, [...]]`.

        A site without sections gives its root site space paths; a default is marked with `*`.
        """
        found = self.structure(site)
        if found["type"] == "siteSpaces":
            return [_mark(ss, ss["path"]) for ss in found["structure"]]
        return [_outline_item(item) for item in found["structure"]]


def _mark(item: dict[str, Any], text: str) -> str:
    return f"{text}*" if item.get("default") else text


def _outline_item(item: dict[str, Any]) -> list[Any]:
    if item["object"] == "site-external-link":
        return [f"link:{item['title']}", []]
    if item["object"] == "site-section-group":
        return [f"group:{item['title']}", [_outline_item(s) for s in item["children"]]]
    return [_mark(item, item["title"]), [_mark(ss, ss["path"]) for ss in item["siteSpaces"]]]
