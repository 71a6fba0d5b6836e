"""Commit statuses: what CI systems (and the forge's own Actions) report about a commit."""
