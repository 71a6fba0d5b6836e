"""License detection: the SPDX licenses of a repository's license files on its default branch."""
