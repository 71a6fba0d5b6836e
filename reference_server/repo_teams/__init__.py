"""The teams of an organization's repository, seen and managed from the repository's side."""
