"""Search benchmarks (``python -m bench.search.<suite>``): bytes per query against Pagefind,
load and keystroke latency; see RESULTS.md."""
