"""Production's JSONDocument (an agent's instructions, a translation's), its frame checked:
`{object: document, data: {...}, nodes: [blocks]}`, each block `{object: block, type}`. The
emulator renders no content, so what is inside a block is kept as written; a field of the
document itself that production does not name is dropped, as production ignores it."""

from __future__ import annotations

from typing import Any

from docsync.emulator.errors import bad_request
from docsync.emulator.shapes import Enum, Shape
from docsync.emulator.store import Doc
from docsync.emulator.validate import json_type

#: what a document not yet written reads as
EMPTY_DOCUMENT: Doc = {"object": "document", "data": {}, "nodes": []}


#: the fields of production's JSONDocument
_NAMED = ("object", "data", "nodes", "meta")


class DocumentShape(Shape):
    """Production's JSONDocument, its frame: `{object: document, data: {...}, nodes: [blocks]}`."""

    def check(self, value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            raise bad_request(f"{where}: must be a document object; got {json_type(value)}")
        for name in ("object", "data", "nodes"):
            if name not in value:
                raise bad_request(f"{where}.{name}: is required")
        Enum(("document",)).check(value["object"], f"{where}.object")
        if not isinstance(value["data"], dict):
            raise bad_request(f"{where}.data: must be an object; got {json_type(value['data'])}")
        nodes = value["nodes"]
        if not isinstance(nodes, list):
            raise bad_request(f"{where}.nodes: must be an array; got {json_type(nodes)}")
        for index, node in enumerate(nodes):
            if not isinstance(node, dict) or node.get("object") != "block":
                raise bad_request(f"{where}.nodes[{index}]: must be a block ({{object: block}})")
            if not isinstance(node.get("type"), str):
                raise bad_request(f"{where}.nodes[{index}].type: is required (text)")
        return {name: value[name] for name in _NAMED if name in value}


DOCUMENT = DocumentShape()
