"""Milestones of a repository and the milestone each issue or pull request belongs to."""
