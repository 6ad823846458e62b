"""Translation settings as docs-platform-api.md §4.17 has them: `{title}` bodies."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access, can
from docsync.emulator.errors import not_found
from docsync.emulator.http import Ctx, api_route, created, empty, new_id, ok, paginate
from docsync.emulator.store import Row
from docsync.emulator.validate import Fields

TITLE_MAX = 100  # the description gives no limit; this one is documented in docs/emulator.md
BASE = "/v1/orgs/{organizationId}/translations"


def translation_view(ctx: Ctx, row: Row) -> dict[str, Any]:
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


def _find(ctx: Ctx, org: str) -> Row:
    row = ctx.tx.get_row("translation", ctx.params["translationSettingsId"])
    if row is None or row.org != org:
        raise not_found(f"No translation settings {ctx.params['translationSettingsId']!r}")
    return row


def _title(ctx: Ctx) -> str:
    title = Fields(ctx.body(), ("title",)).string(
        "title", required=True, min_len=1, max_len=TITLE_MAX
    )
    assert title is not None
    return title


def list_translations(ctx: Ctx) -> Response:
    org = ctx.org()["id"]
    return paginate(ctx, [translation_view(ctx, r) for r in ctx.tx.rows("translation", org=org)])


def create_translation(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT)["id"]
    title = _title(ctx)
    translation_id = new_id()
    data = {"title": title, "languages": [], "createdAt": ctx.now, "updatedAt": ctx.now}
    ctx.tx.insert("translation", translation_id, data, org=org)
    row = ctx.tx.get_row("translation", translation_id)
    assert row is not None
    return created(translation_view(ctx, row))


def get_translation(ctx: Ctx) -> Response:
    org = ctx.org()["id"]
    return ok(translation_view(ctx, _find(ctx, org)))


def put_translation(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT)["id"]
    row = _find(ctx, org)
    data = {**row.data, "title": _title(ctx), "updatedAt": ctx.now}
    ctx.tx.update("translation", row.id, data)
    return ok(translation_view(ctx, _find(ctx, org)))


def delete_translation(ctx: Ctx) -> Response:
    org = ctx.org(Access.CONTENT_ADMIN)["id"]
    row = ctx.tx.get_row("translation", ctx.params["translationSettingsId"])
    if row is None or row.org != org:
        return empty(204)
    ctx.tx.delete("translation", row.id)
    return empty(205)


routes: list[BaseRoute] = [
    api_route("GET", BASE, list_translations),
    api_route("POST", BASE, create_translation),
    api_route("GET", BASE + "/{translationSettingsId}", get_translation),
    api_route("PUT", BASE + "/{translationSettingsId}", put_translation),
    api_route("DELETE", BASE + "/{translationSettingsId}", delete_translation),
]
