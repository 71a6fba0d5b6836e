"""Transferring a repository to another owner: directly, or as a transfer the new owner accepts or rejects."""
