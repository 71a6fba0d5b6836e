"""Avatars of users, organizations and repositories: upload (base64), delete, and serve the pictures."""
