"""A site's structure written as production's `gitbook-docs.yaml` (`docsync export --site TITLE
--format gitbook-docs`) is valid against production's `GitSyncSiteConfig`, checked by
jsonschema against the component of production's document, for every shape a structure read
takes: sections (a group, a group in a group, links at the root and in a group), root site
spaces; keys unique across the file, whatever the titles and paths repeat."""

from __future__ import annotations

from typing import Any

import pytest

from docsync.kinds.sites.gitbook_docs import site_config
from tests.contract.checker import Contract
from tests.contract.document import require_spec

CONFIG = "/components/schemas/GitSyncSiteConfig"


def _space(path: str, title: str, **extra: Any) -> dict[str, Any]:
    space = {"id": f"sp_{path}", "title": title, **extra.pop("space", {})}
    return {"object": "site-space", "id": f"ss_{path}", "path": path, "space": space, **extra}


def _section(path: str, title: str, *spaces: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "object": "site-section",
        "id": f"sec_{path}",
        "title": title,
        "path": path,
        "draft": False,
        "siteSpaces": list(spaces),
        **extra,
    }


def _link(title: str, url: str, **extra: Any) -> dict[str, Any]:
    return {"object": "site-external-link", "id": f"l_{title}", "title": title, "url": url, **extra}


def _group(title: str, *children: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "object": "site-section-group",
        "id": f"g_{title}",
        "title": title,
        "draft": False,
        "sections": [c for c in children if c["object"] == "site-section"],
        "children": list(children),
        **extra,
    }


GUIDES = _section(
    "guides",
    "Guides",
    _space("latest", "Guides", default=True, space={"language": "en"}),
    _space("v1", "Guides v1", hidden=True, condition="visitor.claims.beta"),
    default=True,
    icon="book",
    description="How to",
)
STRUCTURES = {
    "sections, a group in a group, links": {
        "type": "sections",
        "structure": [
            GUIDES,
            _group(
                "Learn",
                _section("api", "API", _space("reference", "API Reference", default=True)),
                _group("More", _section("ops", "Operations", _space("run", "Runbooks"))),
                _link("Forum", "https://forum.acme.example", draft=True),
                icon="graduation-cap",
            ),
            _link("Status", "https://status.acme.example", description="Uptime"),
        ],
    },
    "root site spaces": {
        "type": "siteSpaces",
        "structure": [_space("handbook", "Handbook", default=True), _space("faq", "FAQ")],
    },
    "titles and paths that repeat": {
        "type": "sections",
        "structure": [
            GUIDES,
            {**GUIDES, "id": "sec_2", "default": False},
            _group("Learn"),
            _group("Learn"),
        ],
    },
    "nothing yet": {"type": "sections", "structure": []},
}


@pytest.fixture(scope="module")
def contract() -> Contract:
    return Contract(require_spec(), fast=False)  # jsonschema, the reference validator


def _keys(nodes: list[dict[str, Any]]) -> list[str]:
    return [k for n in nodes for k in (n["key"], *_keys(n.get("children") or []))]


@pytest.mark.parametrize("name", STRUCTURES)
def test_the_file_is_valid_against_production_schema(contract: Contract, name: str) -> None:
    config = site_config("Developer Docs", STRUCTURES[name])
    errors = contract._validate(CONFIG, config)
    assert errors == [], [f"{list(e.absolute_path)}: {e.message}" for e in errors]
    keys = _keys(config["site"]["structure"])
    assert len(keys) == len(set(keys))


def test_each_node_keeps_what_production_file_holds() -> None:
    config = site_config("Developer Docs", STRUCTURES["sections, a group in a group, links"])
    guides, learn, status = config["site"]["structure"]
    assert guides == {
        "type": "section",
        "key": "section-guides",
        "title": "Guides",
        "path": "guides",
        "default": True,
        "description": "How to",
        "icon": "book",
        "children": [
            {
                "type": "space",
                "key": "space-guides-latest",
                "title": "Guides",
                "path": "latest",
                "default": True,
                "content": {"directory": "./guides/latest", "language": "en"},
            },
            {
                "type": "space",
                "key": "space-guides-v1",
                "title": "Guides v1",
                "path": "v1",
                "hidden": True,
                "condition": "visitor.claims.beta",
                "content": {"directory": "./guides/v1"},
            },
        ],
    }
    assert [n["type"] for n in learn["children"]] == ["section", "section-group", "external-link"]
    assert learn["children"][2]["draft"] is True
    assert status == {
        "type": "external-link",
        "key": "link-status",
        "title": "Status",
        "url": "https://status.acme.example",
        "description": "Uptime",
    }


def test_a_site_of_root_spaces_lists_them_at_the_top() -> None:
    config = site_config("Handbook", STRUCTURES["root site spaces"])
    assert [(n["type"], n["content"]["directory"]) for n in config["site"]["structure"]] == [
        ("space", "./handbook"),
        ("space", "./faq"),
    ]
