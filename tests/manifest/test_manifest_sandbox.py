"""Templating: the sandbox holds, env() and variables work, errors point at the right line."""

from __future__ import annotations

import pytest

from docsync.manifest import ManifestError, load_manifests
from docsync.manifest.templating import Renderer, TemplateProblem

ESCAPES = [
    "{{ ''.__class__.__mro__ }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ cycler.__init__.__globals__.os }}",
    "{{ lipsum.__globals__['os'] }}",
    "{{ namespace.__init__.__globals__ }}",
    "{{ env.__globals__ }}",
    "{{ range.__self__ }}",
    "{% include '/etc/passwd' %}",
    "{% import 'os' as os %}",
    "{% extends '/etc/hosts' %}",
    "{{ self.__init__.__globals__ }}",
    "{{ 'x' * 100000000 }}",
    "{{ 9 ** 99999 }}",
    "{{ [].append(1) }}",
    "{{ {}.update(a=1) }}",
    "{{ open('/etc/passwd').read() }}",
    "{{ __import__('os') }}",
]


@pytest.mark.parametrize("template", ESCAPES)
def test_sandbox_refuses(template: str) -> None:
    with pytest.raises(TemplateProblem):
        Renderer({}, {}).render_value(template)


def test_sandbox_escape_is_a_located_problem(write) -> None:
    path = write("m.yaml", "organization: o\nteams:\n  - title: \"{{ ''.__class__.__mro__ }}\"\n")
    with pytest.raises(ManifestError) as caught:
        load_manifests([path], environ={})
    (problem,) = caught.value.problems
    assert str(problem).startswith(f"{path}:3:12: teams[0].title: template refused by the sandbox")


def test_env_variables_and_filters() -> None:
    renderer = Renderer({"region": "eu", "names": ["a", "b"]}, {"HOME_DIR": "/h"})
    assert renderer.render_value("{{ region | upper }}-{{ names | join(',') }}") == (
        "EU-a,b",
        False,
    )
    assert renderer.render_value("{{ env('HOME_DIR') }}") == ("/h", True)
    assert renderer.render_value("{{ env('UNSET', 'fallback') }}") == ("fallback", True)
    assert renderer.render_value("plain {text}") == ("plain {text}", False)


def test_unset_env_names_the_variable(write) -> None:
    path = write("m.yaml", "organization: \"{{ env('DOCSYNC_TEST_UNSET') }}\"\n")
    with pytest.raises(ManifestError) as caught:
        load_manifests([path], environ={})
    (problem,) = caught.value.problems
    assert "environment variable DOCSYNC_TEST_UNSET is not set" in str(problem)
    assert str(problem).startswith(f"{path}:1:15: organization:")


def test_undefined_variable_is_an_error(write) -> None:
    path = write("m.yaml", "organization: o\nteams: [{title: '{{ nope }}'}]\n")
    with pytest.raises(ManifestError, match="'nope' is undefined"):
        load_manifests([path], environ={})


def test_whole_file_template_errors_point_at_the_template_line(write) -> None:
    path = write(
        "m.yaml.j2",
        "organization: o\n{% for i in range(2) %}\nteams:\n  - title: {{ i }}\n{% endfor %}\n"
        "{{ missing }}\n",
    )
    with pytest.raises(ManifestError) as caught:
        load_manifests([path], environ={})
    (problem,) = caught.value.problems
    assert str(problem).startswith(f"{path}:6:1: template error: 'missing' is undefined")
    syntax = write("s.yaml.j2", "organization: o\n\n{% if %}\n")
    with pytest.raises(ManifestError) as caught:
        load_manifests([syntax], environ={})
    assert str(caught.value).startswith(f"{syntax}:3:1: template syntax error")


def test_values_of_j2_files_are_not_rendered_twice(write) -> None:
    path = write("m.yaml.j2", "organization: o\nteams: [{title: \"{{ '{{ raw }}' }}\"}]\n")
    assert load_manifests([path], environ={}).manifest.teams[0].title == "{{ raw }}"


def test_bool_fields_accept_rendered_text(write) -> None:
    path = write("m.yaml", 'organization: o\nsites: [{title: Docs, published: "{{ publish }}"}]\n')
    loaded = load_manifests([path], variables={"publish": "false"}, environ={})
    assert loaded.manifest.sites[0].published is False
