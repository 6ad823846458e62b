"""`docsync schema`: print or write the JSON Schemas docsync publishes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from docsync.cli import main
from docsync.cli.options import out_directory, writing


def _manifest() -> dict[str, Any]:
    from docsync.manifest.schema import manifest_schema

    return manifest_schema()


def _plan() -> dict[str, Any]:
    from docsync.render.json import plan_schema

    return plan_schema()


SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {"manifest": _manifest, "plan": _plan}
"""Each schema by name, built when asked (the models are loaded then, not for `--help`); it is
written as ``<name>.schema.json``."""


def schema_text(schema: dict[str, Any]) -> str:
    from docsync.manifest.schema import schema_text as text

    return text(schema)


@main.command("schema")
@click.option(
    "--out",
    type=click.Path(path_type=Path),
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
    out_directory(out, "schema writes its schemas")
    with writing(out):
        out.mkdir(parents=True, exist_ok=True)
    for key, build in SCHEMAS.items():
        target = out / f"{key}.schema.json"
        with writing(target):
            target.write_text(schema_text(build()), encoding="utf-8")
        click.echo(f"wrote {target}")
