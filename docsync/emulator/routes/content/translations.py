"""Translations in both shapes, on the same paths, told apart by the body.

- The description's translation settings (docs-platform-api.md §4.17): `{title}` bodies,
  `object: translation-settings`. Not served with `--contract production`.
- Production's translations (`createTranslation`): `{source: {space, language}, language,
  instructions?}`, `object: translation`; PUT changes only `instructions`.
"""

from __future__ import annotations

from typing import Any

from starlette.routing import BaseRoute

from docsync.emulator.auth import Access, can
from docsync.emulator.body import Body, Place
from docsync.emulator.documents import DOCUMENT, EMPTY_DOCUMENT
from docsync.emulator.errors import bad_request
from docsync.emulator.http import Ctx
from docsync.emulator.refs import live_space
from docsync.emulator.resource import Resource
from docsync.emulator.rules import Entry, Rules, reload
from docsync.emulator.snapshot import Loading, kept
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import TRANSLATION_LANGUAGES, Fields

TITLE_MAX = 100  # the description gives no limit; this one is documented in docs/emulator.md
BASE = "/v1/orgs/{organizationId}/translations"
#: the fields of production's createTranslation body
PRODUCTION_FIELDS = ("source", "language", "instructions")
STAMPS = ("createdAt", "updatedAt")
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


def _settings_title(body: dict[str, Any]) -> str:
    title = Fields(body, ("title",)).string("title", required=True, min_len=1, max_len=TITLE_MAX)
    assert title is not None
    return title


def _instructions(body: Fields) -> dict[str, Any] | None:
    instructions = body.obj("instructions")
    if instructions is not None:
        instructions = DOCUMENT.check(instructions, "instructions")
    return instructions


def _production_data(ctx: Ctx, org: str, raw: dict[str, Any]) -> dict[str, Any]:
    body = Fields(raw, PRODUCTION_FIELDS)
    if "title" in raw and "source" not in raw:  # the description's shape, which production lacks
        raise bad_request(
            "source: is required: production's translations are {source: {space, language}, "
            "language} (it names no title)"
        )
    source = Fields(body.obj("source", required=True) or {}, ("space", "language"), "source.")
    language = body.enum("language", TRANSLATION_LANGUAGES, required=True)
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


class TranslationRules(Rules):
    def hidden(self, ctx: Ctx, row: Row) -> bool:
        return ctx.production and _is_settings(row)

    def seeded(self, at: Loading, res: Entry, place: Place, item: Doc) -> Doc | None:
        """A translation as answered, in either shape."""
        shape = ("title", "languages") if "title" in item else PRODUCTION_FIELDS
        return {"createdAt": at.now, "updatedAt": at.now, **kept(item, shape), **kept(item, STAMPS)}

    def fresh(self, ctx: Ctx, place: Place, values: Doc) -> Doc:
        raw = ctx.body()
        if ctx.production or "title" not in raw:  # production names no title: it is ignored
            return _production_data(ctx, place.org, raw)
        title = _settings_title(raw)
        return {"title": title, "languages": [], "createdAt": ctx.now, "updatedAt": ctx.now}

    def change(self, ctx: Ctx, res: Entry, place: Place, row: Row, values: Doc) -> Row:
        raw = ctx.body()
        if _is_settings(row):
            data = {**row.data, "title": _settings_title(raw), "updatedAt": ctx.now}
        else:
            body = Fields(raw, ("instructions",))
            if not body.has("instructions"):
                raise bad_request("instructions: is required")
            data = {**row.data, "instructions": _instructions(body), "updatedAt": ctx.now}
        ctx.tx.update("translation", row.id, data)
        return reload(ctx, row)


#: Its two shapes are told apart by the body: their rules read it whole (`fresh`, `change`).
TRANSLATIONS = Resource(
    "translation",
    BASE,
    "translationId",
    view,
    missing="No translation {id!r}",
    body=Body(read_whole=True),
    rules=TranslationRules(),
    update_method="PUT",
    stamps=(),
    snapshot=(),
)


routes: list[BaseRoute] = TRANSLATIONS.routes()
