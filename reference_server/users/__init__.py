"""Accounts (users and organizations share one table, as in Gitea), passwords and access tokens."""
