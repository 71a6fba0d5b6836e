"""Forks, fork sync (Gitea's merge-upstream, Forgejo's sync_fork), migrations and pull mirrors."""
