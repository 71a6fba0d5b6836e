"""Issues and the parts pull requests share with them: index, comments, timeline, assignees, lock."""
