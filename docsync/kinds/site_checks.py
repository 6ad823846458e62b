"""What `validate` checks of a site entry beyond its model, before any request: one layout
(sections or root site spaces), the adaptive schema production accepts, and its redirects
(destinations naming what the site does not write)."""

from __future__ import annotations

from docsync.core.checking import CheckView, Item
from docsync.kinds.redirect_destinations import redirect_problems
from docsync.kinds.site_adaptive import check_adaptive_schema


def check_sites(view: CheckView, items: list[Item]) -> None:
    for site_path, site in items:
        if site.get("sections") is not None and site.get("siteSpaces") is not None:
            message = (
                "a site has either 'sections' (each with its siteSpaces) or 'siteSpaces' "
                "(a site without sections), not both"
            )
            view.report((*site_path, "siteSpaces"), message, key=True)
        if isinstance(site.get("adaptiveSchema"), dict):
            schema_path = (*site_path, "adaptiveSchema")
            for path, message in check_adaptive_schema(site["adaptiveSchema"], schema_path):
                view.report(path, message, key=path != schema_path)
        for path, message in redirect_problems(site, site_path):
            view.report(path, message)
