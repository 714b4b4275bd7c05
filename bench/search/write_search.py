"""Write a catalog's search files alone (no site build), for ``index_bytes.py``.

Usage (from the repository root)::

    .venv/bin/python -m bench.search.write_search CATALOG OUT_DIR [NAME=VALUE ...]

NAME=VALUE overrides a size of ``generator/outputs/search/shards.py`` for this run (e.g.
``DOC_CHUNK=100 DICT_BYTES=40000 TERM_BYTES=64000 OWN_BYTES=24000``; the tree's are 200,
32000, 70000 and 16000), to compare file counts and bytes per query (``RESULTS.md``).
Loads and derives the catalog, runs ``build_search`` and writes its files under
``OUT_DIR/search/``, then prints how many files and papers (files per paper).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from generator.content.loader import load_catalog
from generator.derive.views import derive
from generator.outputs.search import build_search, stored_files


def main() -> None:
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    from generator.outputs.search import shards

    for setting in sys.argv[3:]:
        name, value = setting.split("=")
        if not hasattr(shards, name):
            raise SystemExit(f"no {name} in shards.py")
        setattr(shards, name, int(value))
    site = derive(load_catalog(Path(sys.argv[1])))
    files = build_search(site)
    out = Path(sys.argv[2])
    # the search files only: a built site's search page (search/index.html) stays
    for folder in ("dict", "terms", "docs", "people", "ids"):
        shutil.rmtree(out / "search" / folder, ignore_errors=True)
    for path, data in stored_files(files):  # as the site stores them: the numbered files gzip
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            target.write_bytes(data)
        else:
            target.write_text(data, encoding="utf-8")
    papers = len(site.papers)
    print(f"{len(files)} search files for {papers} papers: 1 per {papers / len(files):.1f} papers")


if __name__ == "__main__":
    main()
