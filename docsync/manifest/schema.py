"""The JSON Schema of manifest files, generated from the models (checked in under schemas/)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from docsync.manifest.described import DescribedSchema
from docsync.manifest.models import Manifest

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def manifest_schema() -> dict[str, Any]:
    """The schema editors use (yaml-language-server) to complete and check manifests: a fresh
    copy of the one made for this run (every export writes it beside the manifests)."""
    schema: dict[str, Any] = json.loads(_made())
    return schema


@cache
def _made() -> str:
    """The schema, made once: generating it reads every model's source for its descriptions."""
    schema = Manifest.model_json_schema(mode="validation", schema_generator=DescribedSchema)
    schema["title"] = "docsync manifest"
    return json.dumps({"$schema": DIALECT, "$id": "manifest.schema.json", **schema})


def schema_text(schema: dict[str, Any]) -> str:
    """The stable text form written to schemas/: sorted keys, two-space indent, final newline."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
