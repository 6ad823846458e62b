"""A site whose structure Git Sync owns: the site has a Git Sync installation of its own, so its
repository's `gitbook-docs.yaml` (production's GitSyncSiteConfig, at the installation's project
directory) holds its sections, groups, site spaces and links, and every sync brings them from
there. A manifest writing them for that site would fight the repository: `validate` refuses them
where the entry installs Git Sync (offline), a plan where the site has an installation it keeps;
located, naming the file. Export leaves them out; `docsync export --site TITLE --format
gitbook-docs` writes them as that file (`gitbook_docs.py`)."""

from __future__ import annotations

from typing import Any

from docsync.core.checking import CheckView, Item
from docsync.core.context import PlanContext
from docsync.core.state import DesiredResource
from docsync.kinds.kind import Kinds
from docsync.kinds.nested.kind import every_nested_kind, nested_kinds
from docsync.kinds.sync.git_sync import GIT_SYNC

#: the file in the repository that holds a synced site's structure
FILE = "gitbook-docs.yaml"


def structure_lists(kinds: Kinds) -> tuple[str, ...]:
    """The lists of a site entry that write its structure (`sections`, `siteSpaces`, ...)."""
    return tuple(kind.section for kind in nested_kinds(kinds, "site"))


def _owned(title: Any, written: str) -> str:
    site = f"{title!r}" if isinstance(title, str) else "this site"
    return (
        f"the structure of {site} is Git Sync's: its sections, groups, site spaces and links "
        f"are in {FILE} in its repository (production's GitSyncSiteConfig), which every sync "
        f"imports; leave '{written}' out (`docsync export --site TITLE --format gitbook-docs` "
        f"writes the file), or uninstall Git Sync here ({GIT_SYNC.section}: null)"
    )


def check_owned(view: CheckView, items: list[Item], kinds: Kinds) -> None:
    """Offline: a site entry that installs Git Sync and writes a list of its structure."""
    lists = structure_lists(kinds)
    for path, site in items:
        if not isinstance(site.get(GIT_SYNC.section), dict):
            continue
        for written in (name for name in lists if name in site):
            view.report((*path, written), _owned(site.get("title"), written), key=True)


def refuse_owned(desired: DesiredResource, ctx: PlanContext, kinds: Kinds) -> None:
    """A located problem for each list of its structure a synced site's entry writes."""
    for written in (name for name in structure_lists(kinds) if desired.writes(name)):
        ctx.problem((*desired.path, written), _owned(desired.name, written))


def after_uninstall(desired: DesiredResource, ctx: PlanContext, kinds: Kinds) -> None:
    """The changes of a site's structure wait for the uninstall of its Git Sync that gives the
    structure back, so that no sync brings the repository's back over them."""
    own = f"{desired.address}.{GIT_SYNC.section}"
    uninstall = next((a for a in ctx.actions_at[own] if a.verb == "delete"), None)
    if uninstall is None:
        return
    structure = {kind.name for kind in every_nested_kind(kinds)}
    for action in ctx.actions:
        if action.kind in structure and action.address.startswith(f"{desired.address}."):
            action.depends_on.append(uninstall.key)
