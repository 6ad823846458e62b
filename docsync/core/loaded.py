"""What planning needs of a loaded manifest, as protocols: the core and the kinds stand below
the manifest package, which fulfils them (`docsync.manifest.LoadedManifest`, its `Manifest`)
without either importing it."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Protocol

from docsync.core.paths import Path


class ManifestDoc(Protocol):
    """A validated manifest: its organization, `prune`, and one attribute per section (a list
    of entry models, or the one entry of a singleton)."""

    @property
    def organization(self) -> str: ...

    @property
    def prune(self) -> Any: ...

    def __getattr__(self, name: str) -> Any: ...


class LoadedView(Protocol):
    """A manifest with where each value was written and which values are secret."""

    @property
    def manifest(self) -> ManifestDoc: ...

    @property
    def sensitive(self) -> Collection[Path]: ...

    def location(self, path: Path) -> object | None:
        """Where the value at `path` was written (its `str` is `file:line:column`), or None."""

    def is_sensitive(self, path: Path) -> bool: ...
