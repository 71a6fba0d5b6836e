"""Benchmarks of the kit: scripts that measure speed and memory and print figures (not timed tests)."""
