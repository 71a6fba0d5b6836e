"""Issue search across the repositories a caller can see (``GET /repos/issues/search``)."""
