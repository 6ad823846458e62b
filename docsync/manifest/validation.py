"""Pydantic validation of the merged document, with errors rewritten for people."""

from __future__ import annotations

import datetime
import re
import types
import typing
from functools import cache
from typing import Any

from pydantic import BaseModel, Tag, ValidationError

from docsync.core.checking import did_you_mean
from docsync.core.entries import PATTERN_MESSAGES
from docsync.manifest.context import CheckContext
from docsync.manifest.models import PRUNE_TAGS, Manifest

_NOT_TEXT = (int, float, bool, datetime.date, datetime.datetime)


#: a list of allowed values longer than this is shown once, not on every line (`Problem.choices`)
LONG_LIST = 20
#: errors whose message says what was expected but not what was written: `; got ...` follows
_SAYS_GOT = frozenset(
    {"bool_parsing", "bool_type", "int_parsing", "int_type", "float_parsing", "float_type"}
)


def validate_manifest(ctx: CheckContext) -> Manifest | None:
    """The validated model, or None after reporting every error pydantic found."""
    try:
        return Manifest.model_validate(ctx.data)
    except ValidationError as error:
        found = [
            (item, *_located(_without_prune_tags(tuple(item["loc"]))))
            for item in error.errors(include_url=False)
        ]
        # A key refused is the one fact: the type of its value is beside the point.
        refused_keys = {path[:-1] for _, path, _, _ in found if path and path[-1] == "[key]"}
        for item, path, holder, tags in found:
            kind = item["type"]
            if kind == "extra_forbidden":
                ctx.report(path, _unknown_field(path, holder), key=True)
            elif path and path[-1] == "[key]":  # a bad key of a mapping (`prune: {team: ...}`)
                choices = _choices(item)
                if len(choices) > LONG_LIST:
                    ctx.report(path[:-1], "not an allowed key", key=True, choices=choices)
                else:
                    ctx.report(path[:-1], _message(item), key=True)
            elif path in refused_keys:
                continue
            elif kind in ("union_tag_invalid", "union_tag_not_found"):
                ctx.report(*_tag_problem(ctx, path, item, tags))
            elif len(choices := _choices(item)) > LONG_LIST:
                message = f"should be one of {len(choices)} values{_refused(ctx, path, item)}"
                ctx.report(path, message, choices=choices)
            else:
                ctx.report(path, _message(item) + _refused(ctx, path, item))
        return None


def _choices(item: Any) -> tuple[str, ...]:
    """The values an enum allows, as pydantic lists them."""
    if item["type"] not in ("literal_error", "enum"):
        return ()
    return _listed(str((item.get("ctx") or {}).get("expected", "")))


@cache
def _listed(expected: str) -> tuple[str, ...]:
    """One tuple per list: 100,000 refused keys share one list of 39 languages, not 100,000."""
    return tuple(re.findall(r"'([^']*)'", expected))


def _got(ctx: CheckContext, path: tuple[Any, ...], written: Any) -> str:
    """`; got ...`: what was written, never a sensitive value, a long one cut short."""
    if ctx.is_sensitive(path):
        return "; got (sensitive)"
    if isinstance(written, dict):
        return "; got a mapping"
    if isinstance(written, list):
        return "; got a list"
    if written is None:
        return "; got null"
    if isinstance(written, str) and len(written) > 60:
        written = written[:57] + "..."
    return f"; got {written!r}"


def _refused(ctx: CheckContext, path: tuple[Any, ...], item: Any) -> str:
    """What an enum refused, repeated (`; got 'secret'`, never a sensitive value), with what
    YAML made of it when it read a boolean, a number or a date where text was meant; what a
    boolean, a number or a pattern refused, repeated."""
    if item["type"] in _SAYS_GOT or item["type"] == "string_pattern_mismatch":
        return _got(ctx, path, item.get("input"))
    if item["type"] not in ("literal_error", "enum"):
        return ""
    written = item.get("input")
    if isinstance(written, bool):
        spelled = "yes, on or true" if written else "no, off or false"
        shown = str(written).lower()
        return (
            f"; got {shown}: YAML reads an unquoted {spelled} as {shown}; put the value in "
            "quotes to make it text"
        )
    if isinstance(written, _NOT_TEXT):
        return f"; got {written}; put the value in quotes to make it text"
    shown = ctx.show(path, written)
    if not isinstance(written, str) or ctx.is_sensitive(path):
        return f"; got {shown}"
    return f"; got {shown}{did_you_mean(written, list(_choices(item)))}"


def _message(item: Any) -> str:
    kind: str = item["type"]
    message: str = item["msg"]
    context = item.get("ctx") or {}
    if kind == "missing":
        return "this field is required"
    if kind == "string_pattern_mismatch":
        pattern = str(context.get("pattern"))
        return PATTERN_MESSAGES.get(pattern, f"does not match the pattern {pattern!r}")
    if kind in ("bool_parsing", "bool_type"):
        return "must be true or false"
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return "should be a mapping of fields"
    if kind == "value_error":
        message = message.removeprefix("Value error, ")
    if kind == "string_type" and isinstance(item.get("input"), _NOT_TEXT):
        message += "; put the value in quotes to make it text"
    return message[:1].lower() + message[1:]


def _without_prune_tags(loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """The location without the tag pydantic puts after `prune` to name its shape; a key
    that merely reads like one (a top-level `prune-map:`) stays where it was written."""
    return tuple(
        part
        for index, part in enumerate(loc)
        if not (part in PRUNE_TAGS and index > 0 and loc[index - 1] == "prune")
    )


def _unknown_field(path: tuple[Any, ...], holder: type[BaseModel] | None) -> str:
    name = str(path[-1])
    fields = list(holder.model_fields) if holder is not None else []
    return f"unknown field '{name}'{did_you_mean(name, fields)}"


def _tag_problem(
    ctx: CheckContext, path: tuple[Any, ...], item: Any, tags: list[str]
) -> tuple[tuple[Any, ...], str]:
    """A value of several shapes told apart by one field (`kind` of a content reference, `type`
    of merge rules) that is missing or none of them: located at that field when it is written."""
    context = item.get("ctx") or {}
    field = str(context.get("discriminator", "")).strip("'")
    field = field if field.isidentifier() else "kind"  # a function tells content references
    named = re.findall(r"'([^']*)'", str(context.get("expected_tags", "")))
    tags = named or tags
    expected = ", ".join(repr(tag) for tag in tags)
    written = item.get("input")
    if isinstance(written, dict) and field in written:
        at, tag = (*path, field), written[field]
        if ctx.is_sensitive(at) or not isinstance(tag, str):
            return at, f"should be one of {expected}; got {ctx.show(at, tag)}"
        return at, f"should be one of {expected}; got {tag!r}{did_you_mean(tag, tags)}"
    return path, f"should be a mapping with `{field}`" + (f": one of {expected}" if tags else "")


def _located(loc: tuple[Any, ...]) -> tuple[tuple[Any, ...], type[BaseModel] | None, list[str]]:
    """The manifest path of an error's location (without the tags pydantic puts in it to name
    the shape of a value that has several), the model holding its last part, and the tags of
    the value there when it has several shapes."""
    annotation: Any = Manifest
    path: list[Any] = []
    holder: type[BaseModel] | None = None
    for part in loc:
        shapes = _shapes(annotation)
        annotation = _unwrap(annotation)
        if isinstance(part, str) and part in shapes:
            annotation = shapes[part]
            continue
        path.append(part)
        holder = annotation if _is_model(annotation) else None
        annotation = _step(annotation, part)
    return tuple(path), holder, list(_shapes(annotation))


def _is_model(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _step(annotation: Any, part: Any) -> Any:
    """The annotation of `part` within a value of `annotation` (None: unknown)."""
    if _is_model(annotation):
        field = annotation.model_fields.get(part) if isinstance(part, str) else None
        return field.annotation if field is not None else None
    origin = typing.get_origin(annotation)
    if origin is list and isinstance(part, int):
        return typing.get_args(annotation)[0]
    if origin is dict:
        return typing.get_args(annotation)[1]
    return None


def _shapes(annotation: Any) -> dict[str, Any]:
    """A union's members by their tag, when it is one told apart by tags: each member's own
    (`Tag("url")`), or the values of the field that discriminates them (merge rules' `type`:
    `Field(discriminator="type")`), which pydantic also puts in an error's location."""
    field = _discriminator(annotation)
    union = _unwrap(annotation)
    if typing.get_origin(union) not in (typing.Union, types.UnionType):
        return {}
    found: dict[str, Any] = {}
    for member in typing.get_args(union):
        if typing.get_origin(member) is typing.Annotated:
            for meta in member.__metadata__:
                if isinstance(meta, Tag):
                    found[meta.tag] = member
        elif field is not None and _is_model(member) and field in member.model_fields:
            values = typing.get_args(_unwrap(member.model_fields[field].annotation))
            found.update({value: member for value in values if isinstance(value, str)})
    return found


def _discriminator(annotation: Any) -> str | None:
    """The field a union's members are told apart by (`Field(discriminator="type")`), if any:
    on the union itself or on the value that may also be None."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            for meta in annotation.__metadata__:
                if isinstance(getattr(meta, "discriminator", None), str):
                    return str(meta.discriminator)
            annotation = typing.get_args(annotation)[0]
            continue
        options = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        if origin in (typing.Union, types.UnionType) and len(options) == 1:
            annotation = options[0]
            continue
        return None


def _unwrap(annotation: Any) -> Any:
    """Strip Optional and Annotated."""
    while True:
        origin = typing.get_origin(annotation)
        options = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        if origin in (typing.Union, types.UnionType) and len(options) == 1:
            annotation = options[0]
        elif origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        else:
            return annotation
