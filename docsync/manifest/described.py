"""Field descriptions for the JSON Schema, from the docstring under each field of a model.

Pydantic can read them itself (`use_attribute_docstrings`), but it then parses every model's
source whenever the models are built: a third of what `docsync validate` spends starting. Only
`docsync schema` shows descriptions, so they are read here, when a schema is generated."""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap
from functools import cache
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema


@cache
def _own_docs(cls: type) -> dict[str, str]:
    """`name: T = ...` followed by a string, in the body of `cls` itself (not nested bodies)."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return {}  # made at run time (`create_model`): its fields come from its bases
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for field, after in itertools.pairwise(body):
        if (
            isinstance(field, ast.AnnAssign)
            and isinstance(field.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[field.target.id] = inspect.cleandoc(after.value.value)
    return docs


def attribute_docs(model: type[BaseModel]) -> dict[str, str]:
    """Each field's docstring, the nearest class of the model's bases winning."""
    docs: dict[str, str] = {}
    for cls in reversed(model.__mro__):
        if issubclass(cls, BaseModel) and cls is not BaseModel:
            docs.update(_own_docs(cls))
    return docs


class DescribedSchema(GenerateJsonSchema):
    """Pydantic's JSON Schema, each property described by its field's docstring unless the
    field gives a description of its own."""

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        json_schema = super().model_schema(schema)
        properties: dict[str, Any] = json_schema.get("properties", {})
        for name, text in attribute_docs(schema["cls"]).items():
            prop = properties.get(name)
            if isinstance(prop, dict) and "description" not in prop:
                properties[name] = {**prop, "description": text}
        return json_schema
