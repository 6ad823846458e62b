// A configuration session driven by GitBook's official JS client (@gitbook/api) against the
// emulator: node js_session.cjs <path of dist/index.cjs> <emulator URL> <token>.
// Every call must succeed; prints one JSON line of what it saw. Run by test_js_client.py.
"use strict";
const [clientPath, endpoint, authToken] = process.argv.slice(2);
const { GitBookAPI } = require(clientPath);
const api = new GitBookAPI({ endpoint, authToken });
const seen = {};
const grants = {}; // the access calls, apart from `seen` (whose size test_js_client.py checks)

async function call(name, promise, into = seen) {
  let response;
  try {
    response = await promise;
  } catch (error) {
    const status = error && error.code !== undefined ? error.code : "?";
    throw new Error(`${name}: ${status} ${error && error.message}`);
  }
  into[name] = response.status;
  return response.data;
}

async function main() {
  const orgs = await call("listOrganizationsForAuthenticatedUser", api.orgs.listOrganizationsForAuthenticatedUser());
  const org = orgs.items.find((o) => o.id === "org_acme").id;
  await call("getOrganizationById", api.orgs.getOrganizationById(org));
  const members = await call("listMembersInOrganizationById", api.orgs.listMembersInOrganizationById(org, { limit: 0 }));
  const lin = members.items.find((m) => m.user.email === "lin@acme.example").id;
  await call("updateMemberInOrganizationById", api.orgs.updateMemberInOrganizationById(org, lin, { role: "edit" }));
  const team = await call("createOrganizationTeam", api.orgs.createOrganizationTeam(org, { title: "Platform", members: [lin] }));
  await call("updateMembersInOrganizationTeam", api.orgs.updateMembersInOrganizationTeam(org, team.id, { add: ["u_ada"] }));
  const saml = await call("createOrganizationSamlProvider", api.orgs.createOrganizationSamlProvider(org, { label: "Okta" }));
  await call("updateOrganizationSamlProvider", api.orgs.updateOrganizationSamlProvider(org, saml.id, { ssoURL: "https://idp.example/sso", defaultTeam: team.id }));
  const collection = await call("createCollection", api.orgs.createCollection(org, { title: "Developers" }));
  await call("updateCollectionById", api.collections.updateCollectionById(collection.id, { description: "For builders" }));
  const space = await call("createSpace", api.orgs.createSpace(org, { title: "Guides", parent: collection.id }));
  const other = await call("createSpace#2", api.orgs.createSpace(org, { title: "API" }));
  await call("inviteToSpace", api.spaces.inviteToSpace(space.id, { role: "edit", users: [lin] }), grants);
  const granted = await call("listUserPermissionsInSpace", api.spaces.listUserPermissionsInSpace(space.id), grants);
  if (granted.items.map((item) => `${item.user.id}:${item.permission}`).join() !== `${lin}:edit`) {
    throw new Error(`listUserPermissionsInSpace: ${JSON.stringify(granted.items)}`);
  }
  await call("removeUserFromSpace", api.spaces.removeUserFromSpace(space.id, lin), grants);
  const site = await call("createSite", api.orgs.createSite(org, { title: "Developer Docs" }));
  await call("updateSiteById", api.orgs.updateSiteById(org, site.id, { basename: "docs", proxy: "acme.example/docs" }));
  const guides = await call("addSectionToSite", api.orgs.addSectionToSite(org, site.id, { spaceId: space.id, title: "Guides", draft: false }));
  const reference = await call("addSectionToSite#2", api.orgs.addSectionToSite(org, site.id, { spaceId: other.id, title: "Reference" }));
  await call("addSpaceToSite", api.orgs.addSpaceToSite(org, site.id, { spaceId: other.id, sectionId: guides.id }));
  const group = await call("addSectionGroupToSite", api.orgs.addSectionGroupToSite(org, site.id, { title: "Learn" }));
  await call("updateSiteSectionById", api.orgs.updateSiteSectionById(org, site.id, guides.id, { siteSectionGroupId: group.id, condition: "" }));
  await call("sortSiteStructure", api.orgs.sortSiteStructure(org, site.id, {
    item: { type: "site-section", id: reference.id },
    position: { before: { type: "site-section-group", id: group.id } },
  }));
  // production's nested groups, drafts and localized titles: a group in the group, out and back
  const inner = await call("addSectionGroupToSite#2", api.orgs.addSectionGroupToSite(org, site.id, { title: "Deep dives", parent: group.id, draft: true }));
  await call("updateSiteSectionGroupById", api.orgs.updateSiteSectionGroupById(org, site.id, inner.id, { localizedTitle: { fr: "Plongées" }, draft: false }));
  await call("updateSiteSectionGroupById#2", api.orgs.updateSiteSectionGroupById(org, site.id, inner.id, { parentSectionGroupId: null }));
  await call("updateSiteSectionGroupById#3", api.orgs.updateSiteSectionGroupById(org, site.id, inner.id, { parentSectionGroupId: group.id }));
  const link = await call("addExternalLinkToSite", api.orgs.addExternalLinkToSite(org, site.id, {
    title: "Status",
    url: "https://status.acme.example",
    parent: inner.id,
    localizedTitle: { fr: "Statut" },
    localizedDescription: { fr: "État du service" },
  }));
  const groups = await call("listSiteSectionGroups", api.orgs.listSiteSectionGroups(org, site.id));
  const structure = await call("getSiteStructure", api.orgs.getSiteStructure(org, site.id));
  await call("updateSiteAdaptiveSchema", api.orgs.updateSiteAdaptiveSchema(org, site.id, {
    jsonSchema: {
      type: "object",
      properties: { beta: { type: "boolean", description: "Beta features" } },
      additionalProperties: false,
    },
  }));
  await call("publishSite", api.orgs.publishSite(org, site.id));
  const published = await call("getPublishedContentSite", api.orgs.getPublishedContentSite(org, site.id));
  // a redirect to a page by its path, answered as the page of the site space that publishes it
  const redirect = await call("createSiteRedirect", api.orgs.createSiteRedirect(org, site.id, {
    source: "/start",
    destination: { kind: "path", spaceId: space.id, path: "getting-started" },
  }));
  const resolved = await call("getSiteRedirectBySource", api.orgs.getSiteRedirectBySource(org, site.id, { source: "/start" }));
  await call("createOpenApiSpec", api.orgs.createOpenApiSpec(org, { slug: "public-api", source: { url: "https://acme.example/openapi.yaml" } }));
  await call("listOpenApiSpecs", api.orgs.listOpenApiSpecs(org));
  await call("deleteOrganizationSamlProvider", api.orgs.deleteOrganizationSamlProvider(org, saml.id));
  console.log(JSON.stringify({
    seen,
    grants,
    root: structure.structure.map((item) => item.title),
    learn: structure.structure[1].children.map((item) => item.title),
    deep: structure.structure[1].children[1].children.map((item) => [item.object, item.title]),
    groups: groups.items.map((item) => [item.title, item.sectionGroup || null, item.draft]),
    localized: [groups.items[1].localizedTitle, link.localizedTitle, link.localizedDescription],
    redirect: [redirect.destination.kind, resolved.redirect.id === redirect.id, resolved.target],
    published: published.site.published,
    proxy: published.site.proxy.origin,
  }));
}

main().catch((error) => {
  console.error(String(error && error.message ? error.message : error));
  process.exit(1);
});
