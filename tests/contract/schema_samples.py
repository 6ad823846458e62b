"""Values drawn from production's request schemas: valid ones, and each field broken once.

`Samples.valid(node, variant)` builds a value production accepts, every property filled, the
`variant` choosing which enum value, which `oneOf` branch, which string length (so that a few
variants reach every enum value and every shape); it records each leaf it fills. `broken()`
then gives, for each leaf, values production refuses there: a value of no enum, a text one
longer than allowed or shorter, one its pattern refuses, a number out of range, a wrong type, a
list too long, an unknown key. Patterns are filled from `EXAMPLES` (valid and invalid texts of
each pattern met), so a new pattern in production's schemas fails the test until it has some.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.contract.schema_walk import Doc

Path = tuple[str | int, ...]

#: production's SiteRedirectSourcePath
SOURCE = (
    r"^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+"
    r"(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$"
)
#: texts each pattern of production's request schemas accepts, and texts it refuses
EXAMPLES: dict[str, tuple[list[str], list[str]]] = {
    r"^#(?:[0-9a-fA-F]{3}){1,2}$": (["#0B5FFF", "#fff"], ["0B5FFF", "#12345", "blue"]),
    SOURCE: (
        ["/old-guides", "/a/b%20c/*", "/v1*", "/~x.y+z"],
        ["old", "/*", "/a/*/b", "/a b", "/a//b", "/%zz"],
    ),
    r"^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$": (["public-api", "v2"], ["-api", "a--b", "a b"]),
    r"^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$": (
        ["acme.example/docs", "a.b-c.io/x/y_z"],
        ["https://acme.example/docs", "acme.example", "acme/docs"],
    ),
    r"\S.*\S": (["Acme", "Acme Corp"], ["", " ", "a"]),
    r"^[a-zA-Z0-9_\*-]+$": (["docs-help", "support-*", "ENG_1"], ["", "docs help", "#general"]),
    r"^[a-zA-Z0-9._*-]+\/[a-zA-Z0-9._*-]+$": (
        ["acme/docs", "acme/*", "a.b/c-d_e"],
        ["acme", "acme/docs/x", "a b/c"],
    ),
    r"^refs/heads/.+$": (["refs/heads/main", "refs/heads/a/b"], ["main", "refs/heads/", "heads/x"]),
}
#: a text of each format production's request schemas name, and one it refuses (None: the
#: format is production's own list, of which no sample is known to fail)
FORMATS: dict[str, tuple[str, str | None]] = {
    "uri": ("https://acme.example/a", "not a url"),
    "emoji": ("🎉", None),
    "icon": ("house", None),
}


@dataclass(frozen=True)
class Broken:
    #: the variant of the valid value it breaks, and where
    variant: int
    path: Path
    why: str
    value: Any
    #: production's validator says so itself (a format or an unknown key it does not check)
    checked: bool = True


@dataclass
class Samples:
    doc: Doc
    #: where each leaf was filled: its path and its schema, by the variant that filled it
    leaves: dict[tuple[Path, int], tuple[int, dict[str, Any]]] = field(default_factory=dict)
    _variant: int = 0

    def _leaf(self, path: Path, shape: dict[str, Any]) -> None:
        key = (path, hash(repr(sorted(shape))))
        self.leaves.setdefault(key, (self._variant, shape))

    def width(self, node: Any, depth: int = 0) -> int:
        """How many variants reach every enum value and every shape under `node`."""
        shapes, _ = self.doc.alternatives(node)
        widest = len(shapes)
        for shape in shapes:
            widest = max(widest, len(shape.get("enum") or []))
            inner = [*shape.get("properties", {}).values()]
            if isinstance(shape.get("items"), dict):
                inner.append(shape["items"])
            if isinstance(shape.get("additionalProperties"), dict):
                inner.append(shape["additionalProperties"])
            for child in inner if depth < 12 else []:
                widest = max(widest, self.width(child, depth + 1))
        return widest

    def valid(self, node: Any, variant: int, path: Path = ()) -> Any:
        self._variant = variant
        shapes, _ = self.doc.alternatives(node)
        assert shapes, f"{path}: production takes only null here"
        shape = shapes[variant % len(shapes)]
        kind = shape.get("type")
        if "enum" in shape:
            self._leaf(path, shape)
            return shape["enum"][variant % len(shape["enum"])]
        if kind == "object":
            return self._object(shape, variant, path)
        if kind == "array":
            item = self.valid(shape.get("items", {}), variant, (*path, 0))
            self._leaf(path, {**shape, "_item": item})
            return [item] * max(1, shape.get("minItems", 1))
        self._leaf(path, shape)
        if kind == "boolean":
            return variant % 2 == 0
        if kind in ("integer", "number"):
            return shape.get("maximum" if variant % 2 else "minimum", 1)
        return self._text(shape, variant, path)

    def _object(self, shape: dict[str, Any], variant: int, path: Path) -> Any:
        properties: dict[str, Any] = shape.get("properties", {})
        if properties:
            self._leaf(path, shape)
            return {
                name: self.valid(prop, variant, (*path, name)) for name, prop in properties.items()
            }
        values = shape.get("additionalProperties")
        if isinstance(values, dict):
            self._leaf(path, shape)
            keys = self.doc.resolve(shape.get("propertyNames", {})).get("enum") or ["key"]
            return {keys[variant % len(keys)]: self.valid(values, variant, (*path, "*"))}
        return {}

    def _text(self, shape: dict[str, Any], variant: int, path: Path) -> str:
        if "pattern" in shape:
            valid, _ = EXAMPLES[shape["pattern"]]  # a new pattern: add its examples above
            return valid[variant % len(valid)]
        if "format" in shape:
            return FORMATS[shape["format"]][0]
        low, high = shape.get("minLength", 0), shape.get("maxLength")
        length = high if variant % 2 and high is not None else max(low, 4)
        return "a" * length

    def broken(self) -> Iterator[Broken]:
        """Values production refuses, one leaf at a time (of the leaves recorded so far)."""
        for (path, _), (variant, shape) in self.leaves.items():
            for where, why, value, checked in _broken(self.doc, shape):
                yield Broken(variant, (*path, *where), why, value, checked)


def _broken(doc: Doc, shape: dict[str, Any]) -> Iterator[tuple[Path, str, Any, bool]]:
    kind = shape.get("type")
    if "enum" in shape:
        yield (), "not one of the enum", f"not-{shape['enum'][0]}", True
    elif kind == "string":
        if "pattern" in shape:
            for text in EXAMPLES[shape["pattern"]][1]:
                yield (), "refused by the pattern", text, True
        elif shape.get("format") and FORMATS[shape["format"]][1] is not None:
            yield (), f"not a {shape['format']}", FORMATS[shape["format"]][1], False
        if shape.get("maxLength") is not None:
            yield (), "too long", "a" * (shape["maxLength"] + 1), True
        if shape.get("minLength", 0) > 0:
            yield (), "too short", "a" * (shape["minLength"] - 1), True
        yield (), "not a text", 12345, True
    elif kind == "boolean":
        yield (), "not a boolean", "maybe", True
    elif kind in ("integer", "number"):
        if "minimum" in shape:
            yield (), "below the minimum", shape["minimum"] - 1, True
        if "maximum" in shape:
            yield (), "above the maximum", shape["maximum"] + 1, True
        yield (), "not a number", "one", True
    elif kind == "array":
        if shape.get("maxItems") is not None:
            yield (), "too many items", [shape["_item"]] * (shape["maxItems"] + 1), True
        if shape.get("minItems", 0) > 0:
            yield (), "too few items", [], True
        yield (), "not a list", "text", True
    elif kind == "object":
        yield (), "not a mapping", "text", True
        if shape.get("properties"):
            yield ("zzUnknown",), "an unknown key", 1, False
        elif doc.resolve(shape.get("propertyNames", {})).get("enum"):
            yield ("xx",), "a key of no enum", "text", True


def put(value: Any, path: Path, leaf: Any) -> Any:
    """A copy of `value` with `leaf` at `path` (a new key where the path ends in one)."""
    if not path:
        return leaf
    head, *rest = path
    if isinstance(value, list):
        copy = list(value)
        copy[int(head)] = put(copy[int(head)], tuple(rest), leaf)
        return copy
    if head == "*":  # the one free key of a mapping
        head = next(iter(value))
    return {**value, head: put(value.get(head), tuple(rest), leaf)}
