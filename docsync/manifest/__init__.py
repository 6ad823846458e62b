"""The manifest language: load YAML (+ Jinja), merge, validate and check, with positions."""

from __future__ import annotations

from docsync.manifest.loader import LoadedManifest, load_manifests
from docsync.manifest.models import SENSITIVE_FIELDS, Manifest
from docsync.manifest.problems import Location, ManifestError, Path, Problem, format_path
from docsync.manifest.references import looks_like_id

__all__ = [
    "SENSITIVE_FIELDS",
    "LoadedManifest",
    "Location",
    "Manifest",
    "ManifestError",
    "Path",
    "Problem",
    "format_path",
    "load_manifests",
    "looks_like_id",
]
