"""Located problems in manifests: where (file:line:column, path) and what went wrong."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from docsync.core.paths import Path, format_path
from docsync.errors import DocsyncError

__all__ = ["Location", "ManifestError", "Path", "Problem", "format_path"]


@dataclass(frozen=True, order=True, slots=True)
class Location:
    """A 1-based position in a manifest file, as editors and terminals print it."""

    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Problem:
    """One mistake in a manifest; its message never contains a sensitive value. `choices`: the
    values allowed where a long list of them is (a language code), which the message is about
    and `str()` lists after it; the command line lists them once for many problems."""

    location: Location | None
    path: Path
    message: str
    choices: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.text()

    def text(self, *, listed: bool = True) -> str:
        """The located line; with `listed=False`, the choices said to be listed above."""
        parts = []
        if self.location is not None:
            parts.append(str(self.location))
        if self.path:
            parts.append(format_path(self.path))
        parts.append(self.message)
        line = ": ".join(parts)
        if not self.choices:
            return line
        if not listed:
            return f"{line} (allowed: the {len(self.choices)} values listed above)"
        return f"{line} (allowed: {', '.join(repr(choice) for choice in self.choices)})"

    def sort_key(self) -> tuple[int, str, int, int, str, str]:
        """Problems sort by file and line; those without a location come last."""
        loc = self.location
        if loc is None:
            return (1, "", 0, 0, format_path(self.path), self.message)
        return (0, loc.file, loc.line, loc.column, format_path(self.path), self.message)


def sort_problems(problems: Iterable[Problem]) -> list[Problem]:
    """Sorted by file, line and column, without repeats."""
    return sorted(set(problems), key=Problem.sort_key)


class ManifestError(DocsyncError):
    """Every problem found in one run; ``str()`` is one sorted line per problem."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: list[Problem] = sort_problems(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))
