"""Managed resource kinds in packages by family, each kind a module (its entry model,
declaration and code) beside the framework they share; the catalogue finds them and orders
them so that a kind comes after the kinds it refers to."""

from __future__ import annotations

from docsync.kinds.catalogue import CATALOGUE, KINDS, kind_named
from docsync.kinds.crud import CrudKind
from docsync.kinds.declaration import Field
from docsync.kinds.kind import Kind

#: the packages of `docsync/kinds/` that are the framework's, beside its top-level modules: a
#: concept too big for one module (a kind nested in its holder's structure); each defines no
#: kind and imports no family, where a family's package defines kinds
FRAMEWORK_PACKAGES = ("nested",)

__all__ = ["CATALOGUE", "FRAMEWORK_PACKAGES", "KINDS", "CrudKind", "Field", "Kind", "kind_named"]
