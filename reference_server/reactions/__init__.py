"""Reactions of users to issues, pull requests and their comments."""
