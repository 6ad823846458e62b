"""What a repository keeps in step with a site or a space: Git Sync installations."""
