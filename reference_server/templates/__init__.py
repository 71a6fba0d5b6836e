"""License, gitignore and label templates: listed and read by anyone, used when a repository is created."""
