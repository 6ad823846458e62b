"""The docs agent: a site's agent settings, channels, context connections and MCP servers, and the
organization's agent instructions."""
