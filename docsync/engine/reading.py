"""What the read phase is doing, for a status line: which kinds are read and which still are."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass
class ReadWatch:
    """Filled in by `read_live` as it goes; the command that shows it decides how and where.

    `pending` are the manifest sections (`teams`, `sites`) still being read, in catalogue order;
    `total` is 0 until the organization is found and the kinds to read are known.
    """

    pending: list[str] = field(default_factory=list)
    total: int = 0

    @property
    def done(self) -> int:
        """How many kinds have been read."""
        return self.total - len(self.pending)

    def start(self, sections: Sequence[str]) -> None:
        """The kinds about to be read, all at once."""
        self.pending = list(sections)
        self.total = len(self.pending)

    def finish(self, section: str) -> None:
        """One kind is read (its nested reads included: a site's structure with the site)."""
        if section in self.pending:
            self.pending.remove(section)
