"""Translations, in the two shapes one list holds (INTERFACE.md §2.1):

- the API description's translation settings `{title}` (§4.17), keyed by title, renamed with PUT;
- production's translation of a space into a language, `{space, language, sourceLanguage}`,
  keyed by the space and the target language. Production's body is `{source: {space, language},
  language, instructions}` and its PUT changes only `instructions`, so a different source
  language replaces the translation. The emulator serves both shapes on the same paths, told
  apart by the body.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pydantic import field_validator, model_validator

from docsync.api.answers import ID, TEXT, Either, Obj, Opt
from docsync.api.contract import EXTRA, INSTRUCTIONS, KEY, SHAPE, Explained, Note, Seed
from docsync.core.context import PlanContext, RunContext
from docsync.core.entries import Entry, Language, Ref
from docsync.core.model import Action
from docsync.core.state import DesiredResource, LiveResource, LiveState
from docsync.kinds.changes import fields_of
from docsync.kinds.crud import CrudKind
from docsync.kinds.declaration import Api, Declaration
from docsync.kinds.kind import ExportNames, Path
from docsync.kinds.lists import Place, Steps, plan_list
from docsync.kinds.organization.documents import Instructions, as_written, to_document
from docsync.kinds.requests import Found, Routes, Writes, each_write_lost


def _source(name: str) -> Any:
    """A field of a production translation's `source: {space, language}`."""

    def read(raw: dict[str, Any]) -> Any:
        source = raw.get("source")
        return source.get(name) if isinstance(source, dict) else None

    return read


#: production's TranslationLanguage
TranslationLanguage = Language


class TranslationEntry(Entry):
    """A translation in one of two shapes: the API description's settings ``{title}``, keyed
    by title; or production's translation of a space into a language ``{space, language,
    sourceLanguage}``, keyed by space and language (INTERFACE.md §2.1)."""

    title: str | None = Api().limits(default=None, min_length=1, max_length=128)
    """The description's translation settings (not served by production)."""
    space: Ref | None = Api(
        ref="space", ref_live=True, live=_source("space"), update=False, replace=True
    ).limits(default=None)
    """The source space by title (or id): production's translations."""
    language: TranslationLanguage | None = Api(update=False, replace=True).limits(default=None)
    """The target language."""
    sourceLanguage: TranslationLanguage | None = Api(
        live=_source("language"), update=False, replace=True
    ).limits(default=None)
    """The source space's language; default: the space's own, else ``en``."""
    # production's document, compared as a manifest writes it (`documents.as_written`)
    instructions: Instructions | None = Api(normalize=as_written, api_default=("",)).limits(
        default=None
    )
    """What the translation follows (terms, tone): text, a paragraph per blank line, or a
    document; an empty text removes them."""

    @field_validator("language", "sourceLanguage", mode="before")
    @classmethod
    def _not_a_yaml_boolean(cls, value: Any) -> Any:
        if isinstance(value, bool):
            raise ValueError(
                f"YAML reads an unquoted {'yes/on' if value else 'no/off'} as a boolean: quote "
                'the language code (language: "no")'
            )
        return value

    @model_validator(mode="after")
    def _one_shape(self) -> TranslationEntry:
        production = {"space", "language", "sourceLanguage"} & self.model_fields_set
        if self.title is not None and production:
            raise ValueError(
                "give either 'title' (translation settings) or 'space' and 'language' "
                "(a translation), not both"
            )
        if production and not ({"space", "language"} <= self.model_fields_set):
            missing = "language" if "space" in self.model_fields_set else "space"
            raise ValueError(f"'{missing}' is required: a translation names a space and a language")
        if self.sourceLanguage is not None and self.sourceLanguage == self.language:
            raise ValueError(f"'language' {self.language!r} is the source language itself")
        if self.instructions is not None and not production:
            raise ValueError("'instructions' are a translation's: write 'space' and 'language'")
        return self


CREATE = "POST /v1/orgs/{org}/translations"
UPDATE = "PUT /v1/orgs/{org}/translations/{id}"
DESCRIPTION = "the API description's translation settings (conflicts.py)"
CONTRACT = (
    Note(
        KEY,
        CREATE,
        "source",
        "`space` and `sourceLanguage`, sent as production's `source: {space, language}`",
    ),
    Note(SHAPE, CREATE, "instructions", INSTRUCTIONS),
    Note(SHAPE, UPDATE, "instructions", INSTRUCTIONS),
    Note(EXTRA, CREATE, "title", DESCRIPTION),
    Note(EXTRA, UPDATE, "title", DESCRIPTION),
    Note(EXTRA, CREATE, "space", "sent as production's `source.space`, the space's id"),
    Note(EXTRA, CREATE, "sourceLanguage", "sent as production's `source.language`"),
    Explained(
        (CREATE,),
        r'"message":"(source\.space|language): ',
        "createTranslation declares 201 and 400 only: an unknown source space, or a target "
        "language that is the source's own, can only be its 400",
    ),
    Seed(
        "POST",
        "/v1/orgs/{org}/translations",
        {"source": {"space": "{guides}", "language": "en"}, "language": "fr"},
    ),
)

TRANSLATION = Declaration(
    "translation",
    "translations",
    "translation",
    key="title",
    renames=True,
    needs=("space",),
    export_file="content.yaml",
    alt_key=("space", "language"),
    entry=TranslationEntry,
    routes=Routes("/v1/orgs/{org}/translations", id_name="translationSettingsId", update="PUT"),
    writes=(
        Writes(
            found_by=Found(
                "listed again, by source space and language, or else by title",
                (("space", "source.space"), ("language", "language")),
                otherwise=Found("by title", (("title", "title"),)),
            )
        ),
    ),
    lost_answers=(
        each_write_lost(
            "translations",
            ("{title: French}", None, "{title: French, state: absent}"),
            ("POST", "/translations$"),
            None,
            ("DELETE", "/translations/[^/]+$"),
        ),
    ),
    contract=CONTRACT,
    roles=("read", "create or admin; admin to delete one"),
    answer=Either(
        (
            Obj(
                {
                    "id": ID,
                    "language": TEXT,
                    "source": Opt(Obj({"space": Opt(ID), "language": Opt(TEXT)})),
                }
            ),
            Obj({"id": ID, "title": TEXT}),
        )
    ),
)


#: what production's createTranslation assumes when the source space has no language
DEFAULT_SOURCE_LANGUAGE = "en"
#: the fields of production's shape: none of them can change in place


def _key(space_key: str, language: str) -> str:
    return f"{space_key}:{language}"


class TranslationKind(CrudKind):
    declaration = TRANSLATION

    def to_live(self, raw: Any, live: LiveState) -> list[LiveResource]:
        """Settings by title; a translation by its source space's key and its language."""
        return self.live_resources(raw, live, key=_live_key)

    def to_desired(self, ctx: PlanContext) -> list[DesiredResource]:
        return self.desired_resources(ctx, key=_desired_key)

    def plan(self, ctx: PlanContext) -> None:
        """Live translations are matched by the key their space has once the plan is applied:
        a space renamed with `was:` keeps its translations, and `prune:` judges them by the
        name the next plan reads."""
        if not self.written_in(ctx.loaded.manifest):
            return
        live = [_as_planned(resource, ctx) for resource in ctx.live.by_kind[self.name]]
        steps = Steps(self._created, self._updated, self.plan_delete)
        plan_list(self.declaration, steps, ctx.desired.by_kind[self.name], live, Place(ctx))

    def _created(self, desired: DesiredResource, at: Place) -> Action | None:
        """A translation written without a source language translates from its space's own
        language (production's Space.language), else English."""
        if "space" in desired.fields and "sourceLanguage" not in desired.fields:
            ident = at.ctx.live_id_of(desired.fields["space"]) or ""
            live = at.ctx.live.by_id.get(("space", ident))
            language = live.raw.get("language") if live else None
            desired.fields["sourceLanguage"] = str(language or DEFAULT_SOURCE_LANGUAGE)
        return self.plan_create(desired, at)

    def _updated(self, desired: DesiredResource, live: LiveResource, at: Place) -> Action | None:
        changes = self.changes(desired, live, at.ctx)
        if "title" in live.raw and any(self.field(c.field).replace for c in changes):
            # A pinned settings entry rewritten as a translation: another kind of resource.
            return self.plan_replace(
                desired,
                live,
                at.ctx,
                protected="turns translation settings into a translation, which forces a "
                "replace, but is protected",
                note="translation settings become a translation: replaced",
            )
        return self.plan_update(desired, live, at)

    async def execute(self, action: Action, run: RunContext) -> None:
        """Production's body is `{source: {space, language}, language}`, the description's
        `{title}`; a PUT renames settings (a translation has nothing else to change)."""
        fields = run.resolve(fields_of(action).fields)
        if action.verb in ("delete", "replace"):
            assert action.live_id is not None
            await self.send(run.api, "delete", org=run.org_id, id=action.live_id)
        if action.verb in ("create", "replace"):
            run.ids[action.address] = await self.send_create(action, _body(fields), run)
        elif action.verb == "update":
            assert action.live_id is not None
            if "title" in fields:
                await self.send_update(action.live_id, {"title": fields["title"]}, run)
            if "instructions" in fields:  # production's PUT: its instructions alone
                body = {"instructions": to_document(fields["instructions"])}
                await self.send_update(action.live_id, body, run)

    def export(self, live: LiveState, names: ExportNames) -> Any:
        def entry(resource: LiveResource) -> dict[str, Any]:
            if "title" in resource.raw:
                return {"title": resource.name}
            entry = {
                "space": names.name(resource.fields["space"]),
                "language": resource.fields["language"],
                "sourceLanguage": resource.fields["sourceLanguage"],
            }
            if resource.fields.get("instructions"):
                entry["instructions"] = resource.fields["instructions"]
            return entry

        return self.export_entries(live, names, entry)


def _live_key(raw: dict[str, Any], live: LiveState) -> str:
    if "title" in raw:
        return str(raw["title"])
    source = raw.get("source") or {}
    found = live.by_id.get(("space", str(source.get("space"))))
    return _key(found.key if found else f"space#{source.get('space')}", raw["language"])


def _as_planned(resource: LiveResource, ctx: PlanContext) -> LiveResource:
    """A live translation keyed by its space's key once the plan is applied (`key_after`)."""
    if "title" in resource.raw:
        return resource
    space = (resource.raw.get("source") or {}).get("space")
    after = ctx.key_after("space", str(space)) if space is not None else None
    key = _key(after, resource.raw["language"]) if after is not None else resource.key
    return resource if key == resource.key else replace(resource, key=key, name=key)


def _desired_key(entry: Any, path: Path, ctx: PlanContext) -> str:
    if entry.title is not None:
        return str(entry.title)
    space = ctx.resolve("space", str(entry.space), (*path, "space"))
    holder = space and (ctx.desired.by_address.get(space) or ctx.live.by_address.get(space))
    return _key(holder.key if holder else str(entry.space), entry.language)


def _body(fields: dict[str, Any]) -> dict[str, Any]:
    if "space" not in fields:
        return {"title": fields["title"]} if "title" in fields else {}
    found = {
        "source": {"space": fields["space"], "language": fields["sourceLanguage"]},
        "language": fields["language"],
    }
    if fields.get("instructions"):
        found["instructions"] = to_document(fields["instructions"])
    return found
