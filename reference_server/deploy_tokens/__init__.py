"""Deploy tokens: repository-scoped credentials (read or read-write) for Git over HTTPS and LFS."""
