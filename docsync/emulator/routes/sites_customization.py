"""A site's customization: read (production's defaults until written) and replace as a whole.

Stored on the site row (`customization`), so it goes with the site. `PUT` takes production's
SiteCustomizationSettingsInput: every required group present (it replaces the whole object),
no unknown field, and the values the emulator can check without page content (styling's enums
and colours, the flags, the modes) checked, 400 naming the field. The published-content answer
carries the same object.
"""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import BaseRoute

from docsync.emulator.auth import Access
from docsync.emulator.customization import default_customization
from docsync.emulator.errors import bad_request
from docsync.emulator.http import Ctx, api_route, ok
from docsync.emulator.routes import sites_tree as tree
from docsync.emulator.store import Doc, Row
from docsync.emulator.validate import Fields, check_string, json_type

PATH = "/v1/orgs/{organizationId}/sites/{siteId}/customization"
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


def site_customization(site: Row) -> Doc:
    """What the published-content answer carries for the site."""
    return _stored(site)


routes: list[BaseRoute] = [
    api_route("GET", PATH, get_customization),
    api_route("PUT", PATH, put_customization),
]
