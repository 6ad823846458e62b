"""Sandboxed Jinja rendering of manifest values and ``*.yaml.j2`` files, with ``env()``."""

from __future__ import annotations

import operator
import re
import sys
import time
import traceback
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import jinja2
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

MAX_TEXT = 1_000_000
#: seconds one template (a value, or a whole `*.yaml.j2` file) may run
TIME_BUDGET = 2.0
_TEMPLATE_NAME = "<template>"
_MISSING = object()
_MARKERS = ("{{", "{%", "{#")
TOKEN_VARIABLE = "DOCSYNC_TOKEN"
#: what docsync keeps its own secrets in, never a manifest's: why each is refused to env()
_OWN_SECRETS = {
    TOKEN_VARIABLE: "the API token is for docsync's requests, never for a manifest value (it "
    "would be sent to the API as data)",
    "DOCSYNC_PLAN_KEY": "the plan key keys the digests of saved plans, never a manifest value "
    "(it would be sent to the API as data)",
}


class TemplateProblem(Exception):
    """A template could not be rendered; ``line`` is 1-based within the template, if known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class _Sandbox(ImmutableSandboxedEnvironment):
    """Jinja's immutable sandbox, also refusing what would build enormous values in one C call
    (where no time budget can interrupt it): repetition, powers, padding widths, lipsum."""

    intercepted_binops = frozenset({"*", "**", "%"})

    def call_binop(self, context: Any, op: str, left: Any, right: Any) -> Any:
        if op == "**" and isinstance(right, int | float) and abs(right) > 64:
            raise SecurityError("exponents above 64 are not allowed in templates")
        if op == "*":
            size = _repeat_size(left, right)
            if size > MAX_TEXT:
                raise SecurityError(f"the result would be longer than {MAX_TEXT} items")
            return operator.mul(left, right)
        if op == "%":
            _check_spec(left)
        return super().call_binop(context, op, left, right)

    def wrap_str_format(self, value: Any) -> Any:
        _check_spec(getattr(value, "__self__", None))  # `'{:>999999999}'.format(1)`
        return super().wrap_str_format(value)

    def call(self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        # `'x'.ljust(10**9)`, `'{:>999999999}'.format(1)`: the size is in the arguments.
        for value in (*args, *kwargs.values()):
            if isinstance(value, int) and not isinstance(value, bool) and value > MAX_TEXT:
                raise SecurityError(f"arguments above {MAX_TEXT} are not allowed in templates")
        return super().call(__context, __obj, *args, **kwargs)


_HUGE_SPEC = re.compile(r"%[-#0 +]*\d{7,}|%[-#0 +]*\d*\.\d{7,}|\{[^{}]*:[^{}]*\d{7,}[^{}]*\}")
MAX_WIDTH = 10_000
MAX_LIPSUM = 100


def _check_spec(text: Any) -> None:
    """A format string asking for a width or precision of a million or more is refused."""
    if isinstance(text, str) and _HUGE_SPEC.search(text):
        raise SecurityError("format widths of a million or more are not allowed in templates")


def _bounded_filters(env: _Sandbox) -> None:
    """Filters and globals whose size argument could take gigabytes, bounded first."""
    filters = env.filters
    fmt, indent, center = filters["format"], filters["indent"], filters["center"]

    def format_(value: Any, *args: Any, **kwargs: Any) -> Any:
        _check_spec(value)
        return fmt(value, *args, **kwargs)

    def width_of(width: Any) -> int:
        return len(width) if isinstance(width, str) else int(width)

    def indent_(value: Any, width: Any = 4, *args: Any, **kwargs: Any) -> Any:
        if width_of(width) > MAX_WIDTH:
            raise SecurityError(f"indent widths above {MAX_WIDTH} are not allowed")
        return indent(value, width, *args, **kwargs)

    def center_(value: Any, width: int = 80) -> Any:
        if width > MAX_WIDTH:
            raise SecurityError(f"center widths above {MAX_WIDTH} are not allowed")
        return center(value, width)

    lipsum: Any = env.globals["lipsum"]

    def lipsum_(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> Any:
        if n > MAX_LIPSUM or max > MAX_WIDTH:
            raise SecurityError(f"lipsum() is limited to {MAX_LIPSUM} paragraphs")
        return lipsum(n, html, min, max)

    filters.update(format=format_, indent=indent_, center=center_)
    env.globals["lipsum"] = lipsum_


class TemplateTimeout(Exception):
    """A template ran past its time budget."""


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Interrupts the template code running in this thread after `seconds`: a trace function
    checks the clock at each call and at each line of template code (nested loops)."""
    deadline = time.monotonic() + seconds
    previous = sys.gettrace()

    def check(frame: Any, event: str, arg: Any) -> Any:
        if time.monotonic() > deadline:
            raise TemplateTimeout(f"the template ran for more than {seconds:g} s")
        return check if frame.f_code.co_filename == _TEMPLATE_NAME else None

    sys.settrace(check)
    try:
        yield
    finally:
        sys.settrace(previous)


def _repeat_size(left: Any, right: Any) -> int:
    for seq, count in ((left, right), (right, left)):
        if isinstance(seq, str | list | tuple) and isinstance(count, int):
            return len(seq) * count
    return 0


@dataclass
class Renderer:
    """Renders templates with the run's variables and environment; remembers env() values."""

    variables: Mapping[str, Any] = field(default_factory=dict)
    environ: Mapping[str, str] = field(default_factory=dict)
    secrets: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._env = _Sandbox(undefined=jinja2.StrictUndefined, autoescape=False)
        self._env.globals["env"] = self._lookup_env
        _bounded_filters(self._env)
        self._used_env = False

    @staticmethod
    def is_template(text: str) -> bool:
        """Plain strings are left alone, so most values cost nothing to 'render'."""
        return any(marker in text for marker in _MARKERS)

    def render_value(self, text: str) -> tuple[str, bool]:
        """Render one string value; the flag says whether env() supplied part of it."""
        self._used_env = False
        rendered = self._render(text, keep_trailing_newline=True)
        return rendered, self._used_env

    def render_file(self, text: str) -> str:
        """Render a whole ``*.yaml.j2`` file before it is parsed."""
        return self._render(text, keep_trailing_newline=True)

    def _render(self, text: str, *, keep_trailing_newline: bool) -> str:
        self._env.keep_trailing_newline = keep_trailing_newline
        try:
            template = self._env.from_string(text)
            chunks: list[str] = []
            size = 0
            with time_budget(TIME_BUDGET):
                for chunk in template.generate(**dict(self.variables)):
                    size += len(chunk)
                    if size > 10 * MAX_TEXT:
                        limit = 10 * MAX_TEXT
                        raise SecurityError(f"the output is longer than {limit} characters")
                    chunks.append(chunk)
            return "".join(chunks)
        except TemplateTimeout as error:
            message = f"template stopped: {error} (loops too large?)"
            raise TemplateProblem(message, _template_line(error)) from None
        except jinja2.TemplateSyntaxError as error:
            raise TemplateProblem(f"template syntax error: {error.message}", error.lineno) from None
        except TemplateProblem as error:
            raise TemplateProblem(error.message, _template_line(error)) from None
        except jinja2.UndefinedError as error:
            message = f"template error: {self._scrub(str(error.message))}"
            if "is undefined" in message:
                message += " (variables come from --var and --var-file)"
            raise TemplateProblem(message, _template_line(error)) from None
        except SecurityError as error:
            message = f"template refused by the sandbox: {self._scrub(str(error))}"
            raise TemplateProblem(message, _template_line(error)) from None
        except RecursionError:
            raise TemplateProblem("template error: recursion too deep") from None
        except Exception as error:  # any failure of user template code is a manifest problem
            detail = self._scrub(str(error)) or type(error).__name__
            message = f"template error: {detail}"
            raise TemplateProblem(message, _template_line(error)) from None

    def _lookup_env(self, name: Any = _MISSING, default: Any = _MISSING) -> str:
        if not isinstance(name, str) or not name:
            raise TemplateProblem("env() needs the name of an environment variable, as text")
        if name in _OWN_SECRETS:
            raise TemplateProblem(f"env('{name}') is refused: {_OWN_SECRETS[name]}")
        self._used_env = True
        if name in self.environ:
            value = self.environ[name]
        elif default is not _MISSING:
            value = default if isinstance(default, str) else str(default)
        else:
            hint = f"set it, or give a default: env('{name}', '...')"
            raise TemplateProblem(f"environment variable {name} is not set; {hint}")
        if value:
            self.secrets.add(value)
        return value

    def _scrub(self, message: str) -> str:
        for secret in sorted(self.secrets, key=len, reverse=True):
            message = message.replace(secret, "(sensitive)")
        return message


def _template_line(error: BaseException) -> int | None:
    line = None
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename == _TEMPLATE_NAME:
            line = frame.lineno
    return line
