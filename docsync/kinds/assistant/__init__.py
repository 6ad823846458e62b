"""The site assistant: its agent settings, the MCP servers it may call, what it reads (context
connections) and where it answers (channels)."""
