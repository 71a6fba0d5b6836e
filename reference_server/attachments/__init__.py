"""Files attached to issues and to their comments (release assets are the releases family's)."""
