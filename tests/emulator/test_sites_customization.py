"""A site's customization over real HTTP: production's defaults on a new site, the whole object
round-tripping through PUT, PUT replacing everything (required groups refused when missing),
values checked by path, and the published-content answer carrying what was written."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.emulator.test_sites_kit import SitesKit
from tests.emulator_harness import EmulatorHandle


def _site(kit: SitesKit) -> tuple[str, str]:
    site = kit.create_site(title="Docs")["id"]
    return site, kit.url(site, "customization")


def test_defaults_round_trip_and_replace(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site, url = _site(kit)
    first = kit.ok(kit.client.get(url))
    assert first["styling"]["primaryColor"] == {"light": "#346DDB", "dark": "#346DDB"}
    assert "updatedAt" not in first
    same = kit.ok(kit.client.put(url, json=first))
    assert {k: v for k, v in same.items() if k != "updatedAt"} == first and same["updatedAt"]
    changed = copy.deepcopy(first)
    changed["styling"]["primaryColor"]["light"] = "#0B5FFF"
    changed["trademark"] = {"enabled": False}
    changed["announcement"] = {"enabled": True, "message": "Hello", "style": "info"}
    kit.ok(kit.client.put(url, json=changed))
    now = kit.ok(kit.client.get(url))
    assert now["styling"]["primaryColor"]["light"] == "#0B5FFF"
    assert now["trademark"] == {"enabled": False} and now["announcement"]["message"] == "Hello"
    # PUT replaces: the announcement left out is gone.
    kit.ok(kit.client.put(url, json=first))
    assert "announcement" not in kit.ok(kit.client.get(url))
    changed.pop("announcement")
    kit.ok(kit.client.put(url, json=changed))
    published = kit.ok(kit.client.get(kit.url(site, "published")))
    assert published["customizations"]["site"]["trademark"] == {"enabled": False}


def _broken(base: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    body = copy.deepcopy(base)
    *parents, last = path.split(".")
    target = body
    for part in parents:
        target = target[part]
    if value is KeyError:
        del target[last]
    else:
        target[last] = value
    return body


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("trademark", KeyError, "trademark: is required"),
        ("styling.corners", KeyError, "styling.corners: is required"),
        ("styling.primaryColor.light", "blue", "styling.primaryColor.light:"),
        ("styling.theme", "neon", "styling.theme: must be one of"),
        ("styling.codeTheme.default.dark", "nope", "styling.codeTheme.default.dark:"),
        ("styling.sidebar.list", "zigzag", "styling.sidebar.list: must be one of"),
        ("feedback.enabled", "yes", "feedback.enabled: must be true or false"),
        ("themes.default", "dim", "themes.default: must be one of"),
        ("socialAccounts", {}, "socialAccounts: must be an array"),
        (
            "socialAccounts",
            [{"platform": "myspace", "handle": "acme", "display": {"footer": True}}],
            "socialAccounts[0].platform: must be one of",
        ),
        ("header.links", [{"title": "Docs", "links": []}], "header.links[0].to: is required"),
        (
            "header.links",
            [{"title": "Docs", "links": [], "to": {"kind": "nope"}}],
            "header.links[0].to: must be a content reference",
        ),
        (
            "footer.groups",
            [{"title": "More", "links": [{"title": "Blog", "to": {"kind": "page"}}]}],
            "footer.groups[0].links[0].to: must be a content reference {kind, ...} "
            "(footer.groups[0].links[0].to.page: is required)",
        ),
        (
            "favicon",
            {"emoji": "x", "icon": {"light": "https://a.example", "dark": "https://b.example"}},
            "favicon: must be {icon: {light, dark}}, {emoji} or {}, only one",
        ),
        ("styling.font", {"id": "brand"}, "styling.font: must be a font name or a font def"),
        ("privacyPolicy", {"url": "not a url"}, "privacyPolicy.url: must match"),
        ("ai.suggestions", ["Why?"] * 6, "ai.suggestions: must have at most 5 items"),
    ],
)
def test_refusals_name_the_path(
    emulator: EmulatorHandle, path: str, value: Any, message: str
) -> None:
    kit = SitesKit(emulator)
    _, url = _site(kit)
    first = kit.ok(kit.client.get(url))
    answer = kit.client.put(url, json=_broken(first, path, value))
    assert answer.status_code == 400 and message in answer.json()["error"]["message"], answer.text


def test_site_space_override_effective_null_delete(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    one = kit.add_site_space(site, "space_api")["id"]
    two = kit.add_site_space(site, "space_faq")["id"]
    url = kit.url(site, "site-spaces", one, "customization")
    site_url = kit.url(site, "customization")
    inherited = kit.ok(kit.client.get(site_url))
    assert kit.ok(kit.client.get(url)) == inherited  # nothing overridden: the site's settings
    assert kit.ok(kit.client.delete(url), 204) is None  # no override to delete
    body = {"styling": {"theme": "bold", "primaryColor": {"light": "#0B5FFF", "dark": "#111"}}}
    answer = kit.ok(kit.client.patch(url, json=body | {"trademark": {"enabled": False}}))
    assert answer["styling"]["theme"] == "bold" and answer["trademark"] == {"enabled": False}
    assert answer["styling"]["corners"] == inherited["styling"]["corners"]
    # The site's own changes show through where the site space does not override.
    changed = copy.deepcopy(inherited)
    changed["styling"]["corners"] = "straight"
    changed["styling"]["theme"] = "muted"
    kit.ok(kit.client.put(site_url, json=changed))
    now = kit.ok(kit.client.get(url))
    assert now["styling"]["corners"] == "straight" and now["styling"]["theme"] == "bold"
    assert (
        kit.ok(kit.client.get(kit.url(site, "site-spaces", two, "customization")))["styling"][
            "theme"
        ]
        == "muted"
    )
    # null clears one field's override; the rest stays.
    now = kit.ok(kit.client.patch(url, json={"styling": {"theme": None}}))
    assert now["styling"]["theme"] == "muted" and now["trademark"] == {"enabled": False}
    published = kit.ok(kit.client.get(kit.url(site, "published")))
    assert published["customizations"]["siteSpaces"][one]["trademark"] == {"enabled": False}
    # A field production does not override is ignored, as production ignores it.
    ignored = kit.ok(kit.client.patch(url, json={"ai": {"mode": "assistant"}}))
    assert ignored["ai"] == inherited["ai"]
    # Refused: a bad value, null where an object is due.
    for bad, says in (
        ({"styling": {"theme": "loud"}}, "styling.theme"),
        ({"styling": {"sidebar": None}}, "styling.sidebar"),
    ):
        refused = kit.client.patch(url, json=bad)
        assert refused.status_code == 400 and says in refused.text, refused.text
    assert kit.ok(kit.client.delete(url), 205) is None
    assert kit.ok(kit.client.get(url))["trademark"] == changed["trademark"]
    # The override goes with its site space.
    kit.ok(kit.client.patch(url, json={"trademark": {"enabled": False}}))
    assert kit.ok(kit.client.delete(kit.url(site, "site-spaces", one)), 205) is None
    assert kit.client.get(url).status_code == 404


RICH: dict[str, Any] = {
    "header": {
        "preset": "default",
        "links": [
            {
                "title": "Guides",
                "to": {"kind": "space", "space": "space_guides"},
                "links": [{"title": "API", "to": {"kind": "url", "url": "https://api.example"}}],
                "style": "button-primary",
                "condition": "visitor.beta",
            },
            {"title": "Menu", "to": None, "links": []},
        ],
    },
    "footer": {
        "groups": [
            {
                "title": "More",
                "links": [{"title": "Spec", "to": {"kind": "openapi", "spec": "pets"}}],
            }
        ],
        "copyright": "Acme",
    },
    "favicon": {"emoji": "📘"},
    "socialAccounts": [
        {"platform": "github", "handle": "acme", "display": {"footer": True, "header": False}}
    ],
    "ai": {"mode": "assistant", "greeting": "Hi", "suggestions": ["How do I start?"]},
}


def test_every_group_production_declares_round_trips(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    _, url = _site(kit)
    body = kit.ok(kit.client.get(url)) | RICH
    body["styling"]["font"] = {
        "id": "brand",
        "custom": True,
        "fontFamily": "Brand Sans",
        "fontFaces": [{"weight": 400, "sources": [{"url": "https://fonts.example/b.woff2"}]}],
    }
    body["styling"]["headingFont"] = None
    stored = kit.ok(kit.client.put(url, json=body))
    assert {k: v for k, v in stored.items() if k != "updatedAt"} == body
    assert kit.ok(kit.client.get(url, params={"unmasked": "true"})) == stored
    refused = kit.client.get(url, params={"unmasked": "1"})
    assert refused.status_code == 400 and "unmasked" in refused.text


def test_an_override_of_one_sidebar_field_keeps_the_other(emulator: EmulatorHandle) -> None:
    kit = SitesKit(emulator)
    site = kit.create_site(title="Docs")["id"]
    one = kit.add_site_space(site, "space_api")["id"]
    url = kit.url(site, "site-spaces", one, "customization")
    body = {"styling": {"sidebar": {"list": "pill"}}, "header": {"links": RICH["header"]["links"]}}
    effective = kit.ok(kit.client.patch(url, json=body))
    assert effective["styling"]["sidebar"] == {"background": "default", "list": "pill"}
    assert effective["header"] == {"preset": "default", "links": RICH["header"]["links"]}
    cleared = kit.ok(kit.client.patch(url, json={"styling": {"sidebar": {"list": None}}}))
    assert cleared["styling"]["sidebar"] == {"background": "default", "list": "default"}
    refused = kit.client.patch(url, json={"feedback": {}})
    assert refused.status_code == 400 and "feedback.enabled: is required" in refused.text
