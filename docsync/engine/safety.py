"""Safety rails: plans that could wipe a kind or lock the token's user out are refused unless
forced (octoDNS's UnsafePlan). `protect: true` is enforced while planning and cannot be forced."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from docsync.core.errors import ApplyRefused
from docsync.core.lockout import REMOVING, Lockout
from docsync.core.model import Action, Plan
from docsync.core.state import LiveState
from docsync.kinds.catalogue import CATALOGUE, KINDS

if TYPE_CHECKING:
    from docsync.manifest.models import Safety, SafetyLimits


@dataclass(frozen=True)
class Limits:
    """One kind's thresholds: shares of its live resources a plan may delete (or replace) and
    update, counted only when at least `min_existing` exist (octoDNS's defaults: 30% of 10)."""

    delete_share: float = 0.30
    update_share: float | None = None
    min_existing: int = 10


@dataclass(frozen=True)
class SafetyPolicy:
    delete_share: float = 0.30
    min_existing: int = 10
    force: bool = False
    update_share: float | None = None
    #: kind name (`team`) -> its own limits, from the manifest's `safety: {kinds: ...}`
    per_kind: dict[str, Limits] = field(default_factory=dict)

    def limits(self, kind: str) -> Limits:
        default = Limits(self.delete_share, self.update_share, self.min_existing)
        return self.per_kind.get(kind, default)

    @classmethod
    def from_manifest(
        cls, safety: Safety | None, *, force: bool = False, max_delete_share: float | None = None
    ) -> SafetyPolicy:
        """The manifest's `safety:` block; `--max-delete-share` wins over it for every kind."""
        base = Limits()
        if safety is not None:
            base = _limits(safety, base)
        per_kind = {}
        for section, limits in (safety.kinds if safety else {}).items():
            per_kind[CATALOGUE.by_section(section).name] = _limits(limits, base)
        if max_delete_share is not None:
            base = replace(base, delete_share=max_delete_share)
            per_kind = {k: replace(v, delete_share=max_delete_share) for k, v in per_kind.items()}
        return cls(base.delete_share, base.min_existing, force, base.update_share, per_kind)


def _limits(written: SafetyLimits, base: Limits) -> Limits:
    return Limits(
        base.delete_share if written.max_delete_share is None else written.max_delete_share,
        base.update_share if written.max_update_share is None else written.max_update_share,
        base.min_existing if written.min_existing is None else written.min_existing,
    )


def deletion_threshold(plan: Plan, live: LiveState, policy: SafetyPolicy) -> list[str]:
    removing = Counter(a.kind for a in plan.actions if a.verb in REMOVING)
    updating = Counter(a.kind for a in plan.actions if a.verb == "update")
    problems = []
    for kind in sorted(set(removing) | set(updating)):
        limits = policy.limits(kind)
        existing = len(live.by_kind.get(kind, []))
        held = (kind, existing, limits.min_existing)
        problems += _over("deletes or replaces", removing[kind], held, limits.delete_share)
        problems += _over("updates", updating[kind], held, limits.update_share)
    return problems


def _over(does: str, count: int, held: tuple[str, int, int], share: float | None) -> list[str]:
    """The rail `count` of a kind's live resources (`held`: the kind, how many exist, and
    from how many on a share counts) crosses. A share counts only from that many on (a third
    of three is noise), except a share of 0, which reads as "none" and means it: any delete
    (or update) of the kind is refused."""
    kind, existing, min_existing = held
    if share is None or count == 0:
        return []
    said = f"the plan {does} {count} of {existing} {kind} resources"
    if share == 0:
        return [f"{said}, and the share allowed is 0 (none)"]
    if existing < min_existing or count <= share * existing:
        return []
    return [f"{said} ({count / existing:.0%}), more than the {share:.0%} allowed"]


def lockout(plan: Plan, live: LiveState) -> list[str]:
    """Changes that could take the token's own access away, as each kind tells (`Kind.lockout`)."""
    guard = Lockout(live, plan.actions)
    by_kind: dict[str, list[Action]] = defaultdict(list)
    for action in plan.actions:
        by_kind[action.kind].append(action)
    for kind in KINDS:
        kind.lockout(by_kind[kind.name], guard)
    return guard.problems


def check(plan: Plan, live: LiveState, policy: SafetyPolicy) -> list[str]:
    """What crossed a rail; raises ApplyRefused unless forced. Returns the forced ones."""
    problems = deletion_threshold(plan, live, policy) + lockout(plan, live)
    if problems and not policy.force:
        raise ApplyRefused(
            "refusing this plan (pass --force to proceed anyway):\n  " + "\n  ".join(problems)
        )
    return problems
