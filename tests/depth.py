"""How many examples a property test draws: its own count in the suite, ten times that under
`bash scripts/test --deep` (DOCSYNC_DEEP=1), where exhaustive runs belong."""

from __future__ import annotations

import os

DEEP = os.environ.get("DOCSYNC_DEEP") == "1"

#: What a property test without a count of its own draws (Hypothesis' default).
DEFAULT = 100


def examples(count: int = DEFAULT) -> int:
    return count * 10 if DEEP else count
