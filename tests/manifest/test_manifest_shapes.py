"""A value of several shapes told apart by one field (merge rules by `type`, content
references by `kind`): a tag none of them has, or no tag, is refused at that field, naming the
field and the tags it takes."""

from __future__ import annotations

from tests.kit import Write
from tests.manifest.conftest import run_validate


def test_merge_rules_of_no_type_name_the_field_and_its_types(write: Write) -> None:
    path = write(
        "m.yaml",
        "organization: org_acme\n"
        "settings:\n  mergeRules: {type: rulez}\n"
        "spaces:\n  - {title: A, mergeRules: {type: inherits}}\n"
        "  - {title: B, mergeRules: {rules: []}}\n",
    )
    result = run_validate(str(path))
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{path}:3:22: settings.mergeRules.type: should be one of 'rules', 'none'; got 'rulez'; "
        "did you mean 'rules'?",
        f"{path}:5:35: spaces[0].mergeRules.type: should be one of 'inherit', 'rules', 'none'; "
        "got 'inherits'; did you mean 'inherit'?",
        f"{path}:6:28: spaces[1].mergeRules: should be a mapping with `type`",
    ]
