"""Offline C tools for the benchmarks: exact solver and peers (see driver.py)."""
