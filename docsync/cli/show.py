"""`docsync show PLANFILE`: render a saved plan again, as `terraform show` does; no network."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from docsync.cli import main
from docsync.cli.markdown_options import markdown_options, markdown_shape
from docsync.cli.options import format_option, setup_output

if TYPE_CHECKING:
    from docsync.render.json import PlanDocument


def load_plan_file(path: str) -> tuple[PlanDocument, str]:
    """A saved plan (`plan --out`) or a JSON plan (`plan --format json`), and its heading."""
    import json

    from docsync.engine.saved import SAVED_FORMAT, SavedPlan, read_plan_file
    from docsync.manifest.files import given_a_manifest
    from docsync.manifest.input_files import InputRefused
    from docsync.render.load import PlanDocumentError, read_document

    try:
        text = read_plan_file(path)
    except InputRefused as refused:
        raise PlanDocumentError(f"{path}: {refused.reason}") from None
    except UnicodeDecodeError:
        raise PlanDocumentError(f"{path}: not a plan file (not UTF-8 text)") from None
    if not text.strip():
        raise PlanDocumentError(f"{path}: empty, not a plan (`docsync plan --out FILE` saves one)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        if given_a_manifest(path, text):
            raise PlanDocumentError(
                f"{path} is a manifest, not a plan: `docsync plan {path}` shows its plan"
            ) from None
        where = f"line {error.lineno}, column {error.colno}: {error.msg.lower()}"
        raise PlanDocumentError(f"{path}: not a plan file: not JSON ({where})") from None
    if isinstance(data, dict) and data.get("format") == SAVED_FORMAT:
        saved = SavedPlan.from_document(data, path)
        document = read_document(saved.plan, path)
        return document, saved.title or document.organization
    if isinstance(data, dict) and "format_version" in data:
        document = read_document(data, path)
        return document, document.organization
    raise PlanDocumentError(
        f"{path}: neither a saved plan (`docsync plan --out FILE`) nor a JSON plan "
        "(`docsync plan --format json`)"
    )


@main.command("show", short_help="Render a saved plan or a JSON plan again, offline.")
@click.argument("plan_file", metavar="PLANFILE", type=click.Path(exists=True, dir_okay=False))
@format_option("The same renderings as `docsync plan`.")
@markdown_options
@click.option(
    "--no-color", is_flag=True, help="Plain output (NO_COLOR in the environment does too)."
)
def show_command(
    plan_file: str,
    output_format: str,
    no_color: bool,
    max_chars: int,
    whole_plan: str | None,
    **_: Any,
) -> None:
    """Render a saved plan (or a JSON plan) again, without reading the organization."""
    from docsync.render.formats import render_for_people
    from docsync.render.load import plan_from_document

    color = setup_output(0, no_color)
    shape = markdown_shape(output_format, max_chars, whole_plan, plan_file)
    document, title = load_plan_file(plan_file)
    if output_format == "json":
        click.echo(document.model_dump_json(indent=2))
        return
    plan = plan_from_document(document)
    rendered = render_for_people(
        plan,
        output_format,
        color=color,
        title=title,
        budget=shape.budget,
        whole_plan=shape.whole_plan,
    )
    click.echo(rendered, nl=False)
