"""The Git data API: trees, blobs, refs, raw files, archives and commit diffs, read from the bare repository."""
