"""The manifest's `policies:` block: each rule's model, and the offline check that its `match`
compiles as CEL (Common Expression Language). The CEL runtime is loaded only when a manifest
has rules, so `validate` of a manifest without any never pays for it. Evaluating the rules on a
plan is `docsync.policies`."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Any

from pydantic import Field

from docsync.core.entries import Model, explained
from docsync.manifest.context import CheckContext

if TYPE_CHECKING:
    from cel_expr_python import cel

#: what a rule's name may be: it is printed in plans, errors and notes, and parsed back from
#: a saved plan's notes (docsync.render.careful)
NAME_PATTERN = explained(
    r"^[A-Za-z0-9][A-Za-z0-9_.-]*$",
    "a rule's name starts with a letter or digit and holds only letters, digits, '_', '.' and '-'",
)
#: the one variable a rule sees
VARIABLE = "action"
_CEL_ERROR = re.compile(r"ERROR: <input>:(\d+):(\d+): (.*)")
_EXPECTING = re.compile(r" expecting \{.*\}$")


class PolicyRule(Model):
    """A rule checked on every action of every plan, after the plan is made."""

    name: str = Field(min_length=1, max_length=100, pattern=NAME_PATTERN)
    """Names the rule in the plan, in errors and in the notes of the actions it flags."""
    match: str = Field(min_length=1, max_length=4000)
    """A CEL expression over `action` (an action of the JSON plan, with `before` and `after`:
    the fields it changes, live and desired); true when the rule applies to the action."""
    deny: str | None = Field(default=None, min_length=1, max_length=500)
    """Refuse the plan when an action matches, saying this (write `deny` or `warn`)."""
    warn: str | None = Field(default=None, min_length=1, max_length=500)
    """Put a matching action under "Needs a careful look", saying this."""


def check_policies(ctx: CheckContext) -> None:
    """Each rule says `deny` or `warn` (one of them), its name is its own, nothing in it comes
    from env() (rules are printed in plans), and its `match` compiles to a true-or-false."""
    rules = ctx.data.get("policies")
    if not isinstance(rules, list):
        return  # absent, or not a list: the model says so
    seen: dict[str, Any] = {}
    for index, rule in enumerate(rules):
        if not isinstance(rule, dict):
            continue
        path = ("policies", index)
        for field in ("name", "match", "deny", "warn"):
            if field in rule and ctx.is_sensitive((*path, field)):
                ctx.report(
                    (*path, field),
                    "env() cannot give a policy's text: rules and their messages are shown in "
                    "every plan; write it in the manifest",
                )
        if ("deny" in rule) == ("warn" in rule):
            ctx.report(
                path,
                "a rule says either `deny: <why the plan is refused>` or `warn: <why the action "
                "needs a careful look>`" + (", not both" if "deny" in rule else ""),
            )
        name = rule.get("name")
        if isinstance(name, str):
            if name in seen:
                ctx.report(
                    (*path, "name"),
                    f"another rule is named {name!r} (at {ctx.where(seen[name])}): "
                    "give each rule its own name",
                )
            else:
                seen[name] = (*path, "name")
        match = rule.get("match")
        if isinstance(match, str) and match.strip():
            problem = compile_problem(match)
            if problem is not None:
                ctx.report((*path, "match"), problem)


def compile_problem(expression: str) -> str | None:
    """Why `expression` is not a rule's condition (said for people), or None when it is."""
    from cel_expr_python import cel

    try:
        compiled = _environment().compile(expression)
    except RuntimeError as error:
        return f"does not compile as CEL: {_explained(str(error), expression)}"
    given = compiled.return_type()
    if given != cel.Type.BOOL and given != cel.Type.DYN:
        name = given.name().lower()
        return (
            f"gives {'an' if name[:1] in 'aeiou' else 'a'} {name}, not true or false: a rule's "
            f'`match` is a condition, such as `{VARIABLE}.kind == "site"`'
        )
    return None


def compiled(expression: str) -> cel.Expression:
    """The compiled `match` of a rule that `check_policies` accepted."""
    return _environment().compile(expression)


@cache
def _environment() -> cel.Env:
    from cel_expr_python import cel

    return cel.NewEnv(variables={VARIABLE: cel.Type.DYN})


def _explained(message: str, expression: str) -> str:
    """The CEL compiler's first error, on one line, at its place in the expression."""
    found = _CEL_ERROR.search(message)
    if found is None:
        return message.splitlines()[0] if message else "unknown error"
    line, column, what = found.groups()
    where = f"column {column}" if "\n" not in expression else f"line {line}, column {column}"
    what = what.removesuffix(" [INVALID_ARGUMENT]").replace(" (in container '')", "").strip()
    what = _EXPECTING.sub("", what)
    if what.endswith("input '<EOF>'"):
        what += " (the expression ends too early)"
    if what.startswith("undeclared reference"):
        what += f" (a rule sees one variable, `{VARIABLE}`)"
    return f"{where}: {what[:1].lower()}{what[1:]}"
