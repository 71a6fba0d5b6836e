"""Pinned issues and pull requests: pin, unpin, move, the pinned lists and whether another pin fits."""
