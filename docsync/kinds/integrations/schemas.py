"""An integration's configurations checked against its own schemas while planning: what the
API would refuse at apply (a property the integration does not have, a value of another type or
outside its enum, a required one missing) is a located problem of the plan, so that a reviewed
plan applies. The schemas come from the integration itself (production's
`configurations.{account, site, space}`), read with the organization's installations, or by
name for one not installed yet; an integration the API does not know is refused the same way."""

from __future__ import annotations

from collections.abc import Awaitable, Iterable, Mapping, MutableMapping
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter, ValidationError

from docsync.api.answers import ANY, TEXT, Obj, Opt
from docsync.api.errors import NotFound
from docsync.core.context import PlanContext
from docsync.core.state import DesiredResource
from docsync.kinds.kind import Path
from docsync.kinds.requests import Route

if TYPE_CHECKING:
    pass

#: an integration read by its name (production's Integration), as docsync relies on it
INTEGRATION_SHAPE = Obj({"name": TEXT, "configurations": Opt(ANY)})
#: an integration read by its name, for its configurations' schemas (one not installed yet)
BY_NAME = Route("GET", "/v1/integrations/{integration}", answer=INTEGRATION_SHAPE)
#: where an entry writes a configuration, and the schema production checks it against
LEVEL_SCHEMAS = (("sites", "site"), ("spaces", "space"))
#: a property's type, read from text as a manifest's own fields read it (pydantic's lax rules)
_TEXT_FORMS: dict[str, TypeAdapter[Any]] = {
    "boolean": TypeAdapter(bool),
    "number": TypeAdapter(int | float),
}


def typed(written: MutableMapping[str, Any], schema: Mapping[str, Any] | None) -> None:
    """Text that reads as the boolean or number its property takes is that value (`"true"`,
    `"3"`), as in any boolean or number field of a manifest: a value a template renders is
    text. Done in place, before the configuration is checked, compared and sent."""
    properties = (schema or {}).get("properties") or {}
    for key, value in written.items():
        form = _TEXT_FORMS.get(str((properties.get(key) or {}).get("type")))
        if form is not None and isinstance(value, str):
            with suppress(ValidationError):  # not a text form of it: refused below, as written
                written[key] = form.validate_python(value)


def _fits(value: Any, kind: str) -> bool:
    """Whether a value is of a configuration property's type (a `button` holds none)."""
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, str) if kind == "string" else True


def _type_of(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "text" if isinstance(value, str) else f"a {type(value).__name__}"


def configuration_problems(
    written: Mapping[str, Any], schema: Mapping[str, Any] | None, kept: Iterable[str] = ()
) -> list[tuple[Path, str]]:
    """What the schema refuses in a configuration written (`kept`: the keys the installation
    already has, which the request carries too): (path within it, message)."""
    properties = (schema or {}).get("properties") or {}
    out: list[tuple[Path, str]] = []
    for key, value in written.items():
        prop = properties.get(key)
        if prop is None:
            known = ", ".join(sorted(properties)) or "none"
            out.append(((key,), f"not a property of this configuration (it has: {known})"))
        elif not _fits(value, str(prop.get("type"))):
            # the value is not repeated: it may be a secret
            out.append(((key,), f"must be a {prop.get('type')}; got {_type_of(value)}"))
        elif prop.get("enum") and value not in prop["enum"]:
            out.append(((key,), f"must be one of {', '.join(map(str, prop['enum']))}"))
    missing = [k for k in (schema or {}).get("required") or [] if k not in {*written, *kept}]
    if missing:
        out.append(((), f"{', '.join(missing)} required by the integration"))
    return out


def check_entry(
    desired: DesiredResource, schemas: Mapping[str, Any], installed: Mapping[str, Any] | None
) -> list[tuple[Path, str]]:
    """The problems of one `integrations:` entry (`installed`: its live configuration, None
    when not installed): paths from the entry."""
    name = desired.key
    configurations = schemas.get(name)
    if configurations is None:
        return [(("name",), f"no integration {name!r} is known to the API: check its name")]
    out: list[tuple[Path, str]] = []
    written = desired.fields.get("configuration")
    if written is not None:
        typed(written, configurations.get("account"))
        for at, message in configuration_problems(
            written, configurations.get("account"), (installed or {}).keys()
        ):
            out.append((("configuration", *at), message))
    for field, level in LEVEL_SCHEMAS:
        targets = getattr(desired.entry, field, None)
        for target, on in ((targets.root if targets is not None else None) or {}).items():
            config = getattr(on, "configuration", None)
            if config is None:
                continue
            # an installation there already holds what it was given: its required keys too
            required = installed is None
            schema = dict(configurations.get(level) or {})
            if not required:
                schema.pop("required", None)
            typed(config, schema)
            for at, message in configuration_problems(config, schema):
                out.append(((field, target, "configuration", *at), message))
    return out


def check_configurations(kind: str, ctx: PlanContext) -> None:
    """Every entry of the kind against its integration's schemas, when they were read."""
    schemas = ctx.live.read_aside.get(kind)
    if schemas is None:
        return
    for desired in ctx.desired.by_kind[kind]:
        if desired.absent:
            continue
        live = ctx.live.by_address.get(desired.address)
        installed = (live.fields.get("configuration") or {}) if live is not None else None
        for at, message in check_entry(desired, schemas, installed):
            ctx.problem((*desired.path, *at), message)


async def schemas_of(integration: Awaitable[Any]) -> dict[str, Any] | None:
    """An integration's configuration schemas, from its read by name (one not installed yet);
    None: no such integration."""
    try:
        found = await integration
    except NotFound:
        return None
    return dict(found.get("configurations") or {})
