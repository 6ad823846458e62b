"""The organization's translations glossary (production's `.../translations-glossary`, not in
the API description, served in both contract modes): list and read its entries, and write them
in one batch (`PUT {operations}`: insert, update, delete, in order, all or nothing).

An entry is a term in several languages (production's GlossaryTranslations: any key, each term
1 to 255 characters on one line). Rows (id / org / parent): glossary-entry (id / org / -).
Choices are in docs/emulator.md ("Translations glossary").
"""

from __future__ import annotations

from starlette.routing import BaseRoute

from docsync.emulator.body import Place
from docsync.emulator.errors import not_found
from docsync.emulator.http import Ctx, new_id
from docsync.emulator.paging import query_enum
from docsync.emulator.resource import Resource
from docsync.emulator.rules import Rules
from docsync.emulator.shapes import Arr, Dict, Enum, Obj, OneOf, Str
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import TRANSLATION_LANGUAGES

KIND = "glossary-entry"
BASE = "/v1/orgs/{organizationId}/translations-glossary"
TERMS = Dict(Str(min_len=1, max_len=255, pattern=r"^[^\n\r]*$"))
OPERATION = OneOf(
    (
        Obj({"type": Enum(("insert",)), "translations": TERMS}, ("type", "translations")),
        Obj(
            {"type": Enum(("update",)), "id": Str(), "translations": TERMS},
            ("type", "id", "translations"),
        ),
        Obj({"type": Enum(("delete",)), "id": Str()}, ("type", "id")),
    ),
    "an insert {type, translations}, update {type, id, translations} or delete {type, id}",
    tag="type",
)
BATCH = Obj({"operations": Arr(OPERATION)}, ("operations",))


def _view(ctx: Ctx, row: Row) -> Doc:
    """Production's GlossaryEntry."""
    return {
        "object": KIND,
        "id": row.id,
        "translations": dict(row.data["translations"]),
        "createdAt": row.data["createdAt"],
        "updatedAt": row.data["updatedAt"],
        "urls": {"location": ctx.url(f"/orgs/{row.org}/translations-glossary/{row.id}")},
    }


class GlossaryRules(Rules):
    def filter(self, ctx: Ctx, place: Place, rows: list[Row]) -> list[Row]:
        """`orderBy=<language>`: by the term in that language, entries without one last."""
        language = query_enum(ctx, "orderBy", TRANSLATION_LANGUAGES)
        if language is None:
            return rows
        return sorted(
            rows, key=lambda r: (language not in r.data["translations"], _term(r, language))
        )


def _term(row: Row, language: str) -> str:
    return str(row.data["translations"].get(language, "")).casefold()


GLOSSARY = Resource(
    KIND,
    BASE,
    "glossaryEntryId",
    _view,
    missing="No glossary entry {id!r} in organization {org!r}",
    rules=GlossaryRules(),
    operations=("list", "get"),
    stamps=("createdAt", "updatedAt"),
    snapshot=("translations",),
)


def _write_batch(ctx: Ctx, place: Place) -> None:
    """Production's updateGlossaryEntries: each operation in order, in one transaction (a
    refused one refuses them all: 400 for a shape, 404 for an update of no entry). A delete of
    no entry does nothing, so a retried batch is done."""
    org = place.org
    batch = BATCH.check(ctx.body(), "")
    for index, operation in enumerate(batch["operations"]):
        key = operation.get("id")
        row = None if key is None else ctx.tx.get_row(KIND, str(key))
        if row is not None and row.org != org:
            row = None
        if operation["type"] == "insert":
            data = {"translations": operation["translations"], "createdAt": ctx.now}
            ctx.tx.insert(KIND, new_id(), {**data, "updatedAt": ctx.now}, org=org)
        elif operation["type"] == "delete":
            if row is not None:
                ctx.tx.delete(KIND, row.id)
        elif row is None:
            raise not_found(f"operations[{index}].id: no glossary entry {key!r} in {org!r}")
        else:
            data = {**row.data, "translations": operation["translations"], "updatedAt": ctx.now}
            ctx.tx.update(KIND, row.id, data)


routes: list[BaseRoute] = [*GLOSSARY.routes(), GLOSSARY.batch(_write_batch)]
