"""Translations in both shapes, on the same paths, told apart by the body.

- The description's translation settings (docs-platform-api.md §4.17): `{title}` bodies,
  `object: translation-settings`. Not served with `--contract production`.
- Production's translations (`createTranslation`): `{source: {space, language}, language,
  instructions?}`, `object: translation`; PUT changes only `instructions`.
"""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access, can
from docsync.emulator.errors import bad_request, not_found
from docsync.emulator.http import Ctx, api_route, created, empty, new_id, ok
from docsync.emulator.paging import paginate
from docsync.emulator.refs import live_space
from docsync.emulator.store import Row
from docsync.emulator.validate import TRANSLATION_LANGUAGES, Fields

TITLE_MAX = 100  # the description gives no limit; this one is documented in docs/emulator.md
BASE = "/v1/orgs/{organizationId}/translations"
ITEM = BASE + "/{translationId}"
#: the fields of production's createTranslation body
PRODUCTION_FIELDS = ("source", "language", "instructions")
#: a translation without instructions reads them back as an empty document
EMPTY_DOCUMENT: dict[str, Any] = {"object": "document", "data": {}, "nodes": []}
_STATS = (
    *("runs", "totalWords", "totalPages", "totalDuration"),
    *("latestRunDuration", "latestPages", "latestWords"),
)


def _is_settings(row: Row) -> bool:
    return "title" in row.data


def settings_view(ctx: Ctx, row: Row) -> dict[str, Any]:
    """Translation settings (`object` = `translation-settings`)."""
    return {
        "object": "translation-settings",
        "id": row.id,
        "title": row.data["title"],
        "languages": list(row.data.get("languages", [])),
        "createdAt": row.data["createdAt"],
        "updatedAt": row.data["updatedAt"],
        "permissions": {"view": True, "edit": can(ctx.member, Access.CONTENT)},
        "urls": {"location": ctx.url(f"/orgs/{row.org}/translations/{row.id}")},
    }


def translation_view(ctx: Ctx, row: Row) -> dict[str, Any]:
    """A production translation (`object` = `translation`); it never runs here: `pending`,
    with no run in its stats."""
    return {
        "object": "translation",
        "id": row.id,
        "status": "pending",
        "source": dict(row.data["source"]),
        "language": row.data["language"],
        "instructions": row.data.get("instructions") or EMPTY_DOCUMENT,
        "createdAt": row.data["createdAt"],
        "updatedAt": row.data["updatedAt"],
        "stats": dict.fromkeys(_STATS, 0),
        "permissions": {"view": True, "edit": can(ctx.member, Access.CONTENT)},
        "urls": {"location": ctx.url(f"/orgs/{row.org}/translations/{row.id}")},
    }


def view(ctx: Ctx, row: Row) -> dict[str, Any]:
    return settings_view(ctx, row) if _is_settings(row) else translation_view(ctx, row)


def _find(ctx: Ctx, org: str) -> Row:
    row = ctx.tx.get_row("translation", ctx.params["translationId"])
    if row is None or row.org != org or (ctx.production and _is_settings(row)):
        raise not_found(f"No translation {ctx.params['translationId']!r}")
    return row


def _visible(ctx: Ctx, rows: list[Row]) -> list[Row]:
    return [r for r in rows if not (ctx.production and _is_settings(r))]


def _settings_title(ctx: Ctx, body: dict[str, Any]) -> str:
    if ctx.production:
        raise bad_request(
            "title: unknown field (accepted: instructions, language, source): production's "
            "translations are {source: {space, language}, language}"
        )
    title = Fields(body, ("title",)).string("title", required=True, min_len=1, max_len=TITLE_MAX)
    assert title is not None
    return title


def _instructions(body: Fields) -> dict[str, Any] | None:
    instructions = body.obj("instructions")
    if instructions is not None and instructions.get("object") != "document":
        raise bad_request("instructions.object: must be 'document'")
    return instructions


def _production_data(ctx: Ctx, org: str, raw: dict[str, Any]) -> dict[str, Any]:
    body = Fields(raw, PRODUCTION_FIELDS)
    language = body.enum("language", TRANSLATION_LANGUAGES, required=True)
    source = Fields(body.obj("source", required=True) or {}, ("space", "language"), "source.")
    space = source.string("space", required=True)
    source_language = source.enum("language", TRANSLATION_LANGUAGES, required=True)
    assert space is not None
    if live_space(ctx.tx, org, space) is None:
        # createTranslation answers 201 or 400 only: an unknown source space is a bad body
        raise bad_request(f"source.space: no space {space!r} in organization {org!r}")
    if source_language == language:
        raise bad_request(f"language: {language!r} is the source's own language")
    return {
        "source": {"space": space, "language": source_language},
        "language": language,
        "instructions": _instructions(body),
        "createdAt": ctx.now,
        "updatedAt": ctx.now,
    }


def list_translations(ctx: Ctx) -> Response:
    org = ctx.org()["id"]
    rows = _visible(ctx, ctx.tx.rows("translation", org=org))
    return paginate(ctx, [view(ctx, r) for r in rows])


def create_translation(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT)["id"]
    raw = ctx.body()
    if "title" in raw:
        title = _settings_title(ctx, raw)
        data: dict[str, Any] = {
            "title": title,
            "languages": [],
            "createdAt": ctx.now,
            "updatedAt": ctx.now,
        }
    else:
        data = _production_data(ctx, org, raw)
    translation_id = new_id()
    ctx.tx.insert("translation", translation_id, data, org=org)
    row = ctx.tx.get_row("translation", translation_id)
    assert row is not None
    return created(view(ctx, row))


def get_translation(ctx: Ctx) -> Response:
    org = ctx.org()["id"]
    return ok(view(ctx, _find(ctx, org)))


def put_translation(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT)["id"]
    row = _find(ctx, org)
    raw = ctx.body()
    if _is_settings(row):
        data = {**row.data, "title": _settings_title(ctx, raw), "updatedAt": ctx.now}
    else:
        body = Fields(raw, ("instructions",))
        if not body.has("instructions"):
            raise bad_request("instructions: is required")
        data = {**row.data, "instructions": _instructions(body), "updatedAt": ctx.now}
    ctx.tx.update("translation", row.id, data)
    return ok(view(ctx, _find(ctx, org)))


def delete_translation(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT_ADMIN)["id"]
    row = ctx.tx.get_row("translation", ctx.params["translationId"])
    if row is None or row.org != org or (ctx.production and _is_settings(row)):
        return empty(204)
    ctx.tx.delete("translation", row.id)
    return empty(205)


routes: list[BaseRoute] = [
    api_route("GET", BASE, list_translations),
    api_route("POST", BASE, create_translation),
    api_route("GET", ITEM, get_translation),
    api_route("PUT", ITEM, put_translation),
    api_route("DELETE", ITEM, delete_translation),
]
