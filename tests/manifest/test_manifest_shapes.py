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
        f"{path}:6:28: spaces[1].mergeRules: should be a mapping with `type`: one of 'inherit', "
        "'rules', 'none'",
    ]


def test_an_error_inside_merge_rules_is_located_at_its_rule(write: Write) -> None:
    """The shape's tag (`type: rules`) is not a step of the path: it named
    `settings.mergeRules.rules.rules[1].rule`, and both rules at the first one's line."""
    path = write(
        "m.yaml",
        "organization: org_acme\n"
        "settings:\n"
        "  mergeRules:\n"
        "    type: rules\n"
        "    rules:\n"
        "      - {rule: require_at_least_one_review}\n"
        "      - {rule: require_everything}\n"
        "spaces:\n"
        "  - title: A\n"
        "    mergeRules:\n"
        "      type: rules\n"
        "      rules: [{rule: custom, expression: true, message: 3, extra: 1}]\n",
    )
    result = run_validate(str(path))
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith(
        f"{path}:7:16: settings.mergeRules.rules[1].rule: should be one of "
        "'require_specific_reviewers', "
    )
    assert lines[0].endswith("; got 'require_everything'")
    assert lines[1:] == [
        f"{path}:12:42: spaces[0].mergeRules.rules[0].expression: input should be a valid "
        "string; put the value in quotes to make it text",
        f"{path}:12:57: spaces[0].mergeRules.rules[0].message: input should be a valid string; "
        "put the value in quotes to make it text",
        f"{path}:12:60: spaces[0].mergeRules.rules[0].extra: unknown field 'extra'",
    ]


def test_a_key_named_like_a_shape_tag_is_an_unknown_field_where_it_is_written(
    write: Write,
) -> None:
    """Only the tag pydantic puts after `prune` is left out of a path: a top-level key
    `prune-map:` lost its one step and ended validate with an IndexError."""
    path = write("m.yaml", "organization: org_acme\nprune-map: 1\nprune: {teams: '*', bogus: x}\n")
    result = run_validate(str(path))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == (
        f"{path}:2:1: prune-map: unknown field 'prune-map'; did you mean 'prune'?"
    )
    assert result.stderr.splitlines()[1].startswith(f"{path}:3:21: prune.bogus: input should be ")
