"""Renderings of a plan. The format names and the Markdown plan's size limits live here, apart
from the renderers, so that a command's `--help` shows them without loading any renderer."""

FORMATS = ("text", "markdown", "json")

#: GitHub refuses comments over 65,536 characters; keep room for a wrapper around ours.
DEFAULT_BUDGET = 60_000
#: The smallest budget that holds a plan's summary and the note of what was left out.
MIN_BUDGET = 4_000
GITHUB_LIMIT = 65_536
