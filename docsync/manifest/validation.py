"""Pydantic validation of the merged document, with errors rewritten for people."""

from __future__ import annotations

import datetime
import re
import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

from docsync.core.checking import did_you_mean
from docsync.core.entries import PATTERN_MESSAGES
from docsync.manifest.context import CheckContext
from docsync.manifest.models import PRUNE_TAGS, Manifest

_NOT_TEXT = (int, float, bool, datetime.date, datetime.datetime)


def validate_manifest(ctx: CheckContext) -> Manifest | None:
    """The validated model, or None after reporting every error pydantic found."""
    try:
        return Manifest.model_validate(ctx.data)
    except ValidationError as error:
        for item in error.errors(include_url=False):
            path = tuple(part for part in item["loc"] if part not in PRUNE_TAGS)
            kind = item["type"]
            if kind == "extra_forbidden":
                ctx.report(path, _unknown_field(path), key=True)
            elif path and path[-1] == "[key]":  # a bad key of a mapping (`prune: {team: ...}`)
                ctx.report(path[:-1], _message(item), key=True)
            else:
                ctx.report(path, _message(item))
        return None


def _message(item: Any) -> str:
    kind: str = item["type"]
    message: str = item["msg"]
    context = item.get("ctx") or {}
    if kind == "missing":
        return "this field is required"
    if kind == "string_pattern_mismatch":
        return PATTERN_MESSAGES.get(str(context.get("pattern")), message)
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return "should be a mapping of fields"
    if kind == "value_error":
        message = message.removeprefix("Value error, ")
    if kind == "string_type" and isinstance(item.get("input"), _NOT_TEXT):
        message += "; put the value in quotes to make it text"
    if kind == "literal_error" and isinstance(item.get("input"), str):
        choices = re.findall(r"'([^']*)'", str(context.get("expected", "")))
        message += did_you_mean(item["input"], choices)
    return message[:1].lower() + message[1:]


def _unknown_field(path: tuple[Any, ...]) -> str:
    name = str(path[-1])
    model = _model_at(path[:-1])
    fields = list(model.model_fields) if model is not None else []
    return f"unknown field '{name}'{did_you_mean(name, fields)}"


def _model_at(path: tuple[Any, ...]) -> type[BaseModel] | None:
    """The model class that validates the value at ``path`` of a manifest."""
    annotation: Any = Manifest
    for part in path:
        annotation = _unwrap(annotation, isinstance(part, int))
        if isinstance(part, int):
            continue
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return None
        field = annotation.model_fields.get(part)
        if field is None:
            return None
        annotation = field.annotation
    annotation = _unwrap(annotation, False)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _unwrap(annotation: Any, item: bool) -> Any:
    """Strip Optional and Annotated; step into list items when ``item`` is true."""
    while True:
        origin = typing.get_origin(annotation)
        if origin in (typing.Union, types.UnionType):
            options = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
            annotation = options[0]
        elif origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin is list and item:
            annotation = typing.get_args(annotation)[0]
            item = False
        else:
            return annotation
