"""The organization's translations glossary (production's `translations-glossary`): the terms
translations must use, each entry a term per language. When written it is exact: an entry is
matched by its term in `keyLanguage`, and what the manifest does not list is deleted. The
whole change is one batch request (`PUT .../translations-glossary`, production's
`GlossaryBatchOperation`s), with the fewest operations: an insert per new term, an update per
entry whose other languages change, a delete per entry gone.

The batch is made when it is sent, from the entries read then: a batch whose answer was lost is
settled by reading the glossary again and sending what is still missing (an insert sent twice
would make the term twice)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import Field as Limits
from pydantic import model_validator

from docsync.api.answers import Obj
from docsync.api.contract import KEY, Note, Seed
from docsync.api.errors import OutcomeUnknown
from docsync.core.context import PlanContext, RunContext
from docsync.core.entries import Language, Model, explained
from docsync.core.model import Action, FieldChange
from docsync.core.nullability import NullChecked
from docsync.core.payloads import Payload
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.kind import ExportNames, TopKind
from docsync.kinds.requests import (
    ATTEMPTS,
    ORGANIZATION,
    Lose,
    Lost,
    LostAnswers,
    Reading,
    Routes,
    Writes,
)

#: production's GlossaryTranslations value: a term of one line
ONE_LINE = explained(r"^[^\n\r]*$", "must be one line (a term, not a text)")
Term = Annotated[str, Limits(min_length=1, max_length=255, pattern=ONE_LINE)]
#: one entry: its term in each language
Terms = dict[Language, Term]


class TranslationsGlossary(NullChecked, Model):
    """The organization's translations glossary; when written, the exact list of its entries."""

    # written by the kind's one batch request, not as fields of a body
    keyLanguage: Language = Api(create=False, update=False).limits()
    """The language whose term keys an entry: an entry is the live one with that term."""
    entries: list[Terms] = Api(create=False, update=False).limits(default_factory=list)
    """Each entry's term per language (production's GlossaryTranslations)."""

    @model_validator(mode="after")
    def _keyed(self) -> TranslationsGlossary:
        seen: dict[str, int] = {}
        for index, entry in enumerate(self.entries):
            term = entry.get(self.keyLanguage)
            if term is None:
                raise ValueError(
                    f"entries[{index}] has no {self.keyLanguage!r} term: each entry is keyed "
                    f"by its term in keyLanguage ({self.keyLanguage!r})"
                )
            if term in seen:
                raise ValueError(
                    f"entries[{index}]: the term {term!r} is written twice (first at "
                    f"entries[{seen[term]}]): one entry per term"
                )
            seen[term] = index
        return self


GLOSSARY_PATH = "/v1/orgs/{org}/translations-glossary"
CONTRACT = (
    Note(
        KEY,
        f"PUT {GLOSSARY_PATH}",
        "operations",
        "`entries`: the batch's inserts, updates and deletes",
    ),
    Seed(
        "PUT",
        GLOSSARY_PATH,
        {"operations": [{"type": "insert", "translations": {"en": "Workspace", "fr": "Espace"}}]},
    ),
)
ENTRIES = ORGANIZATION + "translationsGlossary:\n  keyLanguage: en\n  entries:\n"
LOST = LostAnswers(
    "glossary",
    ORGANIZATION,
    tuple(
        Lost(ENTRIES + entries, (Lose("PUT", "/translations-glossary$"),))
        for entries in (
            "    - {en: Workspace, fr: Espace de travail}\n    - {en: Site, fr: Site}\n",
            "    - {en: Site, fr: Site web}\n    - {en: Space, fr: Espace}\n",
        )
    ),
)

GLOSSARY = Declaration(
    "translations_glossary",
    "translationsGlossary",
    "translations glossary",
    key="keyLanguage",
    singleton=True,
    export_file="content.yaml",
    entry=TranslationsGlossary,
    # its batch's inserts, sent twice, would insert twice: a lost answer is settled by reading
    # the glossary again (`execute`), never by the client sending it again
    routes=Routes(
        GLOSSARY_PATH,
        item=GLOSSARY_PATH,
        id_name="glossaryEntryId",
        update="PUT",
        update_retry_safe=False,
    ),
    writes=(Writes(found_by="read again: the batch is made anew from what is there"),),
    lost_answers=(LOST,),
    contract=CONTRACT,
    roles=("read", "create or admin"),
    answer_more={"translations": Obj({})},
)

#: the glossary's address in a plan
ADDRESS = GLOSSARY.section


@dataclass
class Glossary(Payload):
    """The entries wanted, by their term in `key`: the batch is made from them when sent."""

    key: str = ""
    entries: list[dict[str, str]] = field(default_factory=list)


def batch(
    key: str, wanted: list[dict[str, str]], live: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The fewest operations that make the `live` entries the `wanted` ones: live entries are
    matched by their term in `key` (the first of a term; the others, and those without one, are
    deleted)."""
    by_term: dict[str, dict[str, Any]] = {}
    operations: list[dict[str, Any]] = []
    for item in live:
        term = (item.get("translations") or {}).get(key)
        if term is None or term in by_term:
            operations.append({"type": "delete", "id": str(item["id"])})
        else:
            by_term[term] = item
    for entry in wanted:
        found = by_term.pop(entry[key], None)
        if found is None:
            operations.append({"type": "insert", "translations": entry})
        elif (found.get("translations") or {}) != entry:
            operations.append({"type": "update", "id": str(found["id"]), "translations": entry})
    operations += [{"type": "delete", "id": str(item["id"])} for item in by_term.values()]
    return operations


class TranslationsGlossaryKind(TopKind):
    declaration = GLOSSARY

    async def fetch(self, read: Reading) -> Any:
        return await self.send(read.api, "list", org=read.org_id)

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        entries = [{"id": str(item["id"]), **_terms(item)} for item in raw or []]
        fields = {"entries": entries}
        # the organization's one glossary: known by the organization's id
        own = live.org_id
        return [LiveResource(self.name, own, ADDRESS, ADDRESS, ADDRESS, fields, {"_": raw})]

    def to_desired(self, ctx: PlanContext) -> list[DesiredResource]:
        written = getattr(ctx.loaded.manifest, self.section)
        if written is None:
            return []
        fields = {"keyLanguage": written.keyLanguage, "entries": [dict(e) for e in written.entries]}
        path: tuple[str | int, ...] = (self.section,)
        return [DesiredResource(self.name, ADDRESS, ADDRESS, ADDRESS, fields, path, entry=written)]

    def plan(self, ctx: PlanContext) -> None:
        """One update when the batch has an operation; each entry that changes shown by its
        term."""
        for desired in ctx.desired.by_kind[self.name]:
            key, wanted = desired.fields["keyLanguage"], desired.fields["entries"]
            live = ctx.live.by_address.get(ADDRESS)
            items = [_item(e) for e in (live.fields["entries"] if live else [])]
            operations = batch(key, wanted, items)
            if not operations:
                continue
            changes, where = _changes(key, wanted, items), ctx.where(desired.path)
            action = Action("update", self.name, ADDRESS, changes, where)
            action.payload = Glossary(key, wanted)
            gone = [_named(key, items, op["id"]) for op in operations if op["type"] == "delete"]
            if gone:
                entries = f"{len(gone)} entr{'y' if len(gone) == 1 else 'ies'}"
                action.takes_away(
                    f"deletes {entries} ({', '.join(gone)}): translations no longer use "
                    f"{'its terms' if len(gone) == 1 else 'their terms'}"
                )
            ctx.add(action)

    async def execute(self, action: Action, run: RunContext) -> None:
        """The batch made from what is there now, sent; when its answer is lost, made and sent
        again from what is there then, until nothing is left to do."""
        payload = action.payload
        assert isinstance(payload, Glossary)
        lost: OutcomeUnknown | None = None
        for _attempt in range(ATTEMPTS + 1):
            live = await self.send(run.api, "list", org=run.org_id)
            operations = batch(payload.key, payload.entries, live)
            if not operations:
                return
            try:
                await self.send(run.api, "update", {"operations": operations}, org=run.org_id)
                return
            except OutcomeUnknown as error:
                lost = error
        assert lost is not None
        lost.hint = f"its answer was lost {ATTEMPTS + 1} times: the next plan reads it again"
        raise lost

    def requests(self, action: Action) -> int:
        return 2  # the glossary read, then the one batch

    def export(self, live: LiveState, names: ExportNames) -> Any:
        """The entries keyed by the language every one of them has (English first)."""
        found = live.by_address.get(ADDRESS)
        entries = [dict(_terms(e)) for e in (found.fields["entries"] if found else [])]
        if not entries:
            return None
        common = set.intersection(*(set(e) for e in entries))
        key = "en" if "en" in common else min(common) if common else None
        if key is None:
            return None
        ordered = sorted(entries, key=lambda e: (e[key].casefold(), e[key]))
        return {"keyLanguage": key, "entries": ordered}


def _terms(item: dict[str, Any]) -> dict[str, str]:
    translations = item.get("translations") if "translations" in item else item
    return {k: str(v) for k, v in (translations or {}).items() if k != "id"}


def _named(key: str, items: list[dict[str, Any]], ident: str) -> str:
    """A live entry the batch deletes, by its term in `key` (else its id), quoted."""
    item = next(i for i in items if str(i["id"]) == ident)
    term = (item.get("translations") or {}).get(key)
    return json.dumps(term, ensure_ascii=False) if term is not None else f"(id {ident})"


def _item(entry: dict[str, Any]) -> dict[str, Any]:
    """A live entry as the API answers it, from its live resource's field."""
    return {"id": entry["id"], "translations": _terms(entry)}


def _changes(
    key: str, wanted: list[dict[str, str]], live: list[dict[str, Any]]
) -> list[FieldChange]:
    """The entries as one change, each entry by its term (`entries["Workspace"].fr`): those
    added, changed and removed shown as elements; a live entry the batch deletes for having no
    term in `key`, or for repeating another's, by its id."""
    before: dict[str, dict[str, str]] = {}
    for item in live:
        term = (item.get("translations") or {}).get(key)
        name = term if term is not None and term not in before else f"(id {item['id']})"
        before[name] = item.get("translations") or {}
    after = {entry[key]: entry for entry in wanted}
    return [FieldChange("entries", before, after)]
