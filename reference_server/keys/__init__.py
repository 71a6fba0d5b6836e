"""User SSH keys and GPG keys (Gitea's ``asymkey``), with the e-mail routes of the authenticated user."""
