"""Sandboxed Jinja rendering of manifest values and ``*.yaml.j2`` files, with ``env()``."""

from __future__ import annotations

import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from docsync.manifest.template_work import TEMPLATE_FILE, WorkExceeded

if TYPE_CHECKING:
    from jinja2 import Template

    from docsync.manifest.sandbox import BoundedSandbox

_MISSING = object()
_MARKERS = ("{{", "{%", "{#")
TOKEN_VARIABLE = "DOCSYNC_TOKEN"
#: the compiled expressions a run keeps (`Renderer._pieces`): past this many different ones,
#: they are forgotten and compiled again
EXPRESSIONS_KEPT = 4096
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


@dataclass
class Renderer:
    """Renders templates with the run's variables and environment; remembers env() values."""

    variables: Mapping[str, Any] = field(default_factory=dict)
    environ: Mapping[str, str] = field(default_factory=dict)
    secrets: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._sandbox: BoundedSandbox | None = None
        self._used_env = False
        self._expressions: dict[str, Template] = {}

    @property
    def steps(self) -> int:
        """The steps of work this run's templates have taken (template_work)."""
        return self._sandbox.work.steps if self._sandbox is not None else 0

    @staticmethod
    def is_template(text: str) -> bool:
        """Plain strings are left alone, so most values cost nothing to 'render'."""
        return "{" in text and any(marker in text for marker in _MARKERS)

    def render_value(self, text: str) -> tuple[str, bool]:
        """Render one string value; the flag says whether env() supplied part of it."""
        self._used_env = False
        rendered = self._render(text, keep_trailing_newline=True)
        return rendered, self._used_env

    def render_file(self, text: str) -> str:
        """Render a whole ``*.yaml.j2`` file before it is parsed."""
        return self._render(text, keep_trailing_newline=True)

    @property
    def _env(self) -> BoundedSandbox:
        """The sandbox, made at the first template: jinja2 is loaded only by manifests that
        hold one (it costs a plain plan 17 ms of its start)."""
        if self._sandbox is None:
            import jinja2

            from docsync.manifest.sandbox import BoundedSandbox

            self._sandbox = BoundedSandbox(undefined=jinja2.StrictUndefined, autoescape=False)
            self._sandbox.globals["env"] = self._lookup_env
        return self._sandbox

    def _render(self, text: str, *, keep_trailing_newline: bool) -> str:
        import jinja2
        from jinja2.exceptions import SecurityError

        sandbox = self._env
        sandbox.keep_trailing_newline = keep_trailing_newline
        #: the line of the value the piece being rendered starts on: an error's line counts from it
        first = 1
        try:
            pieces = self._pieces(text) if keep_trailing_newline else None
            if pieces is None:
                pieces = [(sandbox.from_string(text), 1)]
            context = dict(self.variables)
            chunks: list[str] = []
            with sandbox.work.metered():
                for piece, starts in pieces:
                    first = starts
                    generated = (piece,) if isinstance(piece, str) else piece.generate(**context)
                    for chunk in generated:
                        sandbox.allow(len(chunk), "the template's text")
                        chunks.append(chunk)
            return "".join(chunks)
        except WorkExceeded as error:
            message = f"template stopped: {error} (loops too large?)"
            raise TemplateProblem(message, _template_line(error, first)) from None
        except jinja2.TemplateSyntaxError as error:
            raise TemplateProblem(f"template syntax error: {error.message}", error.lineno) from None
        except TemplateProblem as error:
            raise TemplateProblem(error.message, _template_line(error, first)) from None
        except jinja2.UndefinedError as error:
            message = f"template error: {self._scrub(str(error.message))}"
            if "is undefined" in message:
                message += " (variables come from --var and --var-file)"
            raise TemplateProblem(message, _template_line(error, first)) from None
        except SecurityError as error:
            message = f"template refused by the sandbox: {self._scrub(str(error))}"
            raise TemplateProblem(message, _template_line(error, first)) from None
        except RecursionError:
            raise TemplateProblem("template error: recursion too deep") from None
        except Exception as error:  # any failure of user template code is a manifest problem
            detail = self._scrub(str(error)) or type(error).__name__
            message = f"template error: {detail}"
            raise TemplateProblem(message, _template_line(error, first)) from None
        finally:
            sandbox.weights.forget()

    def _pieces(self, text: str) -> list[tuple[Template | str, int]] | None:
        """A template of text and `{{ ... }}` alone, as its text and its expressions, each
        expression compiled once a run (with the line it starts on): 8,000 values such as
        `Team {{ region | upper }} 7` are one compilation, not 8,000 (Jinja's compiler is
        nine tenths of rendering a small template). Rendered in turn, the pieces give what the
        whole template gives (`tests/manifest/test_template_pieces.py` holds them to it).
        None for anything else (a block, a comment, a line break Jinja would rewrite, a
        template Jinja refuses): it is compiled whole, as it always was."""
        import jinja2

        if "\r" in text:
            return None
        pieces: list[tuple[Template | str, int]] = []
        expression: list[str] = []
        start = 1
        try:
            for line, kind, value in self._env.lex(text):
                if kind == "data" and not expression:
                    pieces.append((value, line))
                elif kind == "variable_begin":
                    expression, start = [value], line
                elif not expression:
                    return None  # a block, a comment or raw text: the whole template
                else:
                    expression.append(value)
                    if kind == "variable_end":
                        pieces.append((self._expression("".join(expression)), start))
                        expression = []
        except jinja2.TemplateSyntaxError:
            return None  # compiled whole, for Jinja's own message and line
        return None if expression else pieces

    def _expression(self, source: str) -> Template:
        compiled = self._expressions.get(source)
        if compiled is None:
            if len(self._expressions) >= EXPRESSIONS_KEPT:
                self._expressions.clear()
            compiled = self._expressions[source] = self._env.from_string(source)
        return compiled

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


def _template_line(error: BaseException, first: int = 1) -> int | None:
    """The line of the template where `error` was raised, the template's lines counted from
    `first` (the line its piece starts on)."""
    line = None
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename == TEMPLATE_FILE and frame.lineno is not None:
            line = frame.lineno + first - 1
    return line
