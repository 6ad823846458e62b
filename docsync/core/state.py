"""Desired and live state, normalized to one shape per kind so that they can be compared."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

T = TypeVar("T")
E = TypeVar("E", bound=BaseModel)


@dataclass
class LiveResource:
    """A resource as the API shows it, with fields in manifest shape and references as addresses."""

    kind: str
    id: str
    key: str
    address: str
    name: str
    fields: dict[str, Any]
    raw: dict[str, Any] = field(default_factory=dict)
    refs: set[str] = field(default_factory=set)
    parent: str | None = None
    #: why what was read of it cannot be relied on (the API answered a field its kind uses
    #: otherwise): it is left out of the plan, named, and so is what depends on it
    odd: str | None = None
    #: whether its key could not be read either (an entry written for it cannot be told from
    #: a new one: the creates of its list are held back)
    unkeyed: bool = False


@dataclass
class DesiredResource:
    """A manifest entry: only the fields the user wrote, references still as written."""

    kind: str
    key: str
    address: str
    name: str
    fields: dict[str, Any]
    path: tuple[str | int, ...]
    pinned_id: str | None = None
    absent: bool = False
    protect: bool = False
    parent: str | None = None
    entry: BaseModel | None = None

    def written(self, name: str) -> Any:
        """What the entry writes under `name` (None: not written): a field of its model, or a
        list or part the catalogue adds to it (a site's `sections`, `redirects`)."""
        return getattr(self.entry, name, None)

    def writes(self, name: str) -> bool:
        """Whether the entry writes `name` at all (a `null` written is written)."""
        return self.entry is not None and name in self.entry.model_fields_set

    def entry_as(self, model: type[E]) -> E:
        """The entry as the model its kind declares (a bug when it is another)."""
        if not isinstance(self.entry, model):
            raise TypeError(f"{self.address}: expected a {model.__name__}, got {self.entry!r}")
        return self.entry

    @property
    def was(self) -> str | None:
        """The name it had (`was:`): a rename in place, matched to the live resource so named."""
        found = getattr(self.entry, "was", None)
        return str(found) if found is not None else None


class LiveState:
    """Every live resource read for a plan, indexed by kind, address and id."""

    def __init__(self, organization: dict[str, Any]) -> None:
        self.organization = organization
        self.by_kind: dict[str, list[LiveResource]] = defaultdict(list)
        self.by_address: dict[str, LiveResource] = {}
        self.by_id: dict[tuple[str, str], LiveResource] = {}
        self.fetched: set[str] = set()
        #: what the API hid from the token's role, not planned: a manifest section (`sites`)
        #: or a resource's part (`site["Docs"].shareLinks`) -> why
        self.unread: dict[str, str] = {}
        #: what the API answered otherwise than docsync relies on, not planned either: a
        #: manifest section or a resource's part -> why (an apply goes on with the rest)
        self.odd: dict[str, str] = {}
        #: plain address -> ids of the live resources that share it (each has its own address)
        self.ambiguous: dict[str, list[str]] = {}
        #: the id of the API token's own user, when the API says
        self.me: str | None = None
        #: (kind, name or key) -> the resources that have it: references resolve without scans
        self.named: dict[tuple[str, str], list[LiveResource]] = defaultdict(list)
        self._folded: dict[tuple[str, str], LiveResource] | None = None
        self._derived: dict[str, Any] = {}
        #: what a kind read besides its resources, by kind (an integration's schemas)
        self.read_aside: dict[str, Any] = {}

    @property
    def org_id(self) -> str:
        return str(self.organization["id"])

    def add(self, resource: LiveResource) -> None:
        """Indexes a resource. Two with one key (the API allows it) each get an address with
        their id, so that a manifest entry pinning one by `id:` still plans; an entry naming
        that key without `id:` is refused by `ambiguity`."""
        plain = resource.address
        existing = self.by_address.get(plain)
        if existing is not None:
            del self.by_address[plain]
            existing.address = f"{plain}(id {existing.id})"
            self.by_address[existing.address] = existing
            self.ambiguous[plain] = [existing.id]
        if plain in self.ambiguous:
            self.ambiguous[plain].append(resource.id)
            resource.address = f"{plain}(id {resource.id})"
        self.by_kind[resource.kind].append(resource)
        self.by_address[resource.address] = resource
        self.by_id[(resource.kind, resource.id)] = resource
        for name in {resource.name, resource.key}:
            self.named[(resource.kind, name)].append(resource)
        self._folded = None
        self._derived.clear()

    def derived(self, name: str, build: Callable[[LiveState], T]) -> T:
        """An index a kind derives from the whole live state (a team's grants across every
        resource), built once and kept until a resource is added: asked per resource, a scan
        each time would make a plan quadratic in the organization's size."""
        if name not in self._derived:
            self._derived[name] = build(self)
        value: T = self._derived[name]
        return value

    def by_folded_key(self, kind: str, key: str) -> LiveResource | None:
        """A resource by its key in any case (emails): the first one read."""
        if self._folded is None:
            self._folded = {}
            for group in self.by_kind.values():
                for r in group:
                    self._folded.setdefault((r.kind, r.key.casefold()), r)
        return self._folded.get((kind, key.casefold()))

    def ambiguity(self, kind: str, plain: str) -> str | None:
        """The problem with matching `plain` by key, when several live resources have it."""
        ids = self.ambiguous.get(plain)
        if not ids:
            return None
        return (
            f"{plain}: {len(ids)} live {kind}s have this key (ids {', '.join(ids)}); pin the "
            "one you mean with `id:` in the manifest, or rename the others"
        )

    def address_of(self, kind: str, resource_id: str | None) -> str | None:
        if resource_id is None:
            return None
        found = self.by_id.get((kind, resource_id))
        return found.address if found else None


class DesiredState:
    """Every manifest entry, by kind and address."""

    def __init__(self) -> None:
        self.by_kind: dict[str, list[DesiredResource]] = defaultdict(list)
        self.by_address: dict[str, DesiredResource] = {}
        #: (kind, name, key or pinned id) -> addresses of the entries (not absent) that have it
        self.named: dict[tuple[str, str], set[str]] = defaultdict(set)

    def add(self, resource: DesiredResource) -> None:
        self.by_kind[resource.kind].append(resource)
        self.by_address.setdefault(resource.address, resource)
        if not resource.absent:
            for name in {resource.name, resource.key, resource.pinned_id}:
                if name is not None:
                    self.named[(resource.kind, name)].add(resource.address)
