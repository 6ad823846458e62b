"""Loading: merge rules, positions in the merged document, sensitivity, digest, model fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from docsync.manifest import Location, ManifestError, load_manifests


def _messages(error: ManifestError) -> list[str]:
    return [str(problem) for problem in error.problems]


def test_lists_concatenate_and_locations_use_merged_indices(write, tmp_path: Path) -> None:
    write("a.yaml", "organization: org_acme\nteams:\n  - title: A\n  - title: B\n")
    write("b.yaml", "teams:\n  - title: C\n    members: [ada@acme.example]\n")
    loaded = load_manifests([tmp_path], environ={})
    assert [team.title for team in loaded.manifest.teams] == ["A", "B", "C"]
    assert loaded.files == [str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml")]
    assert loaded.location(("teams", 2, "members", 0)) == Location(str(tmp_path / "b.yaml"), 3, 15)
    assert loaded.location(("teams", 1, "title")) == Location(str(tmp_path / "a.yaml"), 4, 12)
    # a path that names nothing falls back to its nearest ancestor
    assert loaded.location(("teams", 2, "nothing", 4)) == Location(str(tmp_path / "b.yaml"), 2, 5)


def test_settings_merge_field_by_field_and_prune_is_a_union(write, tmp_path: Path) -> None:
    write("a.yaml", "organization: org_acme\nsettings: {title: Acme}\nprune: [teams, saml]\n")
    write("b.yaml", "organization: org_acme\nsettings: {defaultRole: null}\nprune: [saml, sites]\n")
    loaded = load_manifests([tmp_path], environ={})
    settings = loaded.manifest.settings
    assert settings is not None
    assert settings.model_fields_set == {"title", "defaultRole"}
    assert settings.defaultRole is None
    assert loaded.manifest.prune == ["teams", "saml", "sites"]
    assert loaded.location(("prune", 2)) == Location(str(tmp_path / "b.yaml"), 3, 15)


def test_explicit_null_and_absent_fields_stay_distinguishable(write) -> None:
    path = write("m.yaml", "organization: o\nsites:\n  - {title: Docs, proxy: null}\n")
    site = load_manifests([path], environ={}).manifest.sites[0]
    assert "proxy" in site.model_fields_set and site.proxy is None
    assert "basename" not in site.model_fields_set


def test_team_member_strings_become_member_refs(write) -> None:
    path = write(
        "m.yaml",
        "organization: o\nteams:\n  - title: T\n"
        "    members: [a@x.example, {user: b, role: owner}]\n",
    )
    members = load_manifests([path], environ={}).manifest.teams[0].members
    assert members is not None
    assert [(m.user, m.role) for m in members] == [("a@x.example", "member"), ("b", "owner")]


def test_env_values_and_sensitive_fields_are_sensitive(write) -> None:
    path = write(
        "m.yaml",
        "organization: \"{{ env('ORG') }}\"\n"
        "saml:\n  - label: Okta\n    certificate: plain-text-cert\n"
        "sites:\n  - title: Docs\n    adaptiveSchema: {type: object}\n",
    )
    with pytest.raises(ManifestError) as caught:
        load_manifests([path], environ={"ORG": "org_acme"})
    assert "org_acme" not in str(caught.value)
    path.write_text(path.read_text().replace("    adaptiveSchema: {type: object}\n", ""))
    loaded_ok = load_manifests([path], environ={"ORG": "org_acme"})
    assert loaded_ok.manifest.organization == "org_acme"
    assert loaded_ok.is_sensitive(("organization",))
    assert loaded_ok.is_sensitive(("saml", 0, "certificate"))
    assert loaded_ok.is_sensitive(("saml", 0, "certificate", "anything", 3))
    assert not loaded_ok.is_sensitive(("saml", 0, "label"))
    assert not loaded_ok.is_sensitive(("sites", 0))


def test_secret_in_invalid_place_is_reported_without_its_value(write) -> None:
    secret = "s3cr3t-value-from-env"
    path = write(
        "m.yaml",
        "organization: o\n"
        "saml:\n  - label: \"{{ env('CERT') }}{{ env('CERT') }}\"\n"
        "    defaultTeam: \"{{ env('CERT') }} team\"\n"
        "sites:\n  - {title: Docs, visibility: \"{{ env('CERT') }}\"}\n",
    )
    with pytest.raises(ManifestError) as caught:
        load_manifests([path], environ={"CERT": secret})
    text = str(caught.value)
    assert secret not in text
    assert "saml[0].label: string should have at most 30 characters" in text
    assert "(sensitive) names no team" in text
    assert "sites[0].visibility" in text


def test_digest_follows_files_variables_and_environment(write) -> None:
    path = write("m.yaml", "organization: \"{{ env('ORG') }}\"\nteams: [{title: '{{ team }}'}]\n")

    def digest(org: str, team: str) -> str:
        return load_manifests([path], variables={"team": team}, environ={"ORG": org}).digest

    assert digest("a", "t") == digest("a", "t")
    assert len({digest("a", "t"), digest("b", "t"), digest("a", "u")}) == 3


def test_directory_reads_yaml_yml_and_j2_files_sorted(write, tmp_path: Path) -> None:
    write("b.yml", "organization: o\nteams: [{title: B}]\n")
    write("a.yaml", "teams: [{title: A}]\n")
    write(
        "c.yaml.j2",
        "spaces:\n{% for n in range(count | int) %}  - title: Space {{ n }}\n{% endfor %}",
    )
    write("notes.txt", "not: a manifest")
    write("sub/d.yaml", "teams: [{title: D}]\n")
    loaded = load_manifests([tmp_path], variables={"count": "3"}, environ={})
    names = ["a.yaml", "b.yml", "c.yaml.j2", "d.yaml"]  # subdirectories too
    assert [Path(name).name for name in loaded.files] == names
    assert [team.title for team in loaded.manifest.teams] == ["A", "B", "D"]
    assert [space.title for space in loaded.manifest.spaces] == ["Space 0", "Space 1", "Space 2"]


def test_same_file_given_twice_is_read_once(write, tmp_path: Path) -> None:
    path = write("m.yaml", "organization: o\nteams: [{title: A}]\n")
    loaded = load_manifests([path, tmp_path, str(path)], environ={})
    assert len(loaded.manifest.teams) == 1


def test_j2_env_values_mark_values_sensitive(write) -> None:
    path = write(
        "m.yaml.j2",
        "organization: o\nsaml:\n  - label: Okta\n    entityID: {{ env('ENTITY') | tojson }}\n",
    )
    loaded = load_manifests([path], environ={"ENTITY": "urn:secret-entity"})
    assert loaded.manifest.saml[0].entityID == "urn:secret-entity"
    assert loaded.is_sensitive(("saml", 0, "entityID"))
    assert not loaded.is_sensitive(("saml", 0, "label"))


def test_missing_paths_and_empty_directories_are_reported(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(ManifestError) as caught:
        load_manifests([tmp_path / "missing.yaml", tmp_path / "empty"], environ={})
    lines = _messages(caught.value)
    assert any("missing.yaml: no such file or directory" in line for line in lines)
    assert any("no manifest files" in line for line in lines)


def test_reserved_variable_name(write) -> None:
    path = write("m.yaml", "organization: o\n")
    with pytest.raises(ManifestError, match=r"'env' is reserved: templates read the environment"):
        load_manifests([path], variables={"env": "x"}, environ={})


def test_all_problems_of_a_run_are_reported_sorted(write, tmp_path: Path) -> None:
    write("b.yaml", "teams:\n  - {title: T, colour: red}\n")
    write("a.yaml", "organization: o\nsaml: [{label: L, defaultRole: boss}]\n")
    with pytest.raises(ManifestError) as caught:
        load_manifests([tmp_path], environ={})
    lines = _messages(caught.value)
    assert len(lines) == 2
    assert lines[0].startswith(f"{tmp_path / 'a.yaml'}:2:")
    assert lines[1].startswith(f"{tmp_path / 'b.yaml'}:2:")
    assert str(caught.value) == "\n".join(lines)


def test_absent_entry_with_key_only_is_accepted(write) -> None:
    path = write(
        "m.yaml",
        "organization: o\n"
        "members: [{email: gone@x.example, state: absent}]\n"
        "spaces: [{title: Old, collection: Archive, state: absent}]\n",
    )
    loaded = load_manifests([path], environ={})
    assert loaded.manifest.spaces[0].state == "absent"
