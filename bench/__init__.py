"""Benchmarks: ``python -m bench.<name>``; each prints its figures and a baseline measured in the same run (see docs/performance.md)."""
