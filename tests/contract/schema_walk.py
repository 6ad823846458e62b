"""Production's request schema and a manifest model's JSON Schema, walked side by side.

Both are JSON Schema (production's OpenAPI 3.1 document, and what `docsync schema` writes from
the models), so one walk reads both: `$ref`s resolved, `allOf` merged, `oneOf`/`anyOf` flattened
into alternatives and whether `null` is one. At each field it compares types, enums, string
limits, patterns and formats, array limits and items, the properties of objects (a property
production has and the model lacks, or the other way round, is a finding), their required keys
and where `null` is taken. What differs on purpose is listed in `tests.contract.unmanaged`; a
finding not listed there is a failure of `test_schema_comparison`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

#: the keywords of a string or a list compared as they are (a missing minimum is 0)
LIMITS = ("minLength", "maxLength", "minItems", "maxItems", "minimum", "maximum")


@dataclass(frozen=True)
class Doc:
    """A JSON document whose `$ref`s point into itself (`#/components/...`, `#/$defs/...`)."""

    root: dict[str, Any]

    def resolve(self, node: Any) -> Any:
        while isinstance(node, dict) and "$ref" in node:
            target: Any = self.root
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            node = target
        return node

    def alternatives(self, node: Any) -> tuple[list[dict[str, Any]], bool]:
        """The shapes a value may take (resolved, `allOf` merged, never `null`), and whether
        `null` is accepted too."""
        node = self.resolve(node)
        if "allOf" in node:
            return [self.merged(node["allOf"])], False
        branches = node.get("oneOf") or node.get("anyOf")
        if branches:
            found: list[dict[str, Any]] = []
            nullable = False
            for branch in branches:
                shapes, null = self.alternatives(branch)
                found += shapes
                nullable |= null
            return found, nullable
        kinds = node.get("type")
        if kinds == "null":
            return [], True
        shape = dict(node)
        nullable = False
        if isinstance(kinds, list):
            nullable = "null" in kinds
            rest = [k for k in kinds if k != "null"]
            shape["type"] = rest[0] if len(rest) == 1 else rest
        if "const" in shape:
            shape["enum"] = [shape.pop("const")]
        if isinstance(shape.get("enum"), list) and None in shape["enum"]:
            nullable = True
            shape["enum"] = [v for v in shape["enum"] if v is not None]
        if "type" not in shape:
            shape["type"] = "object" if "properties" in shape else "string"
        return [shape], nullable

    def merged(self, parts: list[Any]) -> dict[str, Any]:
        """One object of `allOf` parts; a part of several shapes (`oneOf`) adds their
        properties (enums joined), requiring what all of them require."""
        out: dict[str, Any] = {"type": "object", "properties": {}, "required": []}
        for part in parts:
            shapes, _ = self.alternatives(part)
            joined = merge_shapes(shapes)
            out["properties"].update(joined.get("properties", {}))
            out["required"] += [r for r in joined.get("required", []) if r not in out["required"]]
        return out


def merge_shapes(shapes: list[dict[str, Any]]) -> dict[str, Any]:
    """Objects of a `oneOf` as one: every property (their enums joined), the required keys of
    all of them."""
    if len(shapes) == 1:
        return shapes[0]
    properties: dict[str, Any] = {}
    for shape in shapes:
        for name, prop in shape.get("properties", {}).items():
            before = properties.get(name)
            if isinstance(before, dict) and _values(before) and _values(prop):
                joined = [*_values(before), *_values(prop)]
                prop = {**{k: v for k, v in prop.items() if k != "const"}, "enum": joined}
            properties[name] = prop
    required = set.intersection(*(set(s.get("required", [])) for s in shapes))
    return {"type": "object", "properties": properties, "required": sorted(required)}


def _values(prop: dict[str, Any]) -> list[Any]:
    """An enum's values, a `const` (a discriminated model's tag) as an enum of one."""
    return list(prop.get("enum") or ([prop["const"]] if "const" in prop else []))


def _signature(shape: dict[str, Any]) -> str:
    """How alternatives are matched across the two sides: an object by its `kind`, else by
    its type."""
    kind = shape.get("properties", {}).get("kind")
    if isinstance(kind, dict):
        values = kind.get("enum") or ([kind["const"]] if "const" in kind else [])
        if len(values) == 1:
            return f"{{{values[0]}}}"
    return str(shape.get("type"))


def _grouped(shapes: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Shapes by signature; several of one signature are one: objects told apart by nothing
    but their keys (a favicon's `{icon}`, `{emoji}` or `{}`) merged, enums joined (a role or
    `inherit`)."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for shape in shapes:
        groups.setdefault(_signature(shape), []).append(shape)
    out = {}
    for signature, group in groups.items():
        if len(group) > 1 and signature == "object":
            out[signature] = merge_shapes(group)
        elif len(group) > 1 and all("enum" in s for s in group):
            out[signature] = {**group[0], "enum": [v for s in group for v in s["enum"]]}
        else:
            out[signature] = group[0]
    return out


@dataclass
class Walk:
    """One comparison: its findings, and the listed differences it met."""

    production: Doc
    model: Doc
    #: `(where, aspect)` -> whether that difference is listed (and so no finding)
    listed: Callable[[str, str], bool]
    #: a model's class by its JSON Schema title (partial settings carry their required keys)
    classes: dict[str, type[BaseModel]]
    #: production's format -> the pattern a model checks it with
    formats: dict[str, str]
    #: a written null removes the field from the object the merge makes (a PUT of the whole
    #: object), so a field production may do without takes null; else null is sent as written
    null_removes: bool = False
    #: production's formats no model checks offline -> why (a field of one: its length alone)
    unchecked: Mapping[str, str] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)
    #: the unchecked formats met
    unchecked_met: set[str] = field(default_factory=set)

    def find(self, where: str, aspect: str, message: str) -> None:
        if not self.listed(where, aspect):
            self.findings.append(f"{where}: {message} [{aspect}]")

    # -- a value ----------------------------------------------------------------------------

    def value(self, where: str, prod: Any, mine: Any, *, null: bool | None = None) -> None:
        """Compare one value; `null`: whether the model must take null here (None: as
        production does)."""
        if self.listed(where, "shape"):
            return  # written in a shape of docsync's own, sent as production's
        prod_shapes, prod_null = self.production.alternatives(prod)
        my_shapes, my_null = self.model.alternatives(mine)
        expected = prod_null if null is None else null
        if my_null != expected:
            said = "takes" if my_null else "refuses"
            self.find(where, "null", f"the model {said} null; production does the opposite")
        if not prod_shapes or not my_shapes:
            return
        prod_by, mine_by = _grouped(prod_shapes), _grouped(my_shapes)
        for signature, shape in prod_by.items():
            if signature not in mine_by:
                self.find(where, signature, f"production takes a {signature}, the model not")
            else:
                self.shape(
                    where if len(prod_by) == 1 else f"{where}{signature}", shape, mine_by[signature]
                )
        for signature in mine_by.keys() - prod_by.keys():
            self.find(where, signature, f"the model takes a {signature}, production not")

    def shape(self, where: str, prod: dict[str, Any], mine: dict[str, Any]) -> None:
        if prod.get("type") != mine.get("type"):
            self.find(where, "type", f"production: {prod.get('type')}, model: {mine.get('type')}")
            return
        if "enum" in prod or "enum" in mine:
            ours, theirs = set(mine.get("enum") or []), set(prod.get("enum") or [])
            if ours != theirs:
                more, fewer = sorted(theirs - ours), sorted(ours - theirs)
                self.find(where, "enum", f"production has {more} more, the model {fewer}")
        for limit in LIMITS:
            theirs, ours = prod.get(limit), mine.get(limit)
            if (theirs or 0) != (ours or 0):
                self.find(where, limit, f"production: {theirs}, model: {ours}")
        theirs_pattern = prod.get("pattern") or self.formats.get(prod.get("format", ""))
        if theirs_pattern != mine.get("pattern"):
            self.find(
                where, "pattern", f"production: {theirs_pattern!r}, model: {mine.get('pattern')!r}"
            )
        if prod.get("format") in self.unchecked:
            self.unchecked_met.add(prod["format"])
        elif prod.get("format") != mine.get("format"):
            self.find(
                where,
                "format",
                f"production: {prod.get('format')!r}, model: {mine.get('format')!r}",
            )
        if prod.get("type") == "array":
            self.value(f"{where}[]", prod.get("items", {}), mine.get("items", {}))
        elif prod.get("type") == "object":
            self.object(where, prod, mine)

    # -- an object --------------------------------------------------------------------------

    def object(self, where: str, prod: dict[str, Any], mine: dict[str, Any]) -> None:
        theirs: dict[str, Any] = prod.get("properties", {})
        ours: dict[str, Any] = mine.get("properties", {})
        if not theirs and not ours:
            self._mapping(where, prod, mine)
            return
        required = set(prod.get("required", []))
        cls = self.classes.get(str(mine.get("title")))
        partial = cls is not None and not getattr(cls, "whole", True)
        prefix = f"{where}." if where else ""
        for name, prop in theirs.items():
            if name not in ours:
                self.find(f"{prefix}{name}", "unmanaged", "production has it, the model not")
                continue
            _, prop_null = self.production.alternatives(prop)
            self.value(
                f"{prefix}{name}",
                prop,
                ours[name],
                null=prop_null or (partial and self.null_removes and name not in required),
            )
        for name in ours.keys() - theirs.keys():
            self.find(f"{prefix}{name}", "extra", "the model has it, production's schema not")
        kept = {r for r in required if r in ours}
        mine_required = (
            set(getattr(cls, "required", ())) if partial else set(mine.get("required", []))
        )
        if mine_required != kept:
            self.find(
                where or "<body>",
                "required",
                f"production requires {sorted(kept)}, the model {sorted(mine_required)}",
            )

    def _mapping(self, where: str, prod: dict[str, Any], mine: dict[str, Any]) -> None:
        """An object of free keys (a localized text: languages to texts)."""
        theirs = set(self.production.resolve(prod.get("propertyNames", {})).get("enum") or [])
        ours = set(self.model.resolve(mine.get("propertyNames", {})).get("enum") or [])
        if theirs != ours:
            self.find(where, "keys", f"production keys {sorted(theirs ^ ours)} differ")
        values = (prod.get("additionalProperties"), mine.get("additionalProperties"))
        if all(isinstance(v, dict) for v in values):
            self.value(f"{where}.*", values[0], values[1])
        elif values[1] is True and values[0] in (None, True):
            return  # both take any value (an integration's configuration)
        elif values[0] not in (None, True, False) or values[1] not in (None, False):
            self.find(where, "values", f"production values {values[0]}, model {values[1]}")
