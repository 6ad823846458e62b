"""Safety rails: plans that could wipe a kind or lock the token's user out are refused unless
forced (octoDNS's UnsafePlan). `protect: true` is enforced while planning and cannot be forced."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from docsync.core.errors import ApplyRefused
from docsync.core.model import Plan
from docsync.core.payloads import Fields
from docsync.core.state import LiveState

#: Kinds counted for the deletion threshold: what a stray manifest edit could wipe out.
_REMOVING = ("delete", "replace")


@dataclass(frozen=True)
class SafetyPolicy:
    delete_share: float = 0.30
    min_existing: int = 10
    force: bool = False


def deletion_threshold(plan: Plan, live: LiveState, policy: SafetyPolicy) -> list[str]:
    removing = Counter(a.kind for a in plan.actions if a.verb in _REMOVING)
    problems = []
    for kind, count in sorted(removing.items()):
        existing = len(live.by_kind.get(kind, []))
        if existing >= policy.min_existing and count > policy.delete_share * existing:
            problems.append(
                f"the plan deletes or replaces {count} of {existing} {kind} resources "
                f"({count / existing:.0%}), more than the {policy.delete_share:.0%} allowed"
            )
    return problems


def lockout(plan: Plan, live: LiveState) -> list[str]:
    """Changes that could take the token's own access away."""
    problems = []
    members = {r.address: r for r in live.by_kind.get("member", [])}
    me = next((m for m in members.values() if m.id == live.me), None) if live.me else None
    roles = {address: r.fields.get("role") for address, r in members.items()}
    touched = False
    for action in plan.actions:
        if action.kind == "member":
            touched = True
            if action.verb == "delete":
                roles.pop(action.address, None)
                if me is not None and action.live_id == me.id:
                    problems.append(f"{action.address} is the API token's own user: removing it")
                elif live.me is None:
                    # Fail closed: without GET /v1/user this delete may be the token's own user.
                    problems.append(
                        f"{action.address}: the API did not say who the API token's user is "
                        "(GET /v1/user), so this removal could be that user"
                    )
            elif isinstance(action.payload, Fields) and "role" in action.payload.fields:
                roles[action.address] = action.payload.fields["role"]
        if action.kind == "settings":
            sso = next((c for c in action.changes if c.field == "sso"), None)
            if sso is not None and sso.before and not sso.after:
                problems.append("settings: disables SSO enforcement for the organization")
            if sso is not None and sso.after and me is not None and not me.raw.get("sso"):
                problems.append(
                    "settings: enforces SSO while the API token's user is not an SSO member"
                )
        if action.kind == "saml" and action.verb in _REMOVING and me and me.raw.get("sso"):
            problems.append(
                f"{action.address}: the API token's user signs in with SSO: removing a SAML "
                "provider may lock it out"
            )
    if touched and members and "admin" not in roles.values():
        problems.append("the plan leaves the organization without an admin")
    return problems


def check(plan: Plan, live: LiveState, policy: SafetyPolicy) -> list[str]:
    """What crossed a rail; raises ApplyRefused unless forced. Returns the forced ones."""
    problems = deletion_threshold(plan, live, policy) + lockout(plan, live)
    if problems and not policy.force:
        raise ApplyRefused(
            "refusing this plan (pass --force to proceed anyway):\n  " + "\n  ".join(problems)
        )
    return problems
