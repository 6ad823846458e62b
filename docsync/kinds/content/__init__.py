"""What holds content: collections, spaces, OpenAPI specifications and translations."""
