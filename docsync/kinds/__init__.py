"""Managed resource kinds in packages by family, each kind a module (its entry model,
declaration and code) beside the framework they share; the catalogue finds them and orders
them so that a kind comes after the kinds it refers to."""

from __future__ import annotations

from docsync.kinds.catalogue import CATALOGUE, KINDS, kind_named
from docsync.kinds.crud import CrudKind
from docsync.kinds.declaration import Field
from docsync.kinds.kind import Kind

__all__ = ["CATALOGUE", "KINDS", "CrudKind", "Field", "Kind", "kind_named"]
