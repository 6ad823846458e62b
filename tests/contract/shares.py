"""The two figures of how much of production's configuration docsync manages (docs/manifest.md,
"What docsync cannot manage"): the operation share (`write_operations`) and the field share
(`write_fields`).

    python -m tests.contract.shares           # both figures, then what is left and why
    python -m tests.contract.shares --write   # the figures where the documents state them

`bash scripts/managed-share` runs the first, `bash scripts/generate` the second: a figure is
stated between `<!-- counted: NAME -->` and `<!-- end counted -->` in README.md and
docs/manifest.md, written by this module alone (`tests/contract/test_managed_share.py` fails
when a document states another)."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

from docsync.api.contract import LEFT_OUT, NOT_MANAGED
from tests.contract import write_fields as fields
from tests.contract import write_operations as operations
from tests.contract.checker import Contract

REPO = Path(__file__).resolve().parents[2]
#: the documents that state the figures
STATED = (REPO / "README.md", REPO / "docs" / "manifest.md")
COUNTED = re.compile(r"(<!-- counted: (?P<name>[a-z-]+) -->)(?P<body>.*?)(<!-- end counted -->)")


def _operations(contract: Contract) -> str:
    found = operations.share(contract)
    return (
        f"{len(found.managed)} of {len(found.configuration)} configuration write operations "
        f"({found.percent:.0f}%)"
    )


def _fields(contract: Contract) -> str:
    found = fields.share(contract)
    return (
        f"{len(found.written)} of the {len(found.writable)} request fields a manifest can write "
        f"({found.percent:.0f}%)"
    )


#: what each counted block says
FIGURES: dict[str, Callable[[Contract], str]] = {
    "operation-share": _operations,
    "field-share": _fields,
}


def stated(text: str, contract: Contract) -> str:
    """`text` with every counted block written anew; an unknown block name is a bug."""

    def fill(match: re.Match[str]) -> str:
        return f"{match.group(1)}{FIGURES[match['name']](contract)}{match.group(4)}"

    return COUNTED.sub(fill, text)


def report(contract: Contract) -> list[str]:
    """Both figures, then the configuration operations and fields docsync leaves, and why."""
    ops = operations.share(contract)
    props = fields.share(contract)
    lines = [ops.line(), props.line()]
    left_alone = operations.not_managed(contract)
    for op in ops.configuration:
        if op not in ops.managed:
            lines.append(f"  operation not managed: {op}: {left_alone.get(op, 'UNCLASSIFIED')}")
    for (op, name), why in fields.said(contract, LEFT_OUT).items():
        lines.append(f"  field left out: {op} {name}: {why}")
    lacking = fields.said(contract, NOT_MANAGED)
    for op, name in props.writable:
        if (op, name) not in props.written:
            why = lacking.get((op, name), "UNCLASSIFIED")
            lines.append(f"  field not managed: {op} {name}: {why}")
    return lines


def main(argv: list[str]) -> int:
    from tests.contract.document import load_spec

    spec = load_spec()
    if spec is None:
        raise SystemExit("the production contract is absent: run `bash scripts/contract.sh`")
    contract = Contract(spec)
    if argv == ["--write"]:
        for path in STATED:
            path.write_text(stated(path.read_text("utf-8"), contract), "utf-8")
            print(f"wrote the counted figures of {path.relative_to(REPO)}")
        return 0
    print("\n".join(report(contract)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
