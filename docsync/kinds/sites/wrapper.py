"""Production's wrapper section: a space added to a site that has nothing but site spaces at
its root lands in a section production makes itself, named after the site, which takes the
site's site spaces (docs/emulator.md, "Production as it answers": `wrapper-section`). A site
entry that writes its site spaces at its root means that section: the plan reads the site's
structure with the section's site spaces at the root (`unwrapped`), so it never deletes the
section to make them again (which production would wrap again, at every apply), and the apply
finds them there (`wrapped`). Production keeps the section's title when the site is renamed:
a rename by the plan renames the section with it (`note_renamed_wrapper`, `rename_wrapper`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docsync.core.context import RunContext
    from docsync.core.model import Action
    from docsync.core.state import LiveResource
    from docsync.kinds.kind import Kind


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


#: where a site read keeps that its structure was production's wrapper, read as the root's
WRAPPED = "_wrapped"
#: the note of a site's rename that renames its wrapper section too (read back by the apply,
#: so that a saved plan does the same)
RENAMES_WRAPPER = (
    "its section production made for its root site spaces, named after the site, is renamed with it"
)


def read_unwrapped(site: dict[str, Any]) -> None:
    """The site's structure read as its entry of root site spaces reads it, and whether it was
    production's wrapper (`WRAPPED`)."""
    structure = site.get("_structure")
    site["_structure"] = unwrapped(structure, site.get("title"))
    if site["_structure"] is not structure:
        site[WRAPPED] = True


def note_renamed_wrapper(action: Action, live: LiveResource) -> None:
    """A site renamed whose root site spaces production keeps in its wrapper renames the
    wrapper with it: production names it after the site when it makes it and keeps its title
    after, and the next plan would read a section the entry does not write, delete it and make
    its site spaces again."""
    if live.raw.get(WRAPPED) and any(c.field == "title" for c in action.changes):
        action.notes.append(RENAMES_WRAPPER)


def wrapper_requests(action: Action) -> int:
    """The structure read and the section's rename that a site's rename may send."""
    return 2 if RENAMES_WRAPPER in action.notes else 0


async def rename_wrapper(action: Action, run: RunContext, site: Kind) -> None:
    """After the site's rename: its wrapper, found in the structure as the one section titled
    as the site was, takes the site's new title (nothing when it is no longer there)."""
    title = next((c for c in action.changes if c.field == "title"), None)
    if RENAMES_WRAPPER not in action.notes or title is None:
        return
    assert action.live_id is not None
    held = wrapped(await site.send(run.api, "structure", org=run.org_id, id=action.live_id))
    if held is None or held.get("title") != title.before or held.get("sectionGroup"):
        return
    section, body = site.kinds.named("section"), {"title": title.after}
    await section.send(run.api, "update", body, org=run.org_id, site=action.live_id, id=held["id"])
