"""OpenAPI specs keyed by slug: list, POST, get, PUT upsert, PATCH visibility, DELETE, versions.

A new version is recorded whenever a spec is created or its `source` changes; the emulator
"processes" a source instantly (`processingState` is `complete`).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access, can
from docsync.emulator.body import UPDATE, Body, Choice, Place
from docsync.emulator.errors import bad_request, not_found
from docsync.emulator.http import Ctx, created, new_id, ok
from docsync.emulator.resource import Resource
from docsync.emulator.rules import Entry, Rules
from docsync.emulator.scopes import Within
from docsync.emulator.snapshot import Loading, kept
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import URL_PATTERN, Fields, check_string

# docs-platform-api.md §2.18 (lowercase); the production contract also allows uppercase.
SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
#: production's OpenAPISpecSlug allows capitals (a documented conflict: --contract production)
PRODUCTION_SLUG = r"^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$"
VISIBILITIES = ("private", "public")
BASE = "/v1/orgs/{organizationId}/openapi"
VERSION = "openapi-version"


def _spec_id(org: str, slug: str) -> str:
    return f"{org}/{slug}"


def spec_view(ctx: Ctx, row: Row) -> dict[str, Any]:
    """An `OpenAPISpec`; `sourceURL` only for URL sources, never the text."""
    data, slug = row.data, row.data["slug"]
    body: dict[str, Any] = {
        "object": "openapi-spec",
        "id": data["id"],
        "createdAt": data["createdAt"],
        "updatedAt": data["updatedAt"],
        "slug": slug,
        "processingState": "complete",
        "visibility": data.get("visibility", "private"),
        "lastVersion": data["lastVersion"],
        "lastProcessedAt": data["updatedAt"],
        "lastProcessedErrorCount": 0,
        "permissions": {"view": True, "edit": can(ctx.member, Access.CONTENT)},
        "urls": {
            "location": ctx.url(f"/orgs/{row.org}/openapi/{slug}"),
            "app": ctx.app_url(f"/o/{row.org}/openapi/{slug}"),
        },
    }
    if "url" in data["source"]:
        body["sourceURL"] = data["source"]["url"]
    return body


def _version_view(ctx: Ctx, row: Row) -> dict[str, Any]:
    spec = ctx.tx.get_row("openapi-spec", row.parent or "")
    assert spec is not None
    location = f"/orgs/{row.org}/openapi/{spec.data['slug']}/versions/{row.id}"
    return {
        "object": "openapi-spec-version",
        "id": row.id,
        "createdAt": row.data["createdAt"],
        "url": row.data["source"].get("url") or ctx.url(location + "/content"),
        "urls": {"location": ctx.url(location)},
    }


def _source(body: Fields) -> dict[str, str]:
    raw = body.obj("source", required=True) or {}
    source = Fields(raw, ("url", "text"), "source.")
    if source.has("url") == source.has("text"):
        raise bad_request("source: give exactly one of url or text")
    if source.has("url"):
        url = source.string("url", required=True, max_len=2048, pattern=URL_PATTERN)
        return {"url": url or ""}
    return {"text": source.string("text", required=True, min_len=1) or ""}


def _record(ctx: Ctx, org: str, spec_id: str, source: dict[str, str]) -> str:
    version = new_id()
    data: dict[str, Any] = {"createdAt": ctx.now, "source": source}
    ctx.tx.insert(VERSION, version, data, org=org, parent=spec_id)
    return version


def write_spec(ctx: Ctx, org: str, slug: str, source: dict[str, str]) -> tuple[Row, bool]:
    """Create or update the spec; returns the row and whether it was created."""
    key = _spec_id(org, slug)
    row = ctx.tx.get_row("openapi-spec", key)
    if row is None:
        data: dict[str, Any] = {"id": new_id(), "slug": slug, "createdAt": ctx.now}
        data["updatedAt"] = ctx.now
        data.update(source=source, lastVersion=_record(ctx, org, key, source))
        ctx.tx.insert("openapi-spec", key, data, org=org)
    elif _digest(row.data["source"]) != _digest(source):
        version = _record(ctx, org, key, source)
        updated = {**row.data, "source": source, "lastVersion": version, "updatedAt": ctx.now}
        ctx.tx.update("openapi-spec", key, updated)
    found = ctx.tx.get_row("openapi-spec", key)
    assert found is not None
    return found, row is None


def _digest(source: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(source, sort_keys=True).encode()).hexdigest()


def create_spec(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT)["id"]
    body = Fields(ctx.body(), ("slug", "source"))
    pattern = PRODUCTION_SLUG if ctx.production else SLUG_PATTERN
    slug = body.string("slug", required=True, min_len=1, max_len=100, pattern=pattern)
    assert slug is not None
    if ctx.tx.get("openapi-spec", _spec_id(org, slug)) is not None:
        # production lists 400 (and no 409) for createOpenAPISpec
        raise bad_request(f"slug: an OpenAPI specification {slug!r} already exists (use PUT)")
    row, _ = write_spec(ctx, org, slug, _source(body))
    return created(spec_view(ctx, row))


def put_spec(ctx: Ctx) -> Response:
    """`PUT` of a spec by its slug: made (201) or its source replaced (200; a new version when
    it differs)."""
    org = ctx.org(Access.CONTENT)["id"]
    pattern = PRODUCTION_SLUG if ctx.production else SLUG_PATTERN
    slug = check_string("specSlug", ctx.params["specSlug"], 1, 100, pattern)
    row, was_created = write_spec(ctx, org, slug, _source(Fields(ctx.body(), ("source",))))
    return ok(spec_view(ctx, row), 201 if was_created else 200)


class SpecRules(Rules):
    def serve_create(self, ctx: Ctx, res: Entry) -> Response:
        return create_spec(ctx)

    def serve_replace(self, ctx: Ctx, res: Entry) -> Response:
        return put_spec(ctx)

    def seeded_key(self, res: Entry, place: Place, item: Doc) -> str:
        return _spec_id(place.org, str(item["slug"]))

    def seeded(self, at: Loading, res: Entry, place: Place, item: Doc) -> Doc | None:
        """A spec as answered, with its last version: a URL source as answered, a text one
        (which the API never answers) as text no one wrote."""
        data = kept(item, ("id", "slug", "createdAt", "updatedAt", "visibility", "lastVersion"))
        url = item.get("sourceURL")
        data["source"] = {"url": url} if url else {"text": "(a text source: not read)"}
        key = self.seeded_key(res, place, item)
        version = {"createdAt": data.get("updatedAt", at.now), "source": data["source"]}
        at.put(VERSION, str(item["lastVersion"]), version, parent=key)
        return data


SPECS = Resource(
    "openapi-spec",
    BASE,
    "specSlug",
    spec_view,
    missing="No OpenAPI specification {id!r} in {org!r}",
    body=Body((Choice("visibility", ops=UPDATE, required=UPDATE, values=VISIBILITIES),)),
    rules=SpecRules(),
    operations=("list", "create", "get", "update", "replace", "delete"),
    org_keyed=True,
    snapshot=(),
)


def _latest(ctx: Ctx, spec: Row) -> Row:
    versions = ctx.tx.rows(VERSION, parent=spec.id)
    if not versions:
        raise not_found(f"No version 'latest' of OpenAPI specification {spec.data['slug']!r}")
    return versions[-1]


def _content(ctx: Ctx, row: Row) -> Doc:
    """What a version's source holds (the emulator keeps it as written)."""
    view = _version_view(ctx, row)
    source = row.data["source"]
    entry = {"text": source["text"]} if "text" in source else {"url": source["url"]}
    return {
        "filesystem": {"openapi": entry},
        "url": view["url"],
        "urls": {"source": view["url"], "public": None},
    }


class VersionRules(Rules):
    def filter(self, ctx: Ctx, place: Place, rows: list[Row]) -> list[Row]:
        return rows[::-1]  # newest first


#: a spec's versions, one recorded with each source it was given
VERSIONS = Resource(
    VERSION,
    SPECS.item_at + "/versions",
    "versionId",
    _version_view,
    missing="No version {id!r} of OpenAPI specification {specSlug!r}",
    scope=Within(SPECS),
    rules=VersionRules(),
    operations=("list", "get"),
)

routes: list[BaseRoute] = [
    *SPECS.routes(),
    # `latest` names the newest version, before an id could
    SPECS.read("versions/latest", lambda ctx, spec: _version_view(ctx, _latest(ctx, spec))),
    SPECS.read("versions/latest/content", lambda ctx, spec: _content(ctx, _latest(ctx, spec))),
    *VERSIONS.routes(),
    VERSIONS.read("content", _content),
]
