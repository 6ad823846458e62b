"""Writes whose answer was lost (a dropped connection, a 5xx, a timeout) are settled inside the
apply, never left to the next one. The API client sends an idempotent write again (a PUT, PATCH or
DELETE; a DELETE answered 404 after a lost attempt is done). A create, which sending again could
make twice, is looked for first: the kind says how it finds one (`Writes.found_by`, carried out
by its finder), the apply continues with the id it finds, and sends the create again only when
the read shows nothing was made (`create_once`). An idempotent write whose every answer was lost
(the client gave up sending it again, and each try may have been carried out) is read back where
its kind can tell it done (`settle`).

Every kind declares, in its own module, what it writes: itself, and the parts a manifest writes
under its entries (a site's `shareLinks`), each with how a lost answer is settled (`Kind.writes`),
and the end-to-end scenario where the answers of those writes are lost (`LostAnswers`, run by
tests/engine/test_e2e_lost_answers.py); the catalogue test holds each write to a scenario that
covers it. The fault soak checks every kind."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from docsync.api.errors import ApiError, OutcomeUnknown

if TYPE_CHECKING:
    from docsync.core.remote import Api

T = TypeVar("T")

#: how many times a create of unknown outcome is looked for and sent again before it fails
ATTEMPTS = 6

#: what most flat kinds do: their list, read again, matched by the entry's key
BY_KEY = "listed again, matched by its key among what the apply does not know"
#: what a site's children do
IN_STRUCTURE = "found in one read of its site's structure among items the apply does not know"


@dataclass(frozen=True)
class Writes:
    """Something a kind writes: its own resources (`part` ""), or a part of them that its
    manifest entries write under a field of their own (`part="shareLinks"`); and how a write of
    it whose answer was lost is settled. `found_by` says how a create whose answer was lost is
    found again; "" when none of its writes could make anything twice if sent again: the client
    sends them again."""

    part: str = ""
    found_by: str = ""


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
    method: str,
    path: str,
    read_path: str,
    sent: dict[str, Any],
    read: Callable[[dict[str, Any]], Any],
) -> None:
    """An idempotent write of a request of its own (a collection's or a space's move), settled:
    when every answer was lost, or a resend after a loss is refused as a conflict (what
    production answers to a write that would change nothing), the resource is read back at
    `read_path`; done when what `read` takes of it is the value sent."""

    async def done() -> bool:
        found = await api.get(read_path)
        return isinstance(found, dict) and [read(found)] == list(sent.values())

    await settle(lambda: api.write(method, path, sent, idempotent=True), done)
