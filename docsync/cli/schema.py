"""`docsync schema`: print or write the JSON Schemas docsync publishes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from docsync.cli import main
from docsync.cli.options import writing
from docsync.manifest.schema import manifest_schema, schema_text
from docsync.render.json import plan_schema

SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {
    "manifest": manifest_schema,
    "plan": plan_schema,
}
"""Each schema by name; it is written as ``<name>.schema.json``."""


@main.command("schema")
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write every schema as DIR/<name>.schema.json instead of printing one.",
)
@click.option(
    "--name",
    type=click.Choice(sorted(SCHEMAS)),
    default="manifest",
    show_default=True,
    help="The schema to print.",
)
def schema(out: Path | None, name: str) -> None:
    """Print the manifest JSON Schema, or write all schemas with --out."""
    if out is None:
        click.echo(schema_text(SCHEMAS[name]()), nl=False)
        return
    with writing(out):
        out.mkdir(parents=True, exist_ok=True)
    for key, build in SCHEMAS.items():
        target = out / f"{key}.schema.json"
        with writing(target):
            target.write_text(schema_text(build()), encoding="utf-8")
        click.echo(f"wrote {target}")
