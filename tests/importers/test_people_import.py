"""Who is one person (issue 36 item 4) through the importers: Anthology CSL-JSON and NeurIPS
BibTeX records naming one person three ways ("Joshua Tenenbaum", "J. Tenenbaum", "Tenenbaum,
Joshua B.") build one page; namesakes at one venue with no co-author in common stay two."""

from __future__ import annotations

import json

from generator.build import BuildOptions, build
from generator.content.loader import load_catalog
from generator.derive.views import derive
from generator.importers.bibtex import import_bibtex
from generator.importers.csl import import_csl

from ..derive.test_people_identity import slugs_by_name


def _csl(anthology_id: str, title: str, authors: list[tuple[str, str]], volume: str) -> dict:
    """A paper as the ACL Anthology's CSL-JSON export gives it."""
    return {"id": anthology_id, "type": "paper-conference", "title": title,
            "author": [{"given": g, "family": f} for g, f in authors],
            "container-title": volume, "issued": {"date-parts": [[2022, 5]]}, "publisher": "Association for Computational Linguistics",
            "URL": f"https://aclanthology.org/{anthology_id}", "abstract": f"We study {title.lower()} in depth."}


BIBTEX = """\
@inproceedings{ellis-etal-2021-dreamcoder,
  title = {{DreamCoder}: Growing Generalizable, Interpretable Knowledge},
  author = {Ellis, Kevin and Wong, Catherine and Tenenbaum, Joshua B. and Solar-Lezama, Armando},
  booktitle = {Advances in Neural Information Processing Systems 34},
  year = {2021},
  url = {https://proceedings.neurips.cc/paper/2021/hash/abc-Abstract.html},
  abstract = {Program induction for growing knowledge.}
}
"""


def test_imported_records_of_one_person_s_spellings_build_one_page(empty, tmp_path):
    volume = "Proceedings of the 60th Annual Meeting of the Association for Computational Linguistics (Volume 1: Long Papers)"
    records = [
        _csl("2022.acl-long.75", "Compositional Generalization in Program Synthesis",
             [("Maxwell", "Nye"), ("Armando", "Solar-Lezama"), ("Joshua", "Tenenbaum"), ("Brenden", "Lake")], volume),
        _csl("2022.acl-long.76", "Neurosymbolic Grammar Induction",
             [("Kevin", "Ellis"), ("J.", "Tenenbaum"), ("Maxwell", "Nye")], volume),
        _csl("2022.acl-long.77", "Vision and Language Grounding",
             [("Yang", "Liu"), ("Wei", "Chen"), ("Hongsheng", "Li")], volume),
        _csl("2022.acl-long.78", "Egocentric Video Understanding",
             [("Yang L.", "Liu"), ("Kristen", "Grauman")], volume),
    ]
    path = tmp_path / "acl.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    import_csl([path], empty.root)
    bib = tmp_path / "neurips.bib"
    bib.write_text(BIBTEX, encoding="utf-8")
    import_bibtex([bib], empty.root)
    site = derive(load_catalog(empty.root))
    slugs = slugs_by_name(site)
    assert slugs["Joshua Tenenbaum"] == slugs["J. Tenenbaum"] == slugs["Joshua B. Tenenbaum"]
    assert slugs["Yang Liu"] != slugs["Yang L. Liu"]  # one venue, no co-author in common
    person = next(a for a in site.authors if a.ref.slug in slugs["Joshua Tenenbaum"])
    assert len(person.papers) == 3
    out = tmp_path / "site"
    build(BuildOptions(content=empty.root, output=out))
    assert (out / person.ref.url / "index.html").is_file()
