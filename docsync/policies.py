"""Policies on plans: each rule of the manifest's `policies:` is evaluated on each action of the
plan as the JSON plan shows it, with `before` and `after` added (the fields it changes, live and
desired; a sensitive value stays the JSON plan's marker). A `warn` rule that matches leaves a
note on the action, which puts it under "Needs a careful look" (docsync.render.careful); a
`deny` rule that matches refuses the plan, every violation listed.

A rule that cannot be evaluated on an action (it reads a field the action does not have) stops
the plan: a rule that silently passes is worse than none, as Kubernetes' admission policies
fail closed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from docsync.core.errors import ApplyRefused, PlanError
from docsync.core.model import Plan
from docsync.manifest.policies import VARIABLE, compiled
from docsync.render.careful import policy_note

if TYPE_CHECKING:
    from docsync.manifest import LoadedManifest


@dataclass(frozen=True)
class Violation:
    """An action a `deny` rule matched."""

    rule: str
    message: str
    #: the action's key, `update site["Docs"]`
    action: str
    #: the manifest entry behind the action (file:line:column), when it has one
    location: str | None
    #: where the rule is written
    rule_location: str | None

    def __str__(self) -> str:
        rule = f" ({self.rule_location})" if self.rule_location else ""
        where = f" ({self.location})" if self.location else ""
        return f"policy {self.rule}{rule} denies {self.action}{where}: {self.message}"


class PolicyDenied(ApplyRefused):
    """The plan matched `deny` rules: it is neither saved nor applied."""

    def __init__(self, violations: list[Violation]) -> None:
        self.violations = violations
        super().__init__(
            f"the plan is refused by the manifest's policies ({len(violations)} violation(s); "
            "nothing was changed):\n  " + "\n  ".join(map(str, violations))
        )


class PolicyFailed(PlanError):
    """A rule could not be evaluated on an action of the plan."""


def action_input(document: dict[str, Any]) -> dict[str, Any]:
    """What a rule sees as `action`: the action's JSON document, plus `before` and `after`, the
    fields it changes mapped to their live and desired values (a field absent on a side is not
    in that side's map: a create has no `before`, a delete no `after`)."""
    verb, changes = document["verb"], document["changes"]
    if verb in ("create", "restore"):
        before = {}
    elif verb == "replace":  # shows the resource made anew: an old value only where one was
        before = {c["field"]: c["before"] for c in changes if c["before"] is not None}
    else:
        before = {c["field"]: c["before"] for c in changes}
    after = {} if verb == "delete" else {c["field"]: c["after"] for c in changes}
    return {**document, "before": before, "after": after}


def check(plan: Plan, loaded: LoadedManifest) -> list[Violation]:
    """Evaluates every rule on every action of `plan`: notes the `warn` rules that match (in
    place), and returns what the `deny` rules refuse. Raises PolicyFailed, naming the rule and
    the action, when a rule cannot be evaluated on one."""
    rules = loaded.manifest.policies
    if not rules:
        return []
    # Loaded for a manifest with rules only: a plan without them (most) never pays for them.
    from cel_expr_python import cel

    from docsync.render.json import action_document

    programs = [(index, rule, compiled(rule.match)) for index, rule in enumerate(rules)]
    violations: list[Violation] = []
    failures: dict[str, list[str]] = {}  # per rule: the first failure is enough to fix it
    for action in plan.actions:
        seen = {VARIABLE: action_input(action_document(action).model_dump(mode="json"))}
        for index, rule, program in programs:
            where = loaded.location(("policies", index, "match"))
            result = program.eval(data=seen)
            if result.type() == cel.Type.ERROR or not isinstance(result.value(), bool):
                failures.setdefault(rule.name, []).append(
                    f"{where}: policy {rule.name} cannot be evaluated on {action.key}: "
                    f"{_failure(result, cel)}"
                )
            elif result.value() and rule.deny is not None:
                rule_where = loaded.location(("policies", index))
                violations.append(
                    Violation(
                        rule.name,
                        rule.deny,
                        action.key,
                        action.location,
                        str(rule_where) if rule_where else None,
                    )
                )
            elif result.value() and rule.warn is not None:
                note = policy_note(rule.name, rule.warn)
                if note not in action.notes:
                    action.notes.append(note)
    if failures:
        raise PolicyFailed(
            "\n".join(
                first + (f" (and on {len(rest)} more action(s))" if rest else "")
                for first, *rest in failures.values()
            )
        )
    return violations


def enforce(plan: Plan, loaded: LoadedManifest) -> None:
    """`check`, raising PolicyDenied when a `deny` rule matched."""
    violations = check(plan, loaded)
    if violations:
        raise PolicyDenied(violations)


def _failure(result: Any, cel: Any) -> str:
    if result.type() != cel.Type.ERROR:
        return f"it gives a {result.type().name().lower()}, not true or false"
    text = str(result.value())
    if text.startswith("NOT_FOUND: Key not found in map : "):
        return (
            f"the action has no {text.rsplit(': ', 1)[-1]}; guard what an action may lack, "
            'as `"role" in action.after && action.after["role"] == "admin"`'
        )
    return text
