"""The requests a kind sends, as its declaration names them, and how a write whose answer was
lost is settled.

A kind's `Routes` name every request it sends: its list (read, and created in), its item
(updated, deleted), and the requests of its own, each by what it does (a site's `publish`, a
space's `restore`); a field written by a request of its own names it (`Field.route`). Code sends
a request by its name (`send`), never by a path typed again, and the test of declared requests
holds every kind to it (`tests/engine/test_declared_requests.py`).

Writes whose answer was lost (a dropped connection, a 5xx, a timeout) are settled inside the
apply, never left to the next one. The API client sends an idempotent write again (a PUT, PATCH,
DELETE, or a POST declared safe to send again: `Route.retry_safe`; a DELETE answered 404 after a
lost attempt is done). A create, which sending again could make twice, is looked for first: the
kind says how it finds one (`Writes.found_by`, carried out by its finder), the apply continues
with the id it finds, and sends the create again only when the read shows nothing was made
(`create_once`). An idempotent write whose every answer was lost (the client gave up sending it
again, and each try may have been carried out) is read back where its kind can tell it done
(`settle`).

Every kind declares, in its own module, what it writes: itself, and the parts a manifest writes
under its entries (a site's `shareLinks`), each with how a lost answer is settled (`Kind.writes`),
and the end-to-end scenario where their answers are lost (`LostAnswers`, run by
tests/engine/test_e2e_lost_answers.py); the catalogue test holds each write to a scenario that
covers it. The fault soak checks every kind."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from docsync.api.errors import ApiError, OddAnswer, OutcomeUnknown, Unauthorized
from docsync.core.paths import value_at

if TYPE_CHECKING:
    from docsync.api import ApiClient
    from docsync.api.answers import Shape
    from docsync.core.remote import Api


@dataclass(frozen=True)
class Route:
    """One request a kind sends: its verb and its path, a template with `{org}`, `{id}`, a
    holder's id (`{site}`) or a key the API names an item by (an integration's `{name}`);
    `{list}` and `{item}` stand for its kind's list and item paths (`{item}/publish`)."""

    method: str
    path: str
    #: what docsync relies on in its answer (each item's, for a list answered in pages)
    answer: Shape | None = None
    #: a GET of a list answered in pages (`?page=`), every page read
    paged: bool = False
    #: sending it again once its answer was lost makes nothing twice, changes nothing more;
    #: None: as its verb says (GET, PUT, PATCH, DELETE are; a POST is not)
    retry_safe: bool | None = None

    @property
    def idempotent(self) -> bool:
        return self.method != "POST" if self.retry_safe is None else self.retry_safe

    def at(self, **params: Any) -> str:
        """The path, its `{...}` filled (a missing one is a programming error)."""
        return self.path.format(**{name: str(value) for name, value in params.items()})


@dataclass(frozen=True)
class Routes:
    """Where a kind's resources are in the API: the list (read, and created in) and an item
    (updated and deleted), as path templates (`Route`); `id_name` is what the API description
    calls the id (`teamId`), by which `-v` counts requests; `more` names the other requests it
    sends, by what they do. A field written by a request of its own says so (`Field.route`)."""

    list: str
    item: str = ""
    id_name: str = ""
    #: the verb that creates an item on `list` (production makes a team with `PUT`); None: the
    #: kind creates nothing (the organization's settings, a site's one customization)
    create: str | None = "POST"
    #: a create sent again once its answer was lost makes nothing twice (installing where it
    #: is installed answers that installation)
    create_retry_safe: bool = False
    #: the verb that updates an item (an OpenAPI spec's source is a `PUT`); None: never updated
    update: str | None = "PATCH"
    #: an update sent again once its answer was lost changes nothing more; None: as its verb
    #: says (a POST is not)
    update_retry_safe: bool | None = None
    #: whether an item is deleted (`DELETE` on it)
    delete: bool = True
    #: whether an item is read by its path (`GET` on it: a write of a field's own request read
    #: back when its every answer was lost, a space in the bin)
    read: bool = False
    #: the list answers pages (`?page=`); when False it is one GET of every item
    paged: bool = True
    #: the other requests it sends, by what they do (`publish`, `restore`, `members`)
    more: Mapping[str, Route] = field(default_factory=dict)

    @property
    def item_path(self) -> str:
        return self.item or f"{self.list}/{{id}}"

    @property
    def segment(self) -> str:
        """The list's own segment (`teams`): in a path, what follows it is an id."""
        return self.list.rstrip("/").rsplit("/", 1)[-1]

    def every(self) -> dict[str, Route]:
        """Every request it declares, by name: `list`, `create`, `update`, `delete` (those it
        sends) and `more`'s."""
        found = {"list": Route("GET", self.list, paged=self.paged)}
        if self.create is not None:
            found["create"] = Route(self.create, self.list, retry_safe=self.create_retry_safe)
        if self.update is not None:
            found["update"] = Route(self.update, self.item_path, retry_safe=self.update_retry_safe)
        if self.delete:
            found["delete"] = Route("DELETE", self.item_path)
        if self.read:
            found["read"] = Route("GET", self.item_path)
        for name, route in self.more.items():
            path = route.path.replace("{item}", self.item_path).replace("{list}", self.list)
            found[name] = Route(route.method, path, route.answer, route.paged, route.retry_safe)
        return found

    def route(self, name: str) -> Route:
        found = self.every().get(name)
        if found is None:
            raise KeyError(f"no route {name!r} among {sorted(self.every())}")
        return found


async def send(
    api: Api, route: Route, body: Any = None, *, keep_odd: bool = False, **at: Any
) -> Any:
    """A request as its route declares it, at the path `at` fills: a GET checked against its
    answer (each item of a list answered in pages, every page read; with `keep_odd`, an item
    not as docsync relies on is kept, marked), a write sent again once its answer was lost only
    when that is safe (`Route.idempotent`)."""
    path = route.at(**at)
    if route.method != "GET":
        return await api.write(route.method, path, body, idempotent=route.idempotent)
    if route.paged:
        return await api.list_all(path, items=route.answer, keep_odd=keep_odd)
    return await api.get(path, shape=route.answer)


@dataclass(frozen=True)
class Reading:
    """What a kind's read is given: the client, the organization, and what scopes the read:
    the manifest's entries of the kind (None when export reads everything), the kinds the
    manifest deletes from (what refers to them is read too, so a delete something still needs
    is caught while planning, and what goes with a delete is named) and those it prunes."""

    api: ApiClient
    org_id: str
    entries: Sequence[Any] | None
    deleting: frozenset[str] = frozenset()
    #: the kinds whose section the manifest prunes (`prune:`): what no entry names may go, and
    #: a delete names what goes with it, so what it holds is read too
    pruned: frozenset[str] = frozenset()

    @property
    def everything(self) -> bool:
        """Export: every resource and every part of each, not only what a manifest writes."""
        return self.entries is None


# -- what the API hides from the token's role --------------------------------------------------
# A read answered 403 is not a failure of the plan: the plan names what it could not read and
# why, and plans the rest; an apply, which must know what it changes, refuses (`engine.run`). A
# kind's whole read hidden leaves the kind out of the plan (the planner catches it); a part read
# with its resource (a site's share links, an installation's sites, a resource's grants) hidden
# is kept on the resource's item (`UNREAD`, by part), and that part alone is left out.

#: where a read item keeps the parts of it the API hid from the token's role: part -> why
UNREAD = "_unread"
#: where it keeps the parts the API answered otherwise than docsync relies on (production's
#: answers differ from its document): part -> why; left out of the plan too, while an apply
#: goes on with the rest
ODD_PARTS = "_odd_parts"


def hidden(error: BaseException) -> str | None:
    """Why the API refused a read to this role (a 403: the token is valid, its role may not
    read this), said as the plan says it; None for any other failure, which stays one."""
    if not isinstance(error, Unauthorized) or error.status != 403:
        return None
    return error.request_line()


async def unless_hidden(item: dict[str, Any], part: str, read: Awaitable[None]) -> None:
    """`read`, a part of `item` read with it; when the API hides it from the token's role
    (`UNREAD`) or answers it otherwise than docsync relies on (`ODD_PARTS`), the item keeps why
    instead, and the part is not planned."""
    try:
        await read
    except OddAnswer as error:
        item.setdefault(ODD_PARTS, {})[part] = f"{error.method} {error.path}: {error.message}"
    except ApiError as error:
        why = hidden(error)
        if why is None:
            raise
        item.setdefault(UNREAD, {})[part] = why


def unread(item: dict[str, Any] | None, part: str) -> bool:
    """Whether a part of a read item was not read: hidden from the token's role, or answered
    otherwise than docsync relies on."""
    found = item or {}
    return part in found.get(UNREAD, {}) or part in found.get(ODD_PARTS, {})


T = TypeVar("T")

#: how many times a create of unknown outcome is looked for and sent again before it fails
ATTEMPTS = 6

#: what most flat kinds do: their list, read again, matched by the entry's key
BY_KEY = "listed again, matched by its key among what the apply does not know"
#: what a site's children do
IN_STRUCTURE = "found in one read of its site's structure among items the apply does not know"


@dataclass(frozen=True)
class Found:
    """How a create whose answer was lost is found again in its kind's list, read again: the
    last listed item that answers, at each place, what the create wrote (a space's `title` at
    `title` and its `collection` at `parent`), and the action's key at `key_at`; its id at
    `id_at`. What `CrudKind.find` runs, and what `said` tells a reader."""

    said: str
    #: (a field of the create, where a listed item answers it: a dotted place); a field the
    #: create did not write is compared as null (a space at the top: no `parent`)
    fields: tuple[tuple[str, str], ...] = ()
    #: where a listed item answers the action's key (None: the key is not compared)
    key_at: str | None = None
    id_at: str = "id"
    #: how it is found when the create did not write the first of `fields` (a translation of
    #: a space and a language, or else one named by its title)
    otherwise: Found | None = None

    def id_in(self, items: Sequence[Any], written: dict[str, Any], key: str) -> str | None:
        """The id of what the create made, among `items`, if it is there."""
        way: Found | None = self
        while way is not None and way.fields and way.fields[0][0] not in written:
            way = way.otherwise
        if way is None:
            return None
        made = [
            item
            for item in items
            if all(value_at(item, at.split(".")) == written.get(name) for name, at in way.fields)
            and (way.key_at is None or value_at(item, way.key_at.split(".")) == key)
        ]
        return str(value_at(made[-1], way.id_at.split("."))) if made else None


@dataclass(frozen=True)
class Writes:
    """Something a kind writes: its own resources (`part` ""), or a part of them that its
    manifest entries write under a field of their own (`part="shareLinks"`); and how a write of
    it whose answer was lost is settled. `found_by` says how a create whose answer was lost is
    found again: a `Found`, which a listed kind runs (`CrudKind.find`), or what the code that
    finds it does (a site's children, in one read of its structure); "" when none of its writes
    could make anything twice if sent again: the client sends them again."""

    part: str = ""
    found_by: str | Found = ""


@dataclass(frozen=True)
class Lose:
    """The answers of the next `count` requests of `method` on a path matching `path` (a regex)
    lost: carried out, then the connection cut (`carried_out`), or answered 500 before the
    server did anything (a create then cannot tell which: it looks before it sends again)."""

    method: str
    path: str
    count: int = 1
    carried_out: bool = True


@dataclass(frozen=True)
class Lost:
    """A manifest applied while the answers `lose` says are lost."""

    manifest: str
    lose: tuple[Lose, ...] = ()


@dataclass(frozen=True)
class LostAnswers:
    """An end-to-end scenario: `setup` applied, then each step applied while its answers are
    lost; each converges in one apply (the next plan is empty) and nothing is made twice.
    `covers`: the writes it proves (`Kind.writes`' names: a kind, or `kind.part`) besides those
    of the kind declaring it."""

    name: str
    setup: str
    steps: tuple[Lost, ...]
    covers: tuple[str, ...] = ()


#: the organization of the emulator's example seed, which the scenarios are applied to
ORGANIZATION = "organization: org_acme\n"


def each_write_lost(
    section: str,
    entries: tuple[str, str | None, str],
    create: tuple[str, str] | None,
    update: tuple[str, str] | None,
    delete: tuple[str, str],
    covers: tuple[str, ...] = (),
) -> LostAnswers:
    """A top-level kind's entry created, changed (None: it has no update) and written `state:
    absent` (`entries`), alone in its section, the answer of each write (method, path regex;
    None: no such request) lost once after it was carried out."""
    steps = []
    for entry, request in zip(entries, (create, update, delete), strict=True):
        if entry is not None:
            lose = (Lose(*request),) if request else ()
            steps.append(Lost(f"{ORGANIZATION}{section}:\n  - {entry}\n", lose))
    return LostAnswers(section, ORGANIZATION, tuple(steps), covers)


async def create_once(
    send: Callable[[], Awaitable[T]], find: Callable[[], Awaitable[T | None]]
) -> T:
    """Creates without ever making a duplicate: when the server may or may not have made it
    (5xx, dropped connection, too slow), `find` looks for it and the apply adopts what it finds;
    only when it is not there is the create sent again."""
    for _attempt in range(ATTEMPTS):
        try:
            return await send()
        except OutcomeUnknown:
            found = await find()
            if found is not None:
                return found
    try:
        return await send()
    except OutcomeUnknown as error:
        error.hint = (
            f"its answer was lost {ATTEMPTS + 1} times and it was not found after any: the next "
            "plan reads it again"
        )
        raise


def unanswered(error: ApiError) -> bool:
    """Whether a failed write may have been carried out: no answer came (a dropped connection,
    too slow), or only 5xx; a 4xx is the API's refusal of it."""
    return isinstance(error, OutcomeUnknown) or error.status is None or error.status >= 500


async def settle(
    send: Callable[[], Awaitable[object]], done: Callable[[], Awaitable[bool]]
) -> None:
    """An idempotent write (an install where installing again answers the installation, a PATCH
    of a configuration) settled inside the apply: when the client gave up on its answers, the
    read `done` says whether the API holds what it writes; it is sent again only when not, as a
    create is (`create_once`)."""
    for _attempt in range(ATTEMPTS):
        try:
            await send()
            return
        except ApiError as error:
            if not unanswered(error):
                raise
            if await done():
                return
    await send()


async def send_settled(
    api: Api,
    route: Route,
    read_back: Route,
    sent: dict[str, Any],
    read: Callable[[dict[str, Any]], Any],
    **at: Any,
) -> None:
    """An idempotent write of a request of its own (a collection's or a space's move), settled:
    when every answer was lost, or a resend after a loss is refused as a conflict (what
    production answers to a write that would change nothing), the resource is read back
    (`read_back`); done when what `read` takes of it is the value sent."""

    async def done() -> bool:
        found = await send(api, read_back, **at)
        return isinstance(found, dict) and [read(found)] == list(sent.values())

    await settle(lambda: send(api, route, sent, **at), done)
