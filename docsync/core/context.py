"""What a kind sees while it plans (manifest, live state, references) and while it applies."""

from __future__ import annotations

import difflib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from docsync.core.errors import MissingId
from docsync.core.loaded import LoadedView
from docsync.core.model import Action, Kept
from docsync.core.paths import Path, format_path
from docsync.core.remote import Api
from docsync.core.state import DesiredResource, DesiredState, LiveResource, LiveState


@dataclass
class PlanContext:
    loaded: LoadedView
    live: LiveState
    desired: DesiredState = field(default_factory=DesiredState)
    actions: list[Action] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    unmanaged: list[LiveResource] = field(default_factory=list)
    #: address of an unmanaged resource -> why `prune` left it alone
    why_kept: dict[str, str] = field(default_factory=dict)
    #: desired address -> live id, for every match (a renamed resource keeps its id)
    known_ids: dict[str, str] = field(default_factory=dict)
    #: (kind, live id) -> the key of the manifest entry that took it (`matched`)
    taken_by: dict[tuple[str, str], str] = field(default_factory=dict)
    #: (address, field) pairs whose values are secret, live or desired
    sensitive_fields: set[tuple[str, str]] = field(default_factory=set)
    #: address -> the actions planned on it so far, in plan order
    actions_at: dict[str, list[Action]] = field(default_factory=lambda: defaultdict(list))
    #: the grants a resource keeps, where its grants change (the plan's access tables)
    kept: list[Kept] = field(default_factory=list)
    #: every reference a manifest entry makes: (its path, the address it names)
    references: list[tuple[Path, str]] = field(default_factory=list)
    #: `--resend-secrets`: a secret the API never answers back (so no plan can see it changed)
    #: is sent again wherever the manifest writes one: how a rotated one reaches the API
    resend_secrets: bool = False
    #: the addresses of the actions planned only or also to send such secrets again
    resent: set[str] = field(default_factory=set)
    #: address -> where its entry is (None: no entry) and why nothing is planned for it (the
    #: API answered it, or what it depends on, otherwise than docsync relies on)
    unplanned: dict[str, tuple[str | None, str]] = field(default_factory=dict)

    @property
    def prune(self) -> set[str]:
        return set(self.loaded.manifest.prune)

    def where(self, path: Path) -> str | None:
        location = self.loaded.location(path)
        return str(location) if location else None

    def problem(self, path: Path, message: str) -> None:
        """Records a located problem; planning goes on so that all are reported together."""
        where = self.where(path)
        prefix = f"{where}: " if where else ""
        self.problems.append(f"{prefix}{format_path(path)}: {message}")

    def not_planned(self, address: str, where: Path | str | None, why: str) -> None:
        """Leaves `address` out of the plan, named with why (the plan says it; nothing fails);
        `where`: its entry's path, or a location already said."""
        located = self.where(where) if isinstance(where, tuple) else where
        self.unplanned.setdefault(address, (located, why))

    def sensitive(self, path: Path) -> bool:
        """A secret value, inside one, or holding one (`source: {url: "{{ env(...) }}"}`)."""
        path = tuple(path)
        inside = any(secret[: len(path)] == path for secret in self.loaded.sensitive)
        return inside or self.loaded.is_sensitive(path)

    def resolve(self, kind: str, ref: str, path: Path, *, noun: str | None = None) -> str | None:
        """The address of the `kind` that `ref` names: a manifest entry (by name or pinned id)
        first, then a live resource (by id or name). Records a problem and returns None if none
        or several match."""
        noun = noun or kind
        hits = set(self.desired.named.get((kind, ref), ()))
        if not hits:
            by_id = self.live.by_id.get((kind, ref))
            named = self.live.named.get((kind, ref), [])
            hits = {by_id.address} if by_id else {r.address for r in named}
            if len(hits) > 1:
                self.problem(path, f"{noun} {ref!r} is ambiguous: {_choices(named)}")
                return None
        if len(hits) > 1:
            self.problem(path, f"{noun} {ref!r} names several manifest entries; use an id")
            return None
        if not hits and self._deletes(path):
            # An entry that deletes itself may name another the manifest deletes and the API
            # no longer has (a space of a collection deleted with it): neither has anything left.
            hits = {
                d.address
                for d in self.desired.by_kind[kind]
                if d.absent and ref in (d.name, d.key, d.pinned_id)
            }
        if not hits:
            wanted = [d for d in self.desired.by_kind[kind] if not d.absent]
            names = {d.name for d in wanted} | {r.name for r in self.live.by_kind[kind]}
            close = difflib.get_close_matches(ref, sorted(names), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            self.problem(path, f"no {noun} {ref!r} in the manifest or the organization{hint}")
            return None
        found = hits.pop()
        if not self._deletes(path):
            self.references.append((tuple(path), found))
        return found

    def _deletes(self, path: Path) -> bool:
        """Whether the top-level entry at `path` (`spaces[0]...`) is written `state: absent`."""
        entries = getattr(self.loaded.manifest, str(path[0]), None) if path else None
        if not isinstance(entries, list) or len(path) < 2 or not isinstance(path[1], int):
            return False
        return getattr(entries[path[1]], "state", None) == "absent"

    def matched(self, desired: DesiredResource, live: LiveResource) -> None:
        """Records that the manifest entry `desired` takes the live resource `live` (by its
        key, a pinned id or the name it had, `was:`)."""
        self.known_ids[desired.address] = live.id
        self.taken_by[(live.kind, live.id)] = desired.key

    def key_after(self, kind: str, live_id: str) -> str | None:
        """The key a live resource has once the plan is applied, as far as the kinds planned so
        far say: the key of the manifest entry that took it (renamed with `was:` or through its
        pinned id, it is known by that one from now on), else its own; None when not read. A
        kind whose key names another (a translation's space) is matched by it, so that a
        rename and what names the renamed resource by its new name plan as one change."""
        taken = self.taken_by.get((kind, live_id))
        if taken is not None:
            return taken
        live = self.live.by_id.get((kind, live_id))
        return live.key if live is not None else None

    def live_id_of(self, address: str | None) -> str | None:
        """The live id an address stands for: a pinned manifest entry's id, else the live
        resource's. A reference to something renamed in the same plan still names the same id."""
        if address is None:
            return None
        desired = self.desired.by_address.get(address)
        if desired is not None and desired.pinned_id:
            return desired.pinned_id
        if address in self.known_ids:  # matched already: by key, or renamed (`was:`)
            return self.known_ids[address]
        live = self.live.by_address.get(address)
        return live.id if live else None

    def add(self, action: Action) -> Action:
        self.actions.append(action)
        self.actions_at[action.address].append(action)
        return action


class RunContext:
    """Apply-time state: the API client and the ids of resources, live or just created."""

    def __init__(self, api: Api, org_id: str, ids: dict[str, str]) -> None:
        self.api = api
        self.org_id = org_id
        self.ids = dict(ids)
        #: what the API answered to creates of this apply, by address: a later action skips a
        #: write whose effect the answer already shows
        self.answers: dict[str, dict[str, Any]] = {}

    def id_of(self, address: str) -> str:
        try:
            return self.ids[address]
        except KeyError:
            raise MissingId(
                f"{address} has no id yet: the action that creates it did not run"
            ) from None

    def resolve(self, value: Any) -> Any:
        """Replaces `{"$ref": address}` placeholders with the ids they stand for."""
        if isinstance(value, dict):
            if set(value) == {"$ref"}:
                return self.id_of(value["$ref"])
            return {k: self.resolve(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        return value


def ref(address: Any) -> Any:
    """A placeholder for the id of the resource at `address` (or a list of them)."""
    if isinstance(address, list):
        return [ref(item) for item in address]
    return {"$ref": address} if address else None


def _choices(named: list[LiveResource]) -> str:
    """How to name one of several live resources a name fits: by key where each has its own
    (a space's `Dev/Guides`), else by id."""
    keys = {r.key for r in named}
    if len(keys) == len(named):
        shown = ", ".join(f"{r.key!r} (id {r.id})" for r in sorted(named, key=lambda r: r.key))
        return f"{shown}; write one of those, or an id"
    return f"live ids {', '.join(sorted(r.id for r in named))}; use the id"
