"""Production's space templates, from the seed's `spaceTemplates:` (docs/emulator.md, Seed):
what a template is (`check_templates`, `insert_templates`) and which one a body names (`named`).

A template is production's SpaceTemplate as far as the emulator can hold it: an id, a title, an
optional subtitle and emoji, and an optional OpenAPI spec created with it (`openAPISpec: {slug,
sourceURL}`); the emulator holds no page content, so applying one gives a new space its title
and provisions that spec (routes/content/spaces.py). Production's ApplySpaceTemplate (`{id,
params?}`) names one; its `params` (content references) are taken as declared and point at
nothing here.

Row (id / org / parent): space-template (its id / - / -): no organization owns one.
"""

from __future__ import annotations

import re
from typing import Any

from docsync.emulator.errors import SeedError, bad_request, not_found
from docsync.emulator.store import Row, Tx
from docsync.emulator.validate import URL_PATTERN, Fields

KIND = "space-template"
#: production's OpenAPISpecSlug, lowercase (the API description's), so valid in both modes
SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
_OPTIONAL = ("subtitle", "emoji")


def check_templates(entries: list[dict[str, Any]], origin: str) -> None:
    """Raise SeedError for the first template out of shape or listed twice."""
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        where = f"{origin}: spaceTemplates[{i}]"
        for key in ("id", "title"):
            if not isinstance(entry.get(key), str) or not entry[key]:
                raise SeedError(f"{where}: {key} is required and must be a non-empty string")
        if entry["id"] in seen:
            raise SeedError(f"{where}: template {entry['id']!r} is listed twice")
        seen.add(entry["id"])
        for key in _OPTIONAL:
            if key in entry and not isinstance(entry[key], str):
                raise SeedError(f"{where}: {key} must be a string")
        spec = entry.get("openAPISpec")
        if spec is not None:
            _check_spec(spec, f"{where}.openAPISpec")


def _check_spec(spec: Any, where: str) -> None:
    if not isinstance(spec, dict):
        raise SeedError(f"{where}: must be a mapping {{slug, sourceURL}}")
    for key, pattern in (("slug", SLUG_PATTERN), ("sourceURL", URL_PATTERN)):
        value = spec.get(key)
        if not isinstance(value, str) or not re.search(pattern, value):
            raise SeedError(f"{where}.{key}: must match {pattern}")


def insert_templates(tx: Tx, entries: list[dict[str, Any]]) -> None:
    for entry in entries:
        tx.insert(KIND, entry["id"], dict(entry))


def named(tx: Tx, value: Any, where: str = "template.", site_scoped: bool = False) -> Row | None:
    """The template an ApplySpaceTemplate `{id, params?}` names (None for no value), its fields
    named after `where`; 404 for an id the seed does not name. `site_scoped`: production's site
    operations refuse a template that provisions an organization's resource (its OpenAPI spec),
    a 400."""
    if value is None:
        return None
    template = Fields(value, ("id", "params"), where)
    ident = template.string("id", required=True)
    _check_params(template, where)
    row = tx.get_row(KIND, str(ident))
    if row is None:
        raise not_found(f"{where}id: no space template {ident!r}")
    if site_scoped and row.data.get("openAPISpec"):
        raise bad_request(
            f"{where}id: {ident!r} provisions an OpenAPI specification, which this site-scoped "
            "operation does not support (create the space from it first)"
        )
    return row


def _check_params(template: Fields, where: str) -> None:
    """Production's SpaceTemplateParams: `{contentRefs?: {name: a content reference}}`."""
    found = template.obj("params")
    if found is not None:
        refs = Fields(found, ("contentRefs",), f"{where}params.").obj("contentRefs") or {}
        for name, ref in refs.items():
            if not isinstance(ref, dict):
                raise bad_request(f"{where}params.contentRefs.{name}: must be an object")
