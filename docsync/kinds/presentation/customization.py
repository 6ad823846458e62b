"""A site's customization: only the fields written are managed, nested ones included (writing
`styling.primaryColor.light` manages that value only). The API reads the whole object and PUT
replaces it whole, so applying reads what is live, merges the written fields in, and writes the
whole object back (`partial.MergedPart`). Used by the site kind.

A mapping is walked into its fields; a list, a scalar or a whole setting (a content reference,
a favicon, a font) is one value (`header.links` written is the whole list). `null` removes an
optional field (`announcement: null`). What is written is checked offline against production's
schema (`SiteCustomization`); what the merge makes, at plan, for the keys production requires.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field as Limits

from docsync.api.contract import INTERNAL, LEAVES, Note
from docsync.core.nullability import NULL
from docsync.core.state import LiveResource, LiveState
from docsync.kinds.declaration import Declaration
from docsync.kinds.kind import ExportNames
from docsync.kinds.partial import (
    ANSWER,
    MergedFields,
    MergedPart,
    Setting,
    known_fields,
    live_customization,
)
from docsync.kinds.presentation.groups import (
    Ai,
    Announcement,
    ExternalLinks,
    Footer,
    GitLinks,
    Header,
    Insights,
    Internationalization,
    PageActions,
    Themes,
)
from docsync.kinds.presentation.links import SocialAccount
from docsync.kinds.presentation.space_customization import written_overrides
from docsync.kinds.presentation.styling import Styling
from docsync.kinds.presentation.values import Favicon, Flag, Localized128, UrlSetting
from docsync.kinds.requests import ORGANIZATION, Lose, Lost, LostAnswers, Routes, Writes


class SiteCustomization(Setting):
    """A site's look, as production's `PUT .../customization` takes it; only the fields written
    are managed, nested ones included."""

    required = (
        "styling", "internationalization", "favicon", "header", "footer", "themes", "feedback",
        "ai", "advancedCustomization", "trademark", "externalLinks", "pagination", "pageActions",
        "privacyPolicy", "socialPreview", "socialAccounts", "insights",
    )  # fmt: skip
    title: Annotated[str | None, NULL] = Limits(default=None, min_length=2, max_length=128)
    """The published site's title; null: the default content's title."""
    localizedTitle: Annotated[Localized128 | None, NULL] = None
    styling: Styling | None = None
    internationalization: Internationalization | None = None
    favicon: Favicon | None = None
    header: Header | None = None
    footer: Footer | None = None
    announcement: Annotated[Announcement | None, NULL] = None
    themes: Themes | None = None
    feedback: Flag | None = None
    """`enabled`: readers may rate pages."""
    ai: Ai | None = None
    advancedCustomization: Flag | None = None
    pageActions: PageActions | None = None
    pdf: Annotated[Flag | None, NULL] = None
    """`enabled`: readers may export pages as PDF (production answers it; its document does
    not have it)."""
    git: Annotated[GitLinks | None, NULL] = None
    externalLinks: ExternalLinks | None = None
    pagination: Flag | None = None
    """`enabled`: previous and next links at the foot of pages."""
    trademark: Flag | None = None
    """`enabled`: "Powered by GitBook" shows."""
    privacyPolicy: UrlSetting | None = None
    socialPreview: UrlSetting | None = None
    socialAccounts: list[SocialAccount] | None = Limits(default=None, max_length=10)
    insights: Insights | None = None


@dataclass
class Customization(MergedFields):
    """The written fields to merge into the live customization."""


# -- the part's kind -------------------------------------------------------------------------

FONTS = "/v1/orgs/{org}/fonts"
#: custom fonts, which a site's `styling.font` may name: production's own to upload
CONTRACT = tuple(
    Note(LEAVES, operation, "", f"{INTERNAL} (custom fonts)")
    for operation in (f"PUT {FONTS}", f"POST {FONTS}/{{id}}", f"DELETE {FONTS}/{{id}}")
)
#: two sites with every part a site's entries write of how it looks and who reaches it
PRESENTED = (
    ORGANIZATION
    + """\
spaces: [{title: Guides}, {title: Guides v1}, {title: Partner Guides}]
sites:
  - title: Docs
    visibility: share-link
    sections:
      - title: Guides
        siteSpaces:
          - {space: Guides, path: latest}
          - {space: Guides v1, path: v1%(override)s}
%(docs)s  - title: Partners
    visibility: visitor-auth
    siteSpaces: [{space: Partner Guides, path: partners}]
%(partners)s"""
)
LOOK = "    customization: {styling: {theme: bold}, trademark: {enabled: false}}\n"
REDIRECTS = """\
    redirects:
      - {source: /old, destination: {section: Guides}}
      - {source: /blog/*, destination: {url: "https://blog.acme.example"}}
"""
LINKS = "    shareLinks: [{name: Preview}, {name: Agency, active: false}, {name: Team}]\n"
AUTH = '    publishingAuth: {backend: custom, fallbackURL: "https://acme.example/login"}\n'
LOST = LostAnswers(
    "presentation",
    PRESENTED % {"override": "", "docs": "", "partners": ""},
    (
        Lost(
            PRESENTED
            % {
                "override": ", customization: {styling: {theme: muted}}",
                "docs": LOOK + REDIRECTS + LINKS,
                "partners": AUTH,
            },
            (
                Lose("PUT", "/redirects$"),
                Lose("POST", "/share-links$"),
                Lose("POST", "/share-links$", carried_out=False),
                Lose("PATCH", "/share-links/[^/]+$"),
                Lose("PUT", "/sites/[^/]+/customization$"),
                Lose("PATCH", "/site-spaces/[^/]+/customization$"),
                Lose("PATCH", "/publishing/auth$"),
            ),
        ),
        Lost(
            PRESENTED
            % {
                "override": ", customization: null",
                "docs": LOOK
                + REDIRECTS.rsplit("      - ", 1)[0]
                + LINKS.replace(", {name: Team}", ""),
                "partners": AUTH,
            },
            (
                Lose("PUT", "/redirects$"),
                Lose("DELETE", "/share-links/[^/]+$"),
                Lose("DELETE", "/site-spaces/[^/]+/customization$"),
            ),
        ),
    ),
    covers=("redirect", "share_link", "publishing_auth", "space_customization"),
)

CUSTOMIZATION = Declaration(
    "customization",
    "customization",
    "customization",
    key="customization",
    parents=("site",),
    part=True,
    singleton=True,
    # read whole, merged with what is written, written back whole
    routes=Routes(
        "/v1/orgs/{org}/sites/{site}/customization",
        item="/v1/orgs/{org}/sites/{site}/customization",
        update="PUT",
        read=True,
    ),
    entry=SiteCustomization,
    describe=(
        "The site's look (production's customization settings); only the fields written are "
        "managed, nested ones included."
    ),
    writes=(Writes(),),  # a PUT of the whole object
    lost_answers=(LOST,),
    contract=CONTRACT,
    answer=ANSWER,  # an object: only the fields written are compared
)


class CustomizationKind(MergedPart):
    declaration = CUSTOMIZATION
    part_payload = Customization

    def reads(self, entry: Any) -> bool:
        # A site space inherits what it does not override: the site's settings are read too.
        return entry.customization is not None or bool(written_overrides(entry))

    def export(
        self, site: LiveResource, live: LiveState, names: ExportNames
    ) -> dict[str, Any] | None:
        """The whole live customization (what is not written is not managed, so the whole object is
        what reproduces the site), but for the fields docsync does not know: no manifest writes
        them, and applying leaves them as they are (said beside the export)."""
        found = live_customization(site)
        if found is None:
            return None
        exported, unknown = known_fields(found, SiteCustomization)
        if unknown:
            names.left_as_is(
                f"{site.address}.{self.section}",
                f"{', '.join(unknown)}: fields docsync does not know, left as they are",
            )
        return exported
