"""Releases, their assets, and the repository's Git tags (Gitea's ``repository`` tag)."""
