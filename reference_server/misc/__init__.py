"""Miscellaneous endpoints: version, API settings, the API description and the reference-only clock hook."""
