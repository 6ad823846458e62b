"""What a repository keeps in step with a site or a space: Git Sync installations, their
planning, and what the sites and spaces that hold one add to their reading, planning and export.
"""
