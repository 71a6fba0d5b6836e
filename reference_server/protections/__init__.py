"""Branch and tag protection rules: their management over REST and their enforcement wherever a ref moves."""
