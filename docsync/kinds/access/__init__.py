"""Who may read and edit a collection, space or site: grants, their planning, lockout rail and
access table."""
