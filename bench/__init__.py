"""Benchmarks of Papershelf, run from the repository root as ``python -m bench.<suite>``: synthetic
data (``bench.synth``), the harness that measures (``bench.harness``) and the suites (``run``,
``seed_import``, ``serve_edit``, ``derive_bench``, ``search.*``, …). Output goes to ``bench/out/``
(git-ignored)."""
