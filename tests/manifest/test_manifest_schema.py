"""The checked-in JSON Schemas match the models, and the examples satisfy them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args

import jsonschema
import pytest
import yaml
from click.testing import CliRunner
from pydantic import BaseModel, RootModel, ValidationError

from docsync.cli import main
from docsync.cli.schema import SCHEMAS
from docsync.manifest.models import Manifest
from docsync.manifest.schema import manifest_schema, schema_text

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_checked_in_schema_is_current(name: str) -> None:
    path = ROOT / "schemas" / f"{name}.schema.json"
    assert path.read_text(encoding="utf-8") == schema_text(SCHEMAS[name]()), (
        f"{path} is stale: run `docsync schema --out schemas`"
    )


def test_schema_command_prints_and_writes(tmp_path: Path) -> None:
    runner = CliRunner()
    printed = runner.invoke(main, ["schema"])
    assert printed.exit_code == 0
    assert json.loads(printed.stdout) == manifest_schema()
    written = runner.invoke(main, ["schema", "--out", str(tmp_path / "out")])
    assert written.exit_code == 0, written.output
    text = (tmp_path / "out" / "manifest.schema.json").read_text(encoding="utf-8")
    assert text == schema_text(manifest_schema())


def test_schema_is_valid_and_accepts_the_examples() -> None:
    schema = manifest_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in sorted((ROOT / "examples" / "acme").glob("*.yaml")):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        errors = [error.message for error in validator.iter_errors(document)]
        assert errors == [], path


def test_schema_refuses_unknown_fields_and_accepts_member_strings() -> None:
    validator = jsonschema.Draft202012Validator(manifest_schema())
    good = {"organization": "o", "teams": [{"title": "T", "members": ["a", {"user": "b"}]}]}
    assert list(validator.iter_errors(good)) == []
    bad = {"organization": "o", "teams": [{"title": "T", "colour": "red"}]}
    assert list(validator.iter_errors(bad))


def _models() -> dict[str, type[BaseModel]]:
    """The manifest's models by the name the schema's `$defs` give them: every model reachable
    from `Manifest` through its fields (entry models live in the kinds' modules)."""
    found: dict[str, type[BaseModel]] = {}
    todo: list[Any] = [Manifest]
    while todo:
        item = todo.pop()
        if isinstance(item, type) and issubclass(item, BaseModel):
            if found.setdefault(item.__name__, item) is item:
                todo += [f.annotation for f in item.model_fields.values()]
        else:
            todo += [*get_args(item), *getattr(item, "__metadata__", ())]
    return found


def _validate_takes_null(model: type[BaseModel], name: str) -> bool:
    """Whether validation accepts `null` for this field (errors located elsewhere, such as a
    model's rule between fields, do not count)."""
    if issubclass(model, RootModel):  # a mapping by name: null is its whole value
        try:
            model.model_validate(None)
        except ValidationError:
            return False
        return True
    key = model.model_fields[name].alias or name
    try:  # the field written null alone, as a manifest writes it (other fields' errors aside)
        model.model_validate({key: None})
    except ValidationError as error:
        return not any(e["loc"][:1] == (key,) for e in error.errors())
    return True


def test_the_schema_takes_null_exactly_where_validate_does() -> None:
    schema = manifest_schema()
    defs = schema["$defs"]
    by_name = _models()
    checked = 0
    for model_name, model_schema in [("Manifest", schema), *defs.items()]:
        model = by_name[model_name]
        objects = [b for b in model_schema.get("anyOf", [model_schema]) if "properties" in b]
        for name, field in model.model_fields.items():
            if issubclass(model, RootModel):  # a mapping by name: the schema is its root's
                prop = model_schema
            else:
                prop = objects[0]["properties"][field.alias or name]
            in_schema = jsonschema.Draft202012Validator({"$defs": defs, **prop}).is_valid(None)
            assert in_schema == _validate_takes_null(model, name), (
                f"{model_name}.{name}: the schema {'takes' if in_schema else 'refuses'} null, "
                "validate does not agree"
            )
            checked += 1
    assert checked > 80  # every field of every entry, not a vacuous pass
    entity = defs["SamlEntry"]["properties"]["entityID"]
    assert "null" not in json.dumps(entity) and "default" not in entity


def _held_models(model: type[BaseModel], seen: dict[str, type[BaseModel]]) -> None:
    """Every pydantic model a manifest's model holds, however deep, by class name."""
    for field in model.model_fields.values():
        for arg in _args(field.annotation):
            if isinstance(arg, type) and issubclass(arg, BaseModel) and arg not in seen.values():
                seen.setdefault(f"{arg.__module__}.{arg.__qualname__}", arg)
                _held_models(arg, seen)


def _args(annotation: Any) -> list[Any]:
    found = [annotation]
    for arg in get_args(annotation):
        found += _args(arg)
    return found


def test_every_model_of_the_manifest_has_a_name_of_its_own() -> None:
    """The manifest's JSON Schema names each model by its class (`$defs/SiteCustomization`):
    two models of one name (a font face of the customization and another kind's) would be
    named by their module paths there, and told apart nowhere else. A kind names its models
    for itself (`CustomFontFace`)."""
    seen: dict[str, type[BaseModel]] = {}
    _held_models(Manifest, seen)
    by_name: dict[str, list[str]] = {}
    for qualified, model in seen.items():
        by_name.setdefault(model.__name__, []).append(qualified)
    twice = {name: where for name, where in by_name.items() if len(set(where)) > 1}
    assert not twice, f"models sharing a name (name each for its kind): {twice}"
    assert len(seen) > 50  # the walk reaches the kinds' models
    assert not [name for name in manifest_schema()["$defs"] if "__" in name]
