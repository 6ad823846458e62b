"""What an apply will cost in requests, from the plan alone: the figure `plan -v` turns into
rate-limit windows before anything is sent.

Each action costs the requests the API needs for it: one write, none for the site space its
section's create makes, one more for fields a create body cannot carry (a site space's `path`,
unless the API happens to generate the same), the moves of a reorder (plus a structure read
where the API decides where new items go), a bulk upsert per 500 of a site's redirects, an
invite per role and a request per changed or removed grant. It is an estimate: an update that
touches several endpoints of a resource (a team's title and members) costs one per endpoint.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from docsync.core.model import Action, Plan
from docsync.kinds.catalogue import kind_named


def action_requests(action: Action) -> int:
    """The requests the API needs to carry out one action, as its kind counts them."""
    return kind_named(action.kind).requests(action)


def apply_requests(plan: Plan) -> int:
    """The requests an apply of `plan` sends when nothing fails."""
    return sum(action_requests(action) for action in plan.actions)


@dataclass(frozen=True)
class Budget:
    """An apply's requests against the server's rate limit (`X-RateLimit-Limit` per window)."""

    requests: int
    limit: int | None

    @property
    def windows(self) -> int | None:
        """Rate-limit windows the apply spans (None when the server sent no limit)."""
        if not self.limit:
            return None
        return max(1, math.ceil(self.requests / self.limit))

    def describe(self) -> str:
        text = f"apply: about {self.requests} requests"
        if self.windows is None:
            return text + " (the server sent no X-RateLimit-Limit: no budget known)"
        return (
            f"{text}, {self.windows} rate-limit window(s) of {self.limit} requests "
            "(X-RateLimit-Limit); apply paces itself to stay within them"
        )
