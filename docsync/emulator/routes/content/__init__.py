"""What holds content: collections, spaces, OpenAPI specifications, translations and the
translations glossary."""
