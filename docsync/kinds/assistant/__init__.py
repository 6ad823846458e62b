"""The site assistant: its agent settings and the MCP servers it may call."""
