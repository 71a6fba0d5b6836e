"""Commits: the commit list with its count headers, single commits and comparisons of two refs."""
