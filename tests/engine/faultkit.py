"""What a fault test checks after the dust settles: no natural key is held twice."""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx

from tests.emulator_harness import EmulatorHandle

ORG = "/v1/orgs/org_acme"


def listed(client: httpx.Client, path: str) -> list[dict[str, Any]]:
    answer = client.get(path, params={"limit": 1000})
    answer.raise_for_status()
    items: list[dict[str, Any]] = answer.json()["items"]
    return items


def duplicates(emulator: EmulatorHandle) -> list[str]:
    """Natural keys held by more than one live resource, as `kind key` lines."""
    found: list[str] = []

    def check(kind: str, keys: list[Any]) -> None:
        found.extend(f"{kind} {key!r} x{n}" for key, n in Counter(keys).items() if n > 1)

    with emulator.client() as client:
        for kind, key in (
            ("teams", "title"),
            ("saml", "label"),
            ("collections", "title"),
            ("openapi", "slug"),
        ):
            check(kind, [item[key] for item in listed(client, f"{ORG}/{kind}")])
        translations = listed(client, f"{ORG}/translations")
        check("translations", [_translation(t) for t in translations])
        check("spaces", [item["title"] for item in listed(client, f"{ORG}/spaces")])
        for site in listed(client, f"{ORG}/sites"):
            base = f"{ORG}/sites/{site['id']}"
            structure = client.get(f"{base}/structure").json()
            links = [link.get("name") for link in listed(client, f"{base}/share-links")]
            check(f"{site['title']} share link", links)
            sources = [r.get("source") for r in listed(client, f"{base}/redirects")]
            check(f"{site['title']} redirect", sources)
            sections, groups, root_spaces = [], [], []
            root_links = []
            for item in structure.get("structure") or []:
                kind = item.get("object")
                if kind == "site-external-link":
                    root_links.append(item.get("title"))
                if kind == "site-section-group":
                    inside = [c for c in item.get("children") or [] if isinstance(c, dict)]
                    grouped = [
                        c.get("title") for c in inside if c.get("object") == "site-external-link"
                    ]
                    check(f"{site['title']}/{item.get('title')} link", grouped)
                inner = item.get("sections") or [] if kind == "site-section-group" else [item]
                if kind == "site-section-group":
                    groups.append(item.get("title"))
                if kind == "site-space":
                    root_spaces.append(item.get("path"))
                for section in inner:
                    if section.get("object") != "site-section":
                        continue
                    sections.append(section.get("title"))
                    paths = [s.get("path") for s in section.get("siteSpaces") or []]
                    check(f"{site['title']}/{section.get('title')} site space", paths)
            check(f"{site['title']} section", sections)
            check(f"{site['title']} link", root_links)
            check(f"{site['title']} section group", groups)
            check(f"{site['title']} site space", root_spaces)
        check("site", [site["title"] for site in listed(client, f"{ORG}/sites")])
    return found


def _translation(item: dict[str, Any]) -> str:
    source = item.get("source") or {}
    return str(item.get("title") or f"{source.get('space')}:{item.get('language')}")
