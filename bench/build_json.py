"""Run ``papershelf build ARGS...`` (the real CLI) and write its BuildReport as JSON.

    python -m bench.build_json REPORT.json build --content C --output O --quiet

bench/run.py runs this in a subprocess for every timed build: the command line is the
CLI's own (``generator.cli.main``), and the report the build returns (pages, bytes,
seconds per stage) is captured by wrapping ``generator.build.build``, which the CLI
looks up when the command runs. Exit status: the CLI's.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from pathlib import Path

STARTED = time.perf_counter()  # before the generator's imports

REPO = Path(__file__).resolve().parents[1]

import generator.build as build_module
from generator.cli import main as cli_main

IMPORTED = time.perf_counter()


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    report_path = Path(argv[0])
    reports: list[object] = []
    real_build = build_module.build

    def build_and_keep(options):
        report = real_build(options)
        reports.append(report)
        return report

    build_module.build = build_and_keep
    status = 0
    try:
        cli_main(argv[1:], prog_name="papershelf", standalone_mode=False)
    except SystemExit as exc:  # the CLI exits 1 on content/output errors
        status = exc.code if isinstance(exc.code, int) else 1
    finally:
        build_module.build = real_build
    if reports:
        data = dataclasses.asdict(reports[-1])
        data["import_seconds"] = IMPORTED - STARTED
        data["process_seconds"] = time.perf_counter() - STARTED
        report_path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
