"""Assignees: who may be assigned to a repository's issues, and adding or removing an issue's assignees
(Gitea 1.27's ``/assignees`` routes); the assignments themselves live in the issues family's tables."""
