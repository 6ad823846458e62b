"""Instructions for the docs agent, which production keeps as a document (`JSONDocument`). A
manifest writes them as text, one paragraph per block separated by a blank line, or as the
document itself (for what text cannot say: headings, lists, marks). They compare as written:
a document of plain paragraphs reads back as its text, any other as the document without the
`key`s production gives its blocks."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator

#: a document written in a manifest: production's frame, checked offline
DOCUMENT_KEYS = frozenset({"object", "data", "nodes"})


def check_instructions(value: Any) -> Any:
    """A text, or a document's frame: `{object: document, data: {...}, nodes: [blocks]}`."""
    if isinstance(value, str) or value is None:
        return value
    if not isinstance(value, dict):
        raise ValueError("write the instructions as text, or as a document {object, data, nodes}")
    unknown = sorted(set(value) - DOCUMENT_KEYS)
    if unknown:
        raise ValueError(f"a document has no {unknown[0]!r} (it has object, data and nodes)")
    if value.get("object") != "document" or not isinstance(value.get("nodes"), list):
        raise ValueError("a document is {object: document, data: {}, nodes: [blocks]}")
    if not isinstance(value.get("data", {}), dict):
        raise ValueError("a document's `data` is an object")
    for index, node in enumerate(value["nodes"]):
        if not isinstance(node, dict) or node.get("object") != "block":
            raise ValueError(f"nodes[{index}]: a document's nodes are blocks {{object: block}}")
    return {"object": "document", "data": {}, **value}


#: instructions as a manifest writes them (checked offline)
Instructions = Annotated[str | dict[str, Any], AfterValidator(check_instructions)]


def to_document(value: Any) -> Any:
    """What production takes: a text made a document of paragraphs; a document as written."""
    if not isinstance(value, str):
        return value
    paragraphs = [p.strip() for p in value.strip().split("\n\n") if p.strip()]
    return {
        "object": "document",
        "data": {},
        "nodes": [
            {
                "object": "block",
                "type": "paragraph",
                "data": {},
                "nodes": [
                    {"object": "text", "leaves": [{"object": "leaf", "text": text, "marks": []}]}
                ],
            }
            for text in paragraphs
        ],
    }


def as_written(document: Any) -> Any:
    """A document as a manifest writes it: its text when it is plain paragraphs, else the
    document without its blocks' keys; a text stays a text, normalised as `to_document` reads
    it."""
    if isinstance(document, str):
        return as_written(to_document(document))
    if not isinstance(document, dict):
        return document
    text = _plain_text(document)
    if text is not None:
        return text
    return _without_keys({k: v for k, v in document.items() if k in DOCUMENT_KEYS})


def _plain_text(document: dict[str, Any]) -> str | None:
    paragraphs: list[str] = []
    for block in document.get("nodes") or []:
        if not isinstance(block, dict) or block.get("type") != "paragraph":
            return None
        if block.get("data") not in (None, {}):
            return None
        text = ""
        for node in block.get("nodes") or []:
            if not isinstance(node, dict) or node.get("object") != "text":
                return None
            for leaf in node.get("leaves") or []:
                if not isinstance(leaf, dict) or leaf.get("marks"):
                    return None
                text += str(leaf.get("text", ""))
        if not text.strip():
            return None
        paragraphs.append(text.strip())
    return "\n\n".join(paragraphs)


def _without_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_keys(v) for k, v in value.items() if k != "key"}
    if isinstance(value, list):
        return [_without_keys(v) for v in value]
    return value
