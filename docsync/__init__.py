"""docsync: configuration as code for a documentation platform's Management API."""

__version__ = "0.1.0"
