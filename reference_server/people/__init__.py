"""People: follows, blocks, user search and OAuth2 applications of accounts."""
