"""The harness of the benchmark suites: processes measured (``processes``), output sizes
(``sizes``), the Hugo comparison (``hugo``), cached synthetic inputs (``catalogs``), the machine
(``machine``) and the Markdown report (``report``). Everything a run writes goes to ``OUT``
(``bench/out/``, git-ignored), results included."""

from pathlib import Path

BENCH = Path(__file__).resolve().parents[1]
REPO = BENCH.parent
OUT = BENCH / "out"
BASE_URL = "https://example.org/catalog/"  # every timed build gets one: feeds and the sitemap need it
