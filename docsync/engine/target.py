"""`--target ADDRESS`: a partial plan, as Terraform's `-target`. Only the actions on the
resources named (and on the parts of them: a site's sections and site spaces) are kept, with
every action they depend on, so the partial plan still applies in a valid order. Actions that
depend on a targeted one are not included: like Terraform, a targeted run is for exceptions
(repairing one resource, a first step of a migration), and the plan says it is partial."""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Sequence
from dataclasses import replace

from docsync.core.errors import PlanError
from docsync.core.model import Action, Kept, Plan

_PARTIAL = (
    "this plan is partial (--target {targets}): other changes the manifests ask for are not in "
    "it; plan without --target to see them all"
)


#: one step of an address: a kind and its key (`team["Platform"]`, `grant[team "Writers"]`) or
#: a part's name (`redirects`); `*` and `?` match any text anywhere (`team[*]`: every team)
_STEP = re.compile(
    r'(?P<name>[A-Za-z_*?][\w*?]*)(?P<key>\[(?:(?:\w+ )?"(?:[^"\\]|\\.)*"|[*?]+)\])?'
)
_FORM = 'kind["key"], its parts joined by "." (site["Docs"].section["Guides"])'


class UnknownTarget(PlanError):
    """A `--target` that names nothing the manifests or the organization have."""


def address_problem(target: str, kinds: Collection[str], parts: Collection[str]) -> str | None:
    """What is wrong with a `--target` address, for a usage error (None: nothing): its form,
    a kind written without its key or a part with one, or a name that is neither (`kinds`:
    bracketed; `parts`: bare, `redirects`). A suggestion is the whole address, written right."""
    steps: list[re.Match[str]] = []
    at = 0
    while True:
        found = _STEP.match(target, at)
        end = found.end() if found else at
        if found is None or (end < len(target) and target[end] != "."):
            quoted = re.sub(r'\[([^\]"]+)\]', r'["\1"]', target)
            hint = f"; did you mean {quoted!r}?" if quoted != target else ""
            return f"not an address: expected {_FORM}, got {target!r}{hint}"
        steps.append(found)
        if end == len(target):
            break
        at = end + 1
    for step in steps:
        name, key = step["name"], step["key"]
        if "*" in name or "?" in name or name in (kinds if key else parts):
            continue

        def written(step_text: str, step: re.Match[str] = step) -> str:
            return f"{target[: step.start()]}{step_text}{target[step.end() :]}"

        if name in kinds:
            one, every = written(name + '["..."]'), written(name + "[*]")
            return (
                f"{name!r} in {target!r} is a kind: name one by its key, {one!r}, or every "
                f"one, {every!r}"
            )
        if name in parts:
            return f"{name!r} in {target!r} is a part, named without a key: {written(name)!r}"
        close = difflib.get_close_matches(name, sorted({*kinds, *parts}), n=1)
        unknown = f"no {'kind' if key else 'part'} {name!r} in {target!r}"
        if not close:
            return f"{unknown} (an address is {_FORM})"
        fixed = close[0] + (key or "[*]") if close[0] in kinds else close[0]
        return f"{unknown}; did you mean {written(fixed)!r}?"
    return None


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
    _known(plan, targets, patterns)
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


def _known(plan: Plan, targets: Sequence[str], patterns: Sequence[re.Pattern[str]]) -> None:
    """Refuses a target that matches nothing the manifests write or the organization has (as
    Terraform refuses one not in configuration or state), naming the closest addresses; a plan
    read back from a file no longer knows them, and keeps its targets' warnings."""
    made_from = plan.made_from
    if made_from is None:
        return
    known = {*made_from.desired.by_address, *made_from.live.by_address}
    known |= {a.address for a in plan.actions}
    problems = []
    for target, pattern in zip(targets, patterns, strict=True):
        if any(covers(pattern, address) for address in known):
            continue
        close = difflib.get_close_matches(target, sorted(known), n=3)
        named = f"; the closest: {', '.join(close)}" if close else ""
        problems.append(
            f"--target {target}: no such resource in the manifests or the organization{named}"
        )
    if problems:
        raise UnknownTarget("\n".join(problems))
