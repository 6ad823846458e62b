"""A template of text and `{{ ... }}` alone is rendered by its pieces, each expression compiled
once a run (`Renderer._pieces`): whatever it holds, the pieces give what the whole template
gives, its text, its error and the error's line, and env() marks the same values secret."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from docsync.manifest.templating import Renderer, TemplateProblem
from tests.depth import examples

VARIABLES = {"region": "eu", "n": 7, "names": ["a", "b"]}
ENVIRON = {"STAGE": "prod-secret"}

text = st.text(alphabet="ab {}%#-+\n\t'\"é", max_size=8)
expressions = st.sampled_from(
    [
        "{{ region }}",
        "{{region}}",
        "{{- region -}}",
        "{{+ region }}",
        "{{ region | upper }}",
        "{{ n * 3 }}",
        "{{ 'a' ~ region }}",
        "{{\n  region\n}}",
        "{{ names | join(', ') }}",
        "{{ env('STAGE') }}",
        "{{ env('UNSET_ANYWHERE', 'd') }}",
        "{{ env('UNSET_ANYWHERE') }}",
        "{{ missing }}",
        "{{\n\n missing }}",
        "{{ n / 0 }}",
        "{{ 'x' * 99999999 }}",
        "{{ region.__class__ }}",
        "{{ ( }}",
        "{{ region }",
        "{% if n %}{{ n }}{% endif %}",
        "{# a comment #}",
        "{% raw %}{{ kept }}{% endraw %}",
    ]
)
templates = st.lists(st.one_of(text, expressions), max_size=6).map("".join)


def _rendered(renderer: Renderer, template: str) -> tuple[str, Any]:
    try:
        return "text", renderer.render_value(template)
    except TemplateProblem as problem:
        return "problem", (problem.message, problem.line)


def _whole(template: str, monkeypatch: pytest.MonkeyPatch) -> tuple[tuple[str, Any], set[str]]:
    with monkeypatch.context() as patched:
        patched.setattr(Renderer, "_pieces", lambda self, text: None)
        renderer = Renderer(VARIABLES, ENVIRON)
        return _rendered(renderer, template), renderer.secrets


@settings(max_examples=examples(150), deadline=None)
@given(template=templates)
def test_the_pieces_render_what_the_whole_template_renders(template: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        expected, secrets = _whole(template, monkeypatch)
    renderer = Renderer(VARIABLES, ENVIRON)
    # twice: the second time from the expressions compiled the first
    assert _rendered(renderer, template) == expected
    assert _rendered(renderer, template) == expected
    assert renderer.secrets == secrets


def test_one_expression_is_compiled_once_for_any_text_around_it() -> None:
    renderer = Renderer(VARIABLES, ENVIRON)
    rendered = [renderer.render_value(f"Team {{{{ region | upper }}}} {i}")[0] for i in range(50)]
    assert rendered == [f"Team EU {i}" for i in range(50)]
    assert list(renderer._expressions) == ["{{ region | upper }}"]


def test_an_error_is_located_on_its_line_of_the_whole_value() -> None:
    renderer = Renderer(VARIABLES, ENVIRON)
    with pytest.raises(TemplateProblem) as raised:
        renderer.render_value("first\nsecond {{ region }}\nthird {{\n missing }}")
    assert raised.value.line == 4
    assert "'missing' is undefined" in raised.value.message
