"""Git LFS: the batch API with basic transfers, object upload, download and verify, and file locks."""
