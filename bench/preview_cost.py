"""What link previews (issue 34: OpenGraph, a Twitter card, the meta description) cost: builds
bench/synth.py's 300-paper catalog (the size budget's, tests/outputs/test_output_budget.py)
into FOLDER and prints a paper page's average size, the bytes of its preview tags, the chrome
of a page and the tar a paper. Run it on a checkout before and after to compare:

    .venv/bin/python bench/preview_cost.py /tmp/preview-cost
"""

from __future__ import annotations

import importlib.util
import re
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", REPO / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def main(root: Path, papers: int = 300) -> None:
    from generator.build import BuildOptions, build

    content = _load("synth").generate(papers, root / "content", seed=0)
    build(BuildOptions(content=content, output=root / "site", base_url="https://example.org/catalog/", cache=None))
    pages = [p.read_bytes() for p in (root / "site" / "papers").glob("*/*/index.html") if "page" not in p.parts]
    tags = re.compile(rb'<meta (?:property="og:[^"]*"|name="twitter:card"|name="description")[^>]*>\n')
    preview = [sum(map(len, tags.findall(page))) for page in pages]
    text = (root / "site" / "404.html").read_text(encoding="utf-8")
    chrome = text[: text.index("<main")] + text[text.index("</main>"):]
    report = _load("size").size_report(root / "site")
    print(f"paper pages: {len(pages)}, {statistics.mean(map(len, pages)):,.0f} bytes on average, of which preview "
          f"tags {statistics.mean(preview):,.0f} (at most {max(preview):,})")
    print(f"chrome of a page: {len(chrome.encode('utf-8')):,} bytes; tar a paper: {report['tar'] / papers:,.0f} bytes")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
