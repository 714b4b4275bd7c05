"""Benchmarks of Papershelf: synthetic data (``bench.synth``), the suites (``python -m bench.<suite>``)."""
