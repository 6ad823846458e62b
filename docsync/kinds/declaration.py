"""The declaration of a managed kind: the one place its name, key, parent, entry model, fields,
list semantics, routes and answers are written, as data. Each kind's module holds its declaration
next to its code; the catalogue gathers them. What runs reads them: the requests a flat kind
sends (verbs, paths, paging), what an answer must hold, how a field compares, whether a change
replaces the resource, what export leaves out, what is secret; and the manifest's model and
tables, the offline reference checks, prune names, the JSON Schema and the planner's reading
needs are derived from them."""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from pydantic import BaseModel

from docsync.api.answers import ID, TEXT, Obj, Shape
from docsync.api.contract import Said
from docsync.core.paths import Path
from docsync.kinds.changes import Api as Api
from docsync.kinds.changes import Field as Field
from docsync.kinds.changes import declared_on
from docsync.kinds.requests import LostAnswers, Routes, Writes


@dataclass(frozen=True)
class Structure:
    """Where a kind's items stand in their site's structure read (a site's children)."""

    #: what the structure calls its items (`site-section`), by which they are read and moved
    object: str
    #: a site's root is laid out as `sections` or as `siteSpaces`: the layout its items at the
    #: root belong to, removed when the site switches to the other one (None: a switch leaves
    #: them alone)
    layout: str | None = None
    #: writing its list at the site chooses the site's layout (the other one's items go)
    leads: bool = False
    #: the field of the site (or section) that names its level's default item, if any
    default_field: str = ""


def _in_order(kind: str, fields: tuple[Field, ...], order: tuple[str, ...]) -> tuple[Field, ...]:
    """`fields` in the plan's `order` (names), which must name each of them once."""
    if not order:
        return fields
    by_name = {f.name: f for f in fields}
    if sorted(order) != sorted(by_name):
        raise ValueError(
            f"{kind!r}: `order` must name each field its entry model declares once: "
            f"{', '.join(order)} for {', '.join(by_name)}"
        )
    return tuple(by_name[name] for name in order)


@dataclass(frozen=True)
class Declaration:
    """What docsync knows about a kind without any of its code.

    `section` is the manifest list its entries sit in (under its parents' entries for a nested
    kind); `key` the natural key field, unique within `scope` (a field naming the container)
    or within the parent. `exact` lists (a site's children) are the whole truth: live items no
    entry matches are deleted; managed lists leave them alone unless pruned.

    A field is declared once: on its entry model's field (`Api`), from which `fields` and
    `answer` are derived, or, where no model carries it, in `fields`; both at once is refused
    when the declaration is made."""

    name: str
    section: str
    noun: str
    key: str
    #: its managed fields, in the plan's order: derived from its entry model's (`Api`) when
    #: not given
    fields: tuple[Field, ...] = ()
    #: the plan's order of its fields by name, when not its entry model's
    order: tuple[str, ...] = ()
    #: the manifest entry model (pydantic); a nested kind's list is added to its parents' models
    entry: type[BaseModel] | None = None
    parents: tuple[str, ...] = ()
    scope: str | None = None
    exact: bool = False
    prunable: bool = True
    #: kinds whose live state must be read first (references aside, which are derived)
    needs: tuple[str, ...] = ()
    #: the file of `docsync export --out` that holds this kind (nested kinds: their parent's)
    export_file: str | None = None
    #: one resource, not a list (the organization's settings)
    singleton: bool = False
    #: the key is compared without case (emails)
    key_folds_case: bool = False
    #: the fields that together key an entry of a second shape, written instead of `key`
    #: (production's translations: `space` and `language`)
    alt_key: tuple[str, ...] = ()
    #: what the manifest reference says of the key beyond its fields (`, or id (the user id)`)
    key_note: str = ""
    #: its key is a name the update changes in place (a title, a label): an entry may say what
    #: it was called (`was:`, Terraform's `moved`) and keeps its id; other keys are identities
    renames: bool = False
    #: the kinds its key names (an installation's site, a grant's team or member): it is
    #: planned after them, and its live items are matched under the names the plan gives those
    #: (a site renamed with `was:` keeps its installations)
    key_names: tuple[str, ...] = ()
    #: the API refuses one `path` twice among a parent's items of this kind: a path handed
    #: from one item to another waits for the first to let it go (a site's sections)
    paths_unique: bool = False
    #: written as a mapping in a field its parents' entry models declare themselves (a
    #: resource's `permissions: {teams: {NAME: ROLE}}`), not as a list of entries: no list is
    #: added to the parents and no list check runs on it
    mapped: bool = False
    #: a part of its parent, whose entry model declares its field itself (a site's
    #: `redirects`, a team's `members`): read, planned and written with the parent, never on
    #: its own; its entries are still checked as a list (its key, none twice)
    part: bool = False
    #: an entry may be written as a plain string, the value of this field (a team's members:
    #: `ada@acme.example` is `{user: ada@acme.example}`)
    shorthand: str | None = None
    #: where its resources are in the API (None: in its parents' requests, a grant's)
    routes: Routes | None = None
    #: a part's field in its parents' entry models (added there by the catalogue, as a nested
    #: kind's list is): what the manifest's schema and reference say of it
    describe: str = ""
    #: a part that may be written `null` as a whole, which removes it (a site space's override)
    nullable: bool = False
    #: what it relies on in each of its items as the API answers them (a list's item, an item
    #: of its site's structure), checked as they are read; by default an `id` and its key
    answer: Shape | None = None
    #: what it relies on in each item beyond what its fields declare (a space's `deletedAt`):
    #: with them, the derived `answer` (an `id`, each field's `answer`, these)
    answer_more: Mapping[str, Shape] = dataclass_field(default_factory=dict)
    #: fields a create needs, each with how it is written (an OpenAPI spec's `source`): an entry
    #: without them only keeps a live resource, and a new one is a located problem
    required: tuple[tuple[str, str], ...] = ()
    #: an entry no key matches takes the live item no key matches that has its value of this
    #: field (a site space written without `path` is the one publishing its space)
    matched_by: str | None = None
    #: creates wait for the one before, so they arrive in the manifest's order (the API appends
    #: a new item to its level)
    chained: bool = False
    #: where its items stand in their site's structure read (a site's children)
    structure: Structure | None = None
    #: what it writes (itself, and the parts its entries write under a field of their own) and
    #: how a write whose answer was lost is settled (`requests`)
    writes: tuple[Writes, ...] = ()
    #: where its writes' answers are lost in an end-to-end test (`requests.LostAnswers`)
    lost_answers: tuple[LostAnswers, ...] = ()
    #: what it says of production's document beyond its routes and fields (`api.contract`),
    #: read by the contract tests and the managed shares, never by what runs
    contract: tuple[Said, ...] = ()
    #: the role a token needs to plan it and to apply it (docs/usage.md); (): its parent's
    roles: tuple[str, str] | tuple[()] = ()

    @property
    def item_answer(self) -> Shape:
        """`answer`, or an `id` and the key."""
        return self.answer or Obj({"id": ID, self.key: TEXT})

    @property
    def nested(self) -> bool:
        return bool(self.parents)

    def __post_init__(self) -> None:
        declared = declared_on(self.entry)
        if declared and self.fields:
            raise ValueError(
                f"{self.name!r} declares fields on its entry model and in `fields`: declare "
                "each once, on the model (`Api`)"
            )
        if declared or self.order:
            object.__setattr__(self, "fields", _in_order(self.name, declared, self.order))
        self._derive_answer()
        carried = any(f.name == self.key and f.update for f in self.fields)
        if self.renames and (self.singleton or self.mapped or not carried):
            raise ValueError(f"{self.name!r} renames its key {self.key!r}: no update carries it")

    def _derive_answer(self) -> None:
        """`answer` made of its fields' (and `answer_more`), when they say any."""
        named = [f.answered_as or f.name for f in self.fields if f.answer is not None]
        twice = {n for n in named if named.count(n) > 1} | (set(named) & set(self.answer_more))
        if twice:
            raise ValueError(f"{self.name!r} declares the answer's {sorted(twice)} twice")
        if not named and not self.answer_more:
            return
        if self.answer is not None:
            raise ValueError(
                f"{self.name!r} declares its answer whole and on its fields: declare it once"
            )
        fields = {f.answered_as or f.name: f.answer for f in self.fields if f.answer is not None}
        object.__setattr__(self, "answer", Obj({"id": ID, **fields, **self.answer_more}))

    @property
    def plural(self) -> str:
        return self.noun if self.singleton else f"{self.noun}s"

    @property
    def refs(self) -> tuple[str, ...]:
        return tuple(f.ref for f in self.fields if f.ref)

    @property
    def depends_on(self) -> set[str]:
        """The kinds it comes after: those it refers to (by a field or its key), is nested in
        or needs read first."""
        return {*self.refs, *self.key_names, *self.parents, *self.needs} - {self.name}

    def field(self, name: str) -> Field:
        """The field `name`, or the keyed field whose key a change names (`localizedTitle.de`)."""
        for f in self.fields:
            if f.name == name or (f.keyed and name.startswith(f"{f.name}.")):
                return f
        raise KeyError(f"{self.name} has no field {name!r}")


def dependency_order(
    declarations: Sequence[Declaration], order: Sequence[str] = ()
) -> list[Declaration]:
    """A kind after every kind it refers to, is nested in or needs; among kinds free to go, the
    one first in `order` (the catalogue's order table; a kind it does not name goes after those
    it names), then by name, so the result never depends on discovery order."""
    rank = {name: index for index, name in enumerate(order)}
    by_name = {d.name: d for d in declarations}
    waiting = {d.name: d.depends_on & set(by_name) for d in declarations}
    last = len(rank)
    ready = [(rank.get(d.name, last), d.name) for d in declarations if not waiting[d.name]]
    heapq.heapify(ready)
    ordered: list[Declaration] = []
    while ready:
        _, name = heapq.heappop(ready)
        ordered.append(by_name[name])
        for other, needs in waiting.items():
            if name in needs:
                needs.discard(name)
                if not needs:
                    heapq.heappush(ready, (rank.get(other, last), other))
    if len(ordered) != len(declarations):
        stuck = sorted(set(by_name) - {d.name for d in ordered})
        raise RuntimeError(f"kinds that depend on each other in a cycle: {', '.join(stuck)}")
    return ordered


class Catalogue(Sequence[Declaration]):
    """Every declaration, in dependency order (a kind after the kinds it refers to); a name or a
    section declared twice, or a reference to an undeclared kind, is a programming error."""

    def __init__(self, *declarations: Declaration, order: Sequence[str] = ()) -> None:
        self.by_name: dict[str, Declaration] = {}
        for item in declarations:
            if item.name in self.by_name:
                raise RuntimeError(f"kind {item.name!r} is declared twice")
            self.by_name[item.name] = item
        top = [d.section for d in declarations if not d.nested]
        if len(set(top)) != len(top):
            raise RuntimeError("two kinds share a manifest section")
        for item in declarations:
            for target in (*item.refs, *item.key_names, *item.parents, *item.needs):
                if target not in self.by_name:
                    raise RuntimeError(f"{item.name} names an undeclared kind {target!r}")
        self._items = tuple(dependency_order(declarations, order))

    def __getitem__(self, index: Any) -> Any:
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Declaration]:
        return iter(self._items)

    def named(self, name: str) -> Declaration:
        return self.by_name[name]

    @property
    def top(self) -> tuple[Declaration, ...]:
        """Kinds written at the top of a manifest."""
        return tuple(d for d in self._items if not d.nested)

    @property
    def lists(self) -> tuple[Declaration, ...]:
        """Top-level kinds written as lists (every one but the settings)."""
        return tuple(d for d in self.top if not d.singleton)

    def children(self, parent: str) -> tuple[Declaration, ...]:
        """The kinds nested in `parent` that its entries write as lists of their own (its
        parts aside, which it declares, reads and writes itself)."""
        return tuple(d for d in self._items if parent in d.parents and not (d.mapped or d.part))

    def parts(self, parent: str) -> tuple[Declaration, ...]:
        """The parts of `parent` (`part`, `mapped`): read, planned and written with it."""
        return tuple(d for d in self._items if parent in d.parents and (d.mapped or d.part))

    def by_section(self, section: str) -> Declaration:
        """The kind of the entries of a list, top-level or nested (`teams`, `siteSpaces`); a
        top-level kind first where a nested one has the same section (a team's `members`)."""
        for item in sorted(self._items, key=lambda d: d.nested):
            if item.section == section:
                return item
        raise KeyError(section)

    def entry_paths(self, name: str) -> list[Path]:
        """Where entries of a kind sit in a manifest, with `*` for any list index:
        `("sites", "*", "sections", "*", "siteSpaces", "*")`. One per chain of parents; none
        for a mapped kind (its parents' own models check it)."""
        item = self.by_name[name]
        if item.mapped:
            return []
        own: Path = (item.section,) if item.singleton else (item.section, "*")
        if not item.parents:
            return [own]
        return [(*above, *own) for p in item.parents for above in self.entry_paths(p)]

    def sensitive_paths(self) -> list[Path]:
        """Every manifest path whose value is secret, with `*` for list indexes: a sensitive
        field, and each secret key of a mapping (`Field.secret_keys`)."""
        return [
            (*base, f.name, *key)
            for item in self._items
            for f in item.fields
            for key in ([()] if f.sensitive else []) + [(k,) for k in f.secret_keys]
            for base in self.entry_paths(item.name)
        ]
