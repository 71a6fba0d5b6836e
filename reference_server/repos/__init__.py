"""Repositories over bare Git, and the single-file contents API."""
