"""Messages for values YAML reads otherwise than they look, and for values a field refuses: each
says what was written and what would be taken."""

from __future__ import annotations

from tests.kit import Write
from tests.manifest.conftest import run_validate


def _problems(write: Write, text: str, env: dict[str, str] | None = None) -> list[str]:
    path = write("m.yaml", "organization: org_acme\n" + text)
    result = run_validate(str(path), env=env)
    assert result.exit_code == 1, result.output
    return [line.removeprefix(f"{path}:") for line in result.stderr.splitlines()]


def test_a_value_yaml_reads_as_a_boolean_gets_the_quotes_hint(write: Write) -> None:
    """`no` is Norwegian to the writer, false to YAML: say so, as for `title: 404`."""
    problems = _problems(write, "spaces:\n  - {title: Guides, language: no}\n")
    assert len(problems) == 1
    assert problems[0].startswith(
        "3:31: spaces[0].language: should be one of 39 values; got false: YAML reads an unquoted "
        "no, off or false as false; put the value in quotes to make it text (allowed: 'en', "
    )


def test_an_enum_error_repeats_the_value_it_refused(write: Write) -> None:
    problems = _problems(write, "sites:\n  - {title: Docs, visibility: secret}\n")
    assert problems == [
        "3:31: sites[0].visibility: input should be 'public', 'unlisted', 'share-link' or "
        "'visitor-auth'; got 'secret'"
    ]


def test_a_close_enum_value_gets_its_did_you_mean_after_it(write: Write) -> None:
    problems = _problems(write, "sites:\n  - {title: Docs, visibility: publik}\n")
    assert problems == [
        "3:31: sites[0].visibility: input should be 'public', 'unlisted', 'share-link' or "
        "'visitor-auth'; got 'publik'; did you mean 'public'?"
    ]


def test_a_sensitive_enum_value_is_not_repeated(write: Write) -> None:
    problems = _problems(
        write,
        "sites:\n  - {title: Docs, visibility: \"{{ env('VISIBILITY') }}\"}\n",
        env={"VISIBILITY": "publik"},
    )
    assert problems == [
        "3:31: sites[0].visibility: input should be 'public', 'unlisted', 'share-link' or "
        "'visitor-auth'; got (sensitive)"
    ]


def test_templated_booleans_are_read_as_the_docs_say(write: Write) -> None:
    """docs/manifest.md: a rendered value is text; boolean fields accept `"true"`, `"false"`."""
    path = write(
        "m.yaml",
        "organization: org_acme\n"
        "sites:\n"
        "  - title: Docs\n"
        '    published: "{{ flag }}"\n'
        '    adaptiveContent: {enabled: "{{ flag }}"}\n'
        '    shareLinks: [{name: Preview, active: "{{ flag }}"}]\n'
        '    customization: {trademark: {enabled: "{{ flag }}"}}\n'
        "spaces:\n"
        '  - {title: Guides, protect: "{{ flag }}"}\n',
    )
    for flag in ("true", "false", "True"):
        result = run_validate(str(path), "--var", f"flag={flag}")
        assert result.exit_code == 0, (flag, result.output)
