"""Managed resource kinds: each declared once, in one module, and registered here in the order
that references need (a kind after the kinds it refers to)."""

from __future__ import annotations

from docsync.core.kind import Field
from docsync.kinds.base import CrudKind, Kind
from docsync.kinds.registry import KINDS, kind_named

__all__ = ["KINDS", "CrudKind", "Field", "Kind", "kind_named"]
