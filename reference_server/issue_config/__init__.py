"""Issue configuration and issue templates read from a repository's default branch (Gitea 1.27)."""
