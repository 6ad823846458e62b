"""`docsync validate`: output, exit codes, variables and option errors."""

from __future__ import annotations

from pathlib import Path

from tests.manifest.conftest import run_validate


def test_ok_summary(write) -> None:
    path = write("m.yaml", "organization: o\nteams: [{title: A}, {title: B}]\nsaml: [{label: S}]\n")
    result = run_validate(str(path))
    assert result.exit_code == 0
    read = f"Read 1 file: 1 from {path.parent}\n"
    assert result.stdout == "OK: 1 file, 2 teams, 1 saml\n" + read


def test_problems_go_to_stderr_with_exit_1(write) -> None:
    path = write("m.yaml", "organization: o\nteams: [{title: A, colour: red}]\n")
    result = run_validate(str(path))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == f"{path}:2:20: teams[0].colour: unknown field 'colour'\n"


def test_vars_and_var_files(write, tmp_path: Path) -> None:
    path = write("m.yaml", "organization: '{{ org }}'\nteams: [{title: '{{ team }}'}]\n")
    varfile = write("vars.yaml", "org: org_acme\nteam: From File\n")
    result = run_validate(str(path), "--var-file", str(varfile), "--var", "team=From Var")
    assert result.exit_code == 0, result.output
    bad = write("bad-vars.yaml", "- not\n- a mapping\n")
    result = run_validate(str(path), "--var-file", str(bad))
    assert result.exit_code == 1
    assert "a variable file must be a mapping" in result.stderr


def test_bad_var_syntax_is_a_usage_error(write) -> None:
    path = write("m.yaml", "organization: o\n")
    result = run_validate(str(path), "--var", "no-equals-sign")
    assert result.exit_code == 2
    assert "KEY=VALUE" in result.output


def test_paths_are_required_and_must_exist(tmp_path: Path) -> None:
    assert run_validate().exit_code == 2
    assert run_validate(str(tmp_path / "missing.yaml")).exit_code == 2


def test_verbose_and_no_color_are_accepted(write) -> None:
    path = write("m.yaml", "organization: o\n")
    result = run_validate("-v", "--no-color", str(path))
    assert result.exit_code == 0


def test_a_choice_written_in_another_case_is_suggested(write) -> None:
    """`role: Admin` or `language: FR` listed every choice (39 languages) without saying which
    one was meant."""
    path = write(
        "m.yaml",
        "organization: o\nmembers: [{email: a@acme.example, role: Admin}]\n"
        "translations: [{space: S, language: FR}]\nsites: [{title: Docs, visibility: publik}]\n",
    )
    result = run_validate(str(path))
    assert result.exit_code == 1
    assert "members[0].role: input should be 'admin', " in result.stderr
    assert "'read'; got 'Admin'; did you mean 'admin'?" in result.stderr
    assert (
        "translations[0].language: should be one of 39 values; got 'FR'; did you mean 'fr'? "
        "(allowed: 'en', " in result.stderr
    )
    assert "or 'visitor-auth'; got 'publik'; did you mean 'public'?" in result.stderr
