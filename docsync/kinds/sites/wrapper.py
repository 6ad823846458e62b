"""Production's wrapper section: a space added to a site that has nothing but site spaces at
its root lands in a section production makes itself, named after the site, which takes the
site's site spaces (docs/emulator.md, "Production as it answers": `wrapper-section`). A site
entry that writes its site spaces at its root means that section: the plan reads the site's
structure with the section's site spaces at the root (`unwrapped`), so it never deletes the
section to make them again (which production would wrap again, at every apply), and the apply
finds them there (`wrapped`)."""

from __future__ import annotations

from typing import Any


def wrapped(structure: Any) -> dict[str, Any] | None:
    """The one section a site's structure read holds, when it holds nothing else: where a
    site without sections keeps the site spaces production wrapped."""
    if not isinstance(structure, dict) or structure.get("type") == "siteSpaces":
        return None
    items = structure.get("structure") or []
    if len(items) != 1 or not isinstance(items[0], dict):
        return None
    only: dict[str, Any] = items[0]
    return only if only.get("object", "site-section") == "site-section" else None


def unwrapped(structure: Any, site_title: Any) -> Any:
    """A structure read as a site entry writing only root site spaces reads it: production's
    wrapper section (its one section, named after the site) read as the root's site spaces."""
    held = wrapped(structure)
    if held is None or held.get("title") != site_title or held.get("sectionGroup"):
        return structure
    return {**structure, "type": "siteSpaces", "structure": held.get("siteSpaces") or []}
