"""Query parameters and pagination for route modules: booleans, enumerations, `limit` and the
opaque `page` tokens, and the `{items, count, next}` answer of one page.

Production declares `limit` a number from 0 to 1000 and `page` any string: a fractional limit is
taken down to the integer below, and a token this server did not hand out names no page (404,
not a malformed request).
"""

from __future__ import annotations

import base64
import binascii
import zlib
from collections.abc import Callable, Sequence
from typing import Any

from starlette.responses import Response

from docsync.emulator.errors import bad_request, not_found
from docsync.emulator.http import Ctx, ok

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 1000


def query_bool(ctx: Ctx, name: str) -> bool | None:
    """A boolean query parameter (`true`/`false`, as production's schemas write booleans), None
    when absent; 400 otherwise (a number is not a boolean)."""
    value = ctx.query.get(name)
    if value is None:
        return None
    if value.lower() == "true":
        return True
    if value.lower() == "false":
        return False
    raise bad_request(f"{name}: must be true or false, got {value!r}")


def query_enum(
    ctx: Ctx, name: str, values: Sequence[str], default: str | None = None
) -> str | None:
    """A query parameter restricted to `values`; 400 naming the allowed ones."""
    value = ctx.query.get(name)
    if value is None:
        return default
    if value not in values:
        raise bad_request(f"{name}: must be one of {', '.join(values)}, got {value!r}")
    return value


def _page_token(offset: int) -> str:
    raw = f"{offset}.{zlib.crc32(f'docsync-emulator/{offset}'.encode()):08x}"
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def _page_offset(token: str) -> int:
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
        offset = int(raw.split(".", 1)[0])
    except (binascii.Error, UnicodeDecodeError, ValueError):
        offset = -1
    if offset < 0 or _page_token(offset) != token:
        raise not_found("page: no such page: not a token this list returned in next.page")
    return offset


def page_window(ctx: Ctx) -> tuple[int, int]:
    """The `(offset, limit)` a list request asks for: `limit` a number 0..1000 (0 and absent
    mean 50; a fraction is taken down), `page` a token from an earlier answer's `next.page`."""
    raw_limit = ctx.query.get("limit")
    limit = DEFAULT_PAGE_SIZE
    if raw_limit is not None:
        try:
            number = float(raw_limit)
        except ValueError:
            raise bad_request(f"limit: must be a number, got {raw_limit!r}") from None
        if not 0 <= number <= MAX_PAGE_SIZE:  # NaN fails too
            raise bad_request(f"limit: must be between 0 and {MAX_PAGE_SIZE}, got {raw_limit}")
        limit = int(number)
        # production's schema allows 0; an empty page would leave a client nothing to page
        # through, so 0 means the default page size
        limit = limit or DEFAULT_PAGE_SIZE
    page = ctx.query.get("page")
    return (0 if page is None else _page_offset(page)), limit


def page_answer(items: list[Any], total: int, offset: int, limit: int) -> Response:
    """The answer of one page: `{items, count, next?: {page}}`; `next` is absent on the last."""
    body: dict[str, Any] = {"items": items, "count": total}
    if offset + limit < total:
        body["next"] = {"page": _page_token(offset + limit)}
    return ok(body)


def paginate(
    ctx: Ctx, items: Sequence[Any], render: Callable[[Sequence[Any]], list[Any]] | None = None
) -> Response:
    """Answer a list held whole: the page `page_window` asks for, `count` the total.

    With `render`, `items` are sort keys or rows and only the page's slice is rendered (in one
    batch).
    """
    offset, limit = page_window(ctx)
    page_items = items[offset : offset + limit]
    rendered = list(page_items) if render is None else render(page_items)
    return page_answer(rendered, len(items), offset, limit)
