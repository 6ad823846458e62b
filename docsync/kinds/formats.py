"""Files of production's own that `docsync export --format NAME` writes from one resource of a
kind, named by its title: a kind offers them (`Kind.formats`), so the command reaches them
through the catalogue (`Kinds.export_format`) without naming the kind."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from docsync.api import ApiClient


@dataclass(frozen=True)
class ExportFormat:
    """A file written from one resource (a site's structure as `gitbook-docs.yaml`): `read`
    reads it (the client, the organization's id, the title) and returns the document; a title
    that names nothing, or several, is a `LookupError` saying which there are."""

    name: str
    #: the file `--out DIR` writes it to
    file: str
    #: what it holds, for messages
    holds: str
    read: Callable[[ApiClient, str, str], Awaitable[Any]]
