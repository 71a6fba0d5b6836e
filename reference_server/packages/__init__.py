"""The package registry: generic packages on disk and Gitea's package API."""
