"""How a site looks and who reaches it: customization, site space overrides, redirects, share
links, publishing auth."""
