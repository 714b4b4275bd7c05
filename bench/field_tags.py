"""How many papers of each field venue carry a tag of the venue's field (issue 36 item 5).

For a content folder (a catalog imported into a ``papershelf new`` catalog), per conference
series of a field (``series.toml`` ``field``: vision for CVPR/ICCV/ECCV/WACV, language for
ACL/EMNLP/NAACL and their Findings, robotics, graphics, ML …): its papers, how many have a
tag of that field (the fields of the tags of ``--tags``, by default the starter taxonomy of
``papershelf new``: ``tags.toml`` ``field`` and the fields of the series a tag lists), and
the share; then the papers whose only tag is the catch-all. The tag ids are read from the
papers, so a catalog imported by an older Papershelf (whose taxonomy had no ``field``) is
measured by the same fields::

    python -m bench.field_tags /tmp/cat/content [--tags path/to/tags.toml] [--json]

Standard library and the generator only; reads the papers' front matter, builds nothing.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

from generator.content.series import series_of
from generator.content.taxonomy import read_taxonomy
from generator.importers.common import paper_files

STARTER_TAGS = REPO / "generator" / "starter" / "content" / "tags.toml"


def measure(content: Path, tags_toml: Path = STARTER_TAGS, abstracts: bool | None = None) -> dict:
    """{"series": {series id: {field, papers, with_field_tag}}, "papers", "catch_all_only"};
    ``abstracts``: only the papers with (True) or without (False) an abstract."""
    taxonomy = read_taxonomy(tags_toml)
    fields = {tag_id: set(tag.fields) for tag_id, tag in taxonomy.items()}
    fallback = taxonomy.fallback
    per_series: dict[str, Counter] = {}
    field_of: dict[str, str] = {}
    papers = catch_all = 0
    for _slug, front in paper_files(content / "papers"):
        venue, tags = front.data.get("venue"), front.data.get("tags") or []
        if not isinstance(venue, str) or (abstracts is not None and bool(front.body.strip()) != abstracts):
            continue
        papers += 1
        catch_all += list(tags) == [fallback]
        found = series_of(venue)
        if found is None or not found.series.field:
            continue
        series = found.series
        field_of[series.id] = series.field
        counts = per_series.setdefault(series.id, Counter())
        counts["papers"] += 1
        counts["with_field_tag"] += any(series.field in fields.get(tag, ()) for tag in tags)
    return {"series": {sid: {"field": field_of[sid], **counts} for sid, counts in sorted(
                per_series.items(), key=lambda kv: (field_of[kv[0]], kv[0]))},
            "papers": papers, "catch_all_only": catch_all}


def table(result: dict) -> str:
    lines = [f"{'series':<14}{'field':<10}{'papers':>8}{'field tag':>11}{'share':>8}"]
    by_field: dict[str, Counter] = {}
    for sid, row in result["series"].items():
        share = row["with_field_tag"] / row["papers"]
        lines.append(f"{sid:<14}{row['field']:<10}{row['papers']:>8,}{row['with_field_tag']:>11,}{share:>8.1%}")
        by_field.setdefault(row["field"], Counter()).update(papers=row["papers"], tagged=row["with_field_tag"])
    lines.append("")
    for name, c in sorted(by_field.items()):
        lines.append(f"{'(all)':<14}{name:<10}{c['papers']:>8,}{c['tagged']:>11,}{c['tagged'] / c['papers']:>8.1%}")
    n = result["papers"]
    lines.append(f"\nPapers {n:,}; only the catch-all tag: {result['catch_all_only']:,} "
                 f"({result['catch_all_only'] / max(n, 1):.1%})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("content", type=Path)
    parser.add_argument("--tags", type=Path, default=STARTER_TAGS, help="the taxonomy whose fields count")
    parser.add_argument("--abstracts", choices=("with", "without"), help="only the papers with or without one")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = measure(args.content, args.tags, None if args.abstracts is None else args.abstracts == "with")
    print(json.dumps(result, indent=1) if args.json else table(result))


if __name__ == "__main__":
    main()
