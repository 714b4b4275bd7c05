"""The child process of the seed-import suite (``bench/seed_import.py``): times ``import_seeds``
itself, the generator's imports apart, and writes its counts as JSON.

    python -m bench.import_child SEEDS CONTENT REPORT.json

Only the standard library is imported before the clock starts.
"""

import json
import sys
import time
from pathlib import Path


def main(seeds: Path, content: Path, report_file: Path) -> None:
    started = time.perf_counter()
    from generator.importers.common import STATUSES  # noqa: PLC0415  (timed: the imports)
    from generator.importers.seeds import import_seeds  # noqa: PLC0415

    imported = time.perf_counter()
    report = import_seeds(sorted(seeds.glob("*.txt")), content, seeds / "metadata")
    done = time.perf_counter()
    report_file.write_text(json.dumps({
        "import_seconds": imported - started, "seconds": done - imported, "papers": len(report.papers),
        "warnings": len(report.warnings), "statuses": {s: report.count(s) for s in STATUSES}}))


if __name__ == "__main__":
    main(*(Path(arg) for arg in sys.argv[1:4]))
