"""Creating a repository from a template repository (``POST /repos/{template_owner}/{template_repo}/generate``)."""
