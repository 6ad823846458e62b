"""Where a customization's links lead (production's ContentRef, one value of ten kinds) and the
lists that hold links: the header's items, the footer's groups, the site's social accounts.
Each of these is written whole."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag

from docsync.core.entries import Expression
from docsync.core.nullability import NULL
from docsync.kinds.partial import Whole
from docsync.kinds.presentation.values import Localized, Localized64


class FileRef(Whole):
    kind: Literal["file"]
    file: str
    space: str | None = None


class UrlRef(Whole):
    kind: Literal["url"]
    url: str


class PageRef(Whole):
    kind: Literal["page"]
    page: str
    space: str | None = None


class AnchorRef(Whole):
    kind: Literal["anchor"]
    anchor: str
    space: str | None = None
    page: str | None = None


class UserRef(Whole):
    kind: Literal["user"]
    user: str


class CollectionRef(Whole):
    kind: Literal["collection"]
    collection: str


class SpaceRef(Whole):
    kind: Literal["space"]
    space: str


class ReusableContentRef(Whole):
    kind: Literal["reusable-content"]
    reusableContent: str
    space: str | None = None


class TagRef(Whole):
    kind: Literal["tag"]
    tag: str
    space: str | None = None


class OpenApiRef(Whole):
    kind: Literal["openapi"]
    spec: str


def _kind(value: Any) -> Any:
    return value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)


#: production's ContentRef: where a link leads, by `kind`
ContentRef = Annotated[
    Annotated[FileRef, Tag("file")]
    | Annotated[UrlRef, Tag("url")]
    | Annotated[PageRef, Tag("page")]
    | Annotated[AnchorRef, Tag("anchor")]
    | Annotated[UserRef, Tag("user")]
    | Annotated[CollectionRef, Tag("collection")]
    | Annotated[SpaceRef, Tag("space")]
    | Annotated[ReusableContentRef, Tag("reusable-content")]
    | Annotated[TagRef, Tag("tag")]
    | Annotated[OpenApiRef, Tag("openapi")],
    Discriminator(_kind),
]
#: the kinds of a ContentRef, as `validate` names them when `kind` is missing
CONTENT_KINDS = (
    "file", "url", "page", "anchor", "user", "collection", "space", "reusable-content", "tag",
    "openapi",
)  # fmt: skip


class ContentLink(Whole):
    """A titled link (an item of a header link's menu, of a footer group, an announcement's)."""

    title: str = Field(max_length=64)
    localizedTitle: Localized64 | None = None
    to: ContentRef


class HeaderItem(Whole):
    """A link of the header; `to: null` makes it a menu of its `links`."""

    title: str
    localizedTitle: Localized | None = None
    style: Literal["link", "button-primary", "button-secondary"] | None = None
    to: Annotated[ContentRef | None, NULL]
    links: list[ContentLink]
    condition: Expression | None = None
    """An adaptive expression: the item shows to the visitors it holds for."""


class FooterGroup(Whole):
    title: str
    localizedTitle: Localized | None = None
    links: list[ContentLink]


class SocialDisplay(Whole):
    footer: bool
    header: bool


class SocialAccount(Whole):
    platform: Literal[
        "twitter", "instagram", "facebook", "linkedin", "github", "discord", "slack", "youtube",
        "tiktok", "reddit", "bluesky", "mastodon", "threads", "medium",
    ]  # fmt: skip
    handle: str = Field(min_length=1, max_length=128)
    """Without a prefix such as `@`."""
    display: SocialDisplay
