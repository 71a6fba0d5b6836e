"""User badges: definitions configured on the server, assigned to users by site administrators (Gitea's admin API)."""
