"""Repository collaborators: users given read, write or admin access to one repository."""
