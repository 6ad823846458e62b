"""End to end: two sites built from nothing by `docsync apply`, then an empty plan, and the live
structure, site fields, adaptive schema and publishing exactly as the manifest says."""

from __future__ import annotations

from tests.sites.kit import SitesRun, load, site_of


def test_two_sites_from_nothing(sites: SitesRun) -> None:
    manifest = load("two-sites.yaml")
    sites.apply(manifest)
    sites.assert_converged(manifest)
    for site in manifest["sites"]:
        sites.assert_structure(site)

    docs = sites.site("Developer Docs")
    assert docs["published"] is True and docs["visibility"] == "public"
    assert docs["basename"] == "docs" and docs["agentsContext"] == "included"
    assert docs["proxy"]["origin"] == "acme.example/docs"
    assert docs["adaptiveContent"] == {"enabled": True}
    schema = sites.get(f"/sites/{docs['id']}/adaptive-schema")["jsonSchema"]
    assert schema == site_of(manifest, "Developer Docs")["adaptiveSchema"]

    handbook = sites.site("Handbook")
    assert handbook["published"] is False and handbook["visibility"] == "unlisted"
    assert "proxy" not in handbook
