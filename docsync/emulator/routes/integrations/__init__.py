"""Integration installations on the organization, its sites and its spaces."""
