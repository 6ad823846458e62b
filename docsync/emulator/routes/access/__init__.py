"""Who may read and edit a collection, space or site: grants, and who can access it."""
