"""A site's customization: read (production's defaults until written) and replace as a whole.

Stored on the site row (`customization`), so it goes with the site. `PUT` takes production's
SiteCustomizationSettingsInput: every required group present (it replaces the whole object),
no unknown field, and the values the emulator can check without page content (styling's enums
and colours, the flags, the modes) checked, 400 naming the field. The published-content answer
carries the same object.

A site space's override (`.../site-spaces/{siteSpaceId}/customization`) is stored on the site
space row (`customization`, only the fields overridden), so it goes with its site space. GET
answers the effective settings, as production documents ("the effective settings with site-level
defaults where no override is set"): the site's object with the override on top, so what is
overridden and what is inherited look alike. PATCH takes production's override body (the fields
of each group, null clearing a field's override) and answers the effective settings; DELETE
answers 205 when there was an override and 204 when not.
"""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.customization import default_customization
from docsync.emulator.errors import bad_request
from docsync.emulator.http import Ctx, api_route, empty, ok
from docsync.emulator.routes import sites_tree as tree
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields, check_string, json_type

PATH = "/v1/orgs/{organizationId}/sites/{siteId}/customization"
SPACE_PATH = "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization"
COLOR = r"^#(?:[0-9a-fA-F]{3}){1,2}$"
CODE_THEMES = (
    "default-light", "default-dark", "monochrome-light", "monochrome-dark", "andromeeda",
    "aurora-x", "ayu-dark", "catppuccin-frappe", "catppuccin-latte", "catppuccin-macchiato",
    "catppuccin-mocha", "dark-plus", "dracula", "dracula-soft", "everforest-dark",
    "everforest-light", "github-dark", "github-dark-default", "github-dark-dimmed",
    "github-dark-high-contrast", "github-light", "github-light-default",
    "github-light-high-contrast", "gruvbox-dark-hard", "gruvbox-dark-medium", "gruvbox-dark-soft",
    "gruvbox-light-hard", "gruvbox-light-medium", "gruvbox-light-soft", "houston",
    "kanagawa-dragon", "kanagawa-lotus", "kanagawa-wave", "laserwave", "light-plus",
    "material-theme", "material-theme-darker", "material-theme-lighter", "material-theme-ocean",
    "material-theme-palenight", "min-dark", "min-light", "monokai", "night-owl", "nord",
    "one-dark-pro", "one-light", "plastic", "poimandres", "red", "rose-pine", "rose-pine-dawn",
    "rose-pine-moon", "slack-dark", "slack-ochin", "snazzy-light", "solarized-dark",
    "solarized-light", "synthwave-84", "tokyo-night", "vesper", "vitesse-black", "vitesse-dark",
    "vitesse-light",
)  # fmt: skip
#: production's SiteCustomizationSettingsBase: group -> required
GROUPS = {
    "title": False,
    "localizedTitle": False,
    "styling": True,
    "internationalization": True,
    "favicon": True,
    "header": True,
    "footer": True,
    "announcement": False,
    "themes": True,
    "feedback": True,
    "ai": True,
    "advancedCustomization": True,
    "pageActions": True,
    "externalLinks": True,
    "pagination": True,
    "trademark": True,
    "privacyPolicy": True,
    "socialPreview": True,
    "socialAccounts": True,
    "insights": True,
}
STYLING_ENUMS = {
    "theme": ("clean", "muted", "bold", "gradient"),
    "corners": ("straight", "rounded", "circular"),
    "depth": ("subtle", "flat"),
    "links": ("default", "accent"),
    "background": ("plain", "match"),
    "icons": ("regular", "solid", "duotone", "light", "thin"),
    "search": ("prominent", "subtle"),
}
COLORS = ("primaryColor", "infoColor", "successColor", "warningColor", "dangerColor")
STYLING = (*STYLING_ENUMS, *COLORS, "tint", "font", "headingFont", "monospaceFont", "codeTheme")
STYLING_REQUIRED = tuple(k for k in (*STYLING, "sidebar") if k not in ("tint", "headingFont"))
#: groups that are `{enabled: boolean}`, and the other one-flag groups
FLAGS = {
    "feedback": "enabled",
    "advancedCustomization": "enabled",
    "pagination": "enabled",
    "trademark": "enabled",
    "insights": "trackingCookie",
}
LOCALES = ("en", "fr", "es", "zh", "ja", "de", "nl", "no", "pt-br", "ru")
MODES = {
    ("themes", "default"): ("light", "dark", "system"),
    ("ai", "mode"): ("none", "search", "assistant"),
    ("externalLinks", "target"): ("self", "blank"),
    ("internationalization", "locale"): LOCALES,
}


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise bad_request(f"{where}: must be an object; got {json_type(value)}")
    return value


def _themed(value: Any, where: str, check: Any) -> None:
    fields = Fields(_object(value, where), ("light", "dark"), f"{where}.")
    for mode in ("light", "dark"):
        check(fields, mode)


def _styling(value: Any) -> None:
    data = _object(value, "styling")
    fields = Fields(data, (*STYLING, "sidebar"), "styling.")
    for name in STYLING_REQUIRED:
        if name not in data:
            raise bad_request(f"styling.{name}: is required (PUT replaces the whole object)")
    for name, values in STYLING_ENUMS.items():
        fields.enum(name, values)
    for name in COLORS:
        if name in data:
            _themed(data[name], f"styling.{name}", _color)
    if "tint" in data:
        tint = Fields(_object(data["tint"], "styling.tint"), ("color",), "styling.tint.")
        _themed(tint.obj("color", required=True), "styling.tint.color", _color)
    where = "styling.codeTheme"
    code = Fields(_object(data["codeTheme"], where), ("default", "openapi"), f"{where}.")
    for name in ("default", "openapi"):
        where = f"styling.codeTheme.{name}"
        _themed(code.obj(name, required=True), where, lambda f, m: _code(f, m))
    where = "styling.sidebar"
    sidebar = Fields(_object(data["sidebar"], where), ("background", "list"), f"{where}.")
    sidebar.enum("background", ("default", "filled"), required=True)
    sidebar.enum("list", ("default", "pill", "line"), required=True)


def _color(fields: Fields, mode: str) -> None:
    fields.string(mode, required=True, pattern=COLOR)


def _code(fields: Fields, mode: str) -> None:
    fields.enum(mode, CODE_THEMES, required=True)


def check_customization(value: Any) -> Doc:
    """The body of a PUT after checking its shape; 400 naming the offending path."""
    data = _object(value, "body")
    Fields(data, GROUPS)
    for name, required in GROUPS.items():
        if required and name not in data:
            raise bad_request(f"{name}: is required (PUT replaces the whole object)")
    if "title" in data:
        check_string("title", data["title"], 2, 128, None)
    for name in GROUPS:
        if name in data and name not in ("title", "socialAccounts"):
            _object(data[name], name)
    if not isinstance(data["socialAccounts"], list):
        raise bad_request(
            f"socialAccounts: must be an array; got {json_type(data['socialAccounts'])}"
        )
    _styling(data["styling"])
    for group, flag in FLAGS.items():
        Fields(data[group], (flag,), f"{group}.").boolean(flag, required=True)
    Fields(data["themes"], ("default", "toggeable"), "themes.").boolean("toggeable", required=True)
    for (group, name), values in MODES.items():
        Fields(data[group], data[group].keys(), f"{group}.").enum(name, values, required=True)
    return data


def _stored(site: Row) -> Doc:
    stored = site.data.get("customization")
    return dict(stored) if isinstance(stored, dict) else default_customization()


def get_customization(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org()["id"])
    return ok(_stored(site))


def put_customization(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    stored = {**check_customization(ctx.body()), "updatedAt": ctx.now}
    tree.patch(ctx.tx, site, {"customization": stored})
    return ok(stored)


#: production's overrideSiteSpaceCustomizationById body: group -> its fields (None: one value)
OVERRIDE: dict[str, tuple[str, ...] | None] = {
    "title": None,
    "localizedTitle": None,
    "styling": (*STYLING_ENUMS, *COLORS, "tint", "sidebar", "codeTheme"),
    "internationalization": ("locale",),
    "favicon": None,
    "announcement": None,
    "header": ("preset", "logo", "primaryLink", "backgroundColor", "linkColor", "links"),
    "footer": ("logo", "groups", "copyright"),
    "themes": ("default", "toggeable"),
    "feedback": ("enabled",),
    "externalLinks": ("target",),
    "pagination": ("enabled",),
    "trademark": ("enabled",),
    "privacyPolicy": ("url",),
    "socialPreview": ("url",),
}
#: fields of the override body taken only as an object (never null)
NOT_NULL = ("announcement", "styling.sidebar", "styling.codeTheme")


def _override_value(where: str, value: Any) -> None:
    """One overridden value checked as far as the emulator can without page content."""
    group, _, name = where.partition(".")
    if group == "styling" and name in STYLING_ENUMS:
        Fields({name: value}, (name,), "styling.").enum(name, STYLING_ENUMS[name])
    elif group == "styling" and name in COLORS:
        _themed(value, where, _color)
    elif group == "styling" and name == "sidebar":
        sidebar = Fields(_object(value, where), ("background", "list"), f"{where}.")
        sidebar.enum("background", ("default", "filled"), nullable=True)
        sidebar.enum("list", ("default", "pill", "line"), nullable=True)
    elif group == "styling" and name == "codeTheme":
        code = Fields(_object(value, where), ("default", "openapi"), f"{where}.")
        for mode in ("default", "openapi"):
            themed = code.obj(mode, nullable=True)
            if themed is not None:
                _themed(themed, f"{where}.{mode}", lambda f, m: _code(f, m))
    elif (group, name) in MODES:
        Fields({name: value}, (name,), f"{group}.").enum(name, MODES[(group, name)])
    elif (group in FLAGS and name == FLAGS[group]) or where == "themes.toggeable":
        Fields({name: value}, (name,), f"{group}.").boolean(name)
    elif where == "title":
        check_string("title", value, 2, 128, None)


def check_override(value: Any) -> Doc:
    """The body of an override PATCH after checking its shape; 400 naming the offending path."""
    data = _object(value, "body")
    Fields(data, OVERRIDE)
    for group, fields in OVERRIDE.items():
        if group not in data:
            continue
        if fields is None:
            if data[group] is None and group in NOT_NULL:
                raise bad_request(f"{group}: must be an object; got null")
            if data[group] is not None:
                _override_value(group, data[group])
            continue
        given = _object(data[group], group)
        Fields(given, fields, f"{group}.")
        for name, item in given.items():
            where = f"{group}.{name}"
            if item is None and where in NOT_NULL:
                raise bad_request(f"{where}: must be an object; got null")
            if item is not None:
                _override_value(where, item)
    return data


def _overlaid(base: Doc, override: Doc) -> Doc:
    """`base` with `override` on top, group by group (a group's fields one by one)."""
    out = dict(base)
    for name, value in override.items():
        if isinstance(value, dict) and OVERRIDE.get(name) is not None:
            out[name] = {**(base.get(name) or {}), **value}
        else:
            out[name] = value
    return out


def _with_override(stored: Doc, body: Doc) -> Doc:
    """The stored override after a PATCH: given fields set, null ones cleared."""
    out = {k: dict(v) if isinstance(v, dict) else v for k, v in stored.items()}
    for group, value in body.items():
        if OVERRIDE[group] is None or value is None:
            if value is None:
                out.pop(group, None)
            else:
                out[group] = value
            continue
        fields = {**out.get(group, {}), **value}
        out[group] = {k: v for k, v in fields.items() if v is not None}
        if not out[group]:
            del out[group]
    return out


def _site_space(ctx: Ctx, site: Row) -> Row:
    return tree.find_child(ctx.tx, site, tree.SITE_SPACE, ctx.params["siteSpaceId"])


def effective_customization(site: Row, site_space: Row) -> Doc:
    """What a site space shows: its site's settings with its override on top."""
    override = site_space.data.get("customization")
    return _overlaid(_stored(site), override if isinstance(override, dict) else {})


def get_space_customization(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org()["id"])
    return ok(effective_customization(site, _site_space(ctx, site)))


def override_space_customization(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    row = _site_space(ctx, site)
    body = check_override(ctx.body())
    stored = row.data.get("customization")
    override = _with_override(stored if isinstance(stored, dict) else {}, body)
    row = tree.patch(ctx.tx, row, {"customization": override or None})
    return ok(effective_customization(site, row))


def delete_space_customization(ctx: Ctx) -> Response:
    site = tree.find_site(ctx, ctx.org(Access.CONTENT)["id"])
    row = _site_space(ctx, site)
    if not row.data.get("customization"):
        return empty(204)
    tree.patch(ctx.tx, row, {"customization": None})
    return empty(205)


def site_customization(site: Row) -> Doc:
    """What the published-content answer carries for the site."""
    return _stored(site)


routes: list[BaseRoute] = [
    api_route("GET", PATH, get_customization),
    api_route("PUT", PATH, put_customization),
    api_route("GET", SPACE_PATH, get_space_customization),
    api_route("PATCH", SPACE_PATH, override_space_customization),
    api_route("DELETE", SPACE_PATH, delete_space_customization),
]
