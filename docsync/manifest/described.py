"""Field descriptions for the JSON Schema, from the docstring under each field of a model.

Pydantic can read them itself (`use_attribute_docstrings`), but it then parses every model's
source whenever the models are built: a third of what `docsync validate` spends starting. Only
`docsync schema` shows descriptions, so they are read here, when a schema is generated."""

from __future__ import annotations

import ast
import inspect
import itertools
import sys
from functools import cache
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema


@cache
def _module_docs(module: str) -> dict[str, dict[str, str]]:
    """The docs of the fields of every class written in `module`, by qualified name: its source
    parsed once, not once a class (`inspect.getsource` parses the whole module for each class it
    finds: two thirds of making the manifest's schema)."""
    try:
        tree = ast.parse(inspect.getsource(sys.modules[module]))
    except (KeyError, OSError, TypeError, SyntaxError):
        return {}
    found: dict[str, dict[str, str]] = {}

    def visit(body: list[ast.stmt], scope: str) -> None:
        """The statements of a body, and the bodies in them (a class is a statement)."""
        for node in body:
            if isinstance(node, ast.ClassDef):
                name = f"{scope}{node.name}"
                found.setdefault(name, _field_docs(node.body))  # the first, as inspect finds
                visit(node.body, f"{name}.")
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(node.body, f"{scope}{node.name}.<locals>.")
            else:
                for inner in ("body", "orelse", "finalbody", "handlers", "cases"):
                    visit(getattr(node, inner, None) or [], scope)

    visit(tree.body, "")
    return found


def _field_docs(body: list[ast.stmt]) -> dict[str, str]:
    """`name: T = ...` followed by a string, in a class's body itself (not nested bodies)."""
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


def _own_docs(cls: type) -> dict[str, str]:
    """The docs of the fields `cls` writes (a model made at run time by `create_model` has no
    source of its own: its name finds the class it is made from, whose fields it has)."""
    return _module_docs(cls.__module__).get(cls.__qualname__, {})


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
