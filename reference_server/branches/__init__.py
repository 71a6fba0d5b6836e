"""Branches: list, get, create, delete, rename and move, every ref change through one choke point."""
