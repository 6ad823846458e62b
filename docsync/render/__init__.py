"""Renderings of a plan. The format names live here, apart from the renderers, so that a
command's `--help` lists them without loading any renderer."""

FORMATS = ("text", "markdown", "json")
