"""What a new space is made from, besides nothing: a computed content source (`createSpace`'s
`computedSource`, production's `ComputedContentSourceRevision`: an OpenAPI reference, a
translation, or an integration's).

The emulator computes no content: the source is checked as production declares it, what it
depends on must exist in the organization (an OpenAPI spec by slug, a translation by id; the
emulator has no integration installed, so an integration's source names nothing: 404), and the
space is made as any other, the source kept on its row.
"""

from __future__ import annotations

from typing import Any

from docsync.emulator.errors import not_found
from docsync.emulator.shapes import Bool, Dict, Enum, Nullable, Obj, OneOf, Plain, Shape, Str
from docsync.emulator.store import Tx
from docsync.emulator.validate import TRANSLATION_LANGUAGES


def _dependency(ref: Shape, value: Shape) -> OneOf:
    """A dependency before resolution (`{ref}`, closed) or with its resolved `value`."""
    return OneOf(
        (
            Obj({"ref": ref}, ("ref",), closed=True),
            Obj({"ref": ref, "value": Nullable(value)}, ("ref", "value")),
        ),
        "{ref} or {ref, value}",
    )


_SPACE_REF = Obj({"kind": Enum(("space",)), "space": Str()}, ("kind", "space"))
_OPENAPI_REF = Obj({"kind": Enum(("openapi",)), "spec": Str()}, ("kind", "spec"))
_TRANSLATION_REF = Obj(
    {"kind": Enum(("translation",)), "translation": Str()}, ("kind", "translation")
)
_OPENAPI = _dependency(
    _OPENAPI_REF,
    Obj(
        {
            "object": Enum(("openapi-spec",)),
            "id": Str(),
            "slug": Str(),
            "lastVersion": Str(),
            "visibility": Enum(("private", "public")),
        },
        ("object", "id", "slug"),
    ),
)
_TRANSLATION = _dependency(
    _TRANSLATION_REF,
    Obj(
        {"space": Str(), "revision": Str(), "language": Enum(TRANSLATION_LANGUAGES)},
        ("space", "revision", "language"),
    ),
)
_SPACE = _dependency(
    _SPACE_REF,
    Obj({"object": Enum(("space",)), "id": Str(), "revision": Str()}, ("object", "id", "revision")),
)
_ANY_REF = OneOf(
    (_SPACE_REF, _OPENAPI_REF, _TRANSLATION_REF), "a space, openapi or translation ref"
)
SOURCE = OneOf(
    (
        Obj(
            {
                "type": Enum(("builtin:openapi",)),
                "dependencies": Obj({"spec": _OPENAPI}, ("spec",)),
                "props": Obj(
                    {
                        "models": Bool(),
                        "downloadLink": Bool(),
                        "grouping": Enum(("by-tag", "by-operation")),
                    },
                    ("models",),
                ),
            },
            ("type", "dependencies", "props"),
        ),
        Obj(
            {
                "type": Enum(("builtin:translation",)),
                "props": Obj({}, closed=True),
                "dependencies": Obj({"translation": _TRANSLATION}, ("translation",)),
            },
            ("type", "props", "dependencies"),
        ),
        Obj(
            {
                "type": Str(pattern=r"^integration:[^:]+:[^:]+$"),
                "props": Plain(),
                "dependencies": Dict(
                    OneOf(
                        (
                            Obj({"ref": _ANY_REF}, ("ref",), closed=True),
                            OneOf((_SPACE, _OPENAPI, _TRANSLATION), ""),
                        ),
                        "a dependency",
                        any=True,
                    )
                ),
            },
            ("type", "props"),
        ),
    ),
    "a computed source of type builtin:openapi, builtin:translation or integration:<name>:<id>",
    tag="type",
)


def check_source(tx: Tx, org: str, value: Any) -> dict[str, Any]:
    """The source after checking its shape and that what it depends on exists in `org`."""
    value = SOURCE.check(value, "computedSource")
    kind = str(value["type"])
    if kind == "builtin:openapi":
        slug = value["dependencies"]["spec"]["ref"]["spec"]
        if tx.get("openapi-spec", f"{org}/{slug}") is None:
            raise not_found(f"computedSource.dependencies.spec.ref.spec: no OpenAPI spec {slug!r}")
    elif kind == "builtin:translation":
        translation = value["dependencies"]["translation"]["ref"]["translation"]
        row = tx.get_row("translation", translation)
        if row is None or row.org != org:
            raise not_found(
                f"computedSource.dependencies.translation.ref.translation: no translation "
                f"{translation!r} in organization {org!r}"
            )
    else:
        raise not_found(f"computedSource.type: no integration installed for {kind!r}")
    return dict(value)
