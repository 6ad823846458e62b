"""`--target ADDRESS`: a partial plan, as Terraform's `-target`. Only the actions on the
resources named (and on the parts of them: a site's sections and site spaces) are kept, with
every action they depend on, so the partial plan still applies in a valid order. Actions that
depend on a targeted one are not included: like Terraform, a targeted run is for exceptions
(repairing one resource, a first step of a migration), and the plan says it is partial."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from docsync.core.model import Action, Kept, Plan

_PARTIAL = (
    "this plan is partial (--target {targets}): other changes the manifests ask for are not in "
    "it; plan without --target to see them all"
)


def _pattern(target: str) -> re.Pattern[str]:
    """A glob on addresses: `*` any text, `?` one character; brackets and quotes are literal
    (they are part of addresses: `team["eng-*"]`)."""
    parts = [".*" if c == "*" else "." if c == "?" else re.escape(c) for c in target]
    return re.compile("".join(parts))


def covers(target: re.Pattern[str], address: str) -> bool:
    """The address itself, or a part of it (`site["Docs"]` covers its sections)."""
    if target.fullmatch(address):
        return True
    return any(
        target.fullmatch(address[:index])
        for index, char in enumerate(address)
        if char == "." and address[index - 1] == "]"
    )


def narrow(plan: Plan, targets: Sequence[str]) -> Plan:
    """The actions on the targets and what they depend on, in plan order; unmanaged resources
    on the targets only. A target that names no action is reported in the plan's warnings."""
    if not targets:
        return plan
    patterns = [_pattern(t) for t in targets]
    by_key = {action.key: action for action in plan.actions}
    keep: set[str] = set()
    todo = [a.key for a in plan.actions if any(covers(p, a.address) for p in patterns)]
    while todo:
        key = todo.pop()
        if key in keep or key not in by_key:
            continue
        keep.add(key)
        todo.extend(by_key[key].depends_on)
    warnings = [_PARTIAL.format(targets=", ".join(targets))]
    warnings += [
        f"--target {target}: no change planned for it"
        for target, pattern in zip(targets, patterns, strict=True)
        if not any(covers(pattern, a.address) for a in plan.actions)
    ]
    actions = [a for a in plan.actions if a.key in keep]
    return replace(
        plan,
        actions=actions,
        unmanaged=[u for u in plan.unmanaged if any(covers(p, u.address) for p in patterns)],
        warnings=[*plan.warnings, *warnings],
        targets=list(targets),
        kept=[k for k in plan.kept if _still_shown(k, actions)],
    )


def _still_shown(kept: Kept, actions: Sequence[Action]) -> bool:
    """A kept part stays while the partial plan still changes a part of its kind on the same
    resource (a resource's access table keeps who keeps access)."""
    return any(a.kind == kept.kind and a.address.startswith(f"{kept.parent}.") for a in actions)
