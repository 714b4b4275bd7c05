"""Phrase banks of the fields of a synthetic archive (data for ``text``).

The real seed abstracts (``../shared/seeds``) are machine learning only, so a vision,
language or robotics paper made from them alone would read like any other. Each field
here has a few subtopics, each with sentences and title fragments in that field's words;
``text`` mixes a paper's field sentences (one subtopic per paper) with seed
sentences, so topic finding and tag suggestion see the field structure of a real archive.

``{slot}`` in a sentence is filled from ``SLOTS`` of its field (datasets, metrics, robots…)
or the shared ``{num}`` / ``{pct}``. Field ``ml`` has no bank: its papers are seed text only.

The banks are data, in ``data/fields.toml``; the shares of field text are set here.
"""

from __future__ import annotations

import tomllib
from importlib import resources

_DATA = tomllib.loads(resources.files(__package__).joinpath("data", "fields.toml").read_text(encoding="utf-8"))

# field -> arXiv categories (primary first), used by the arXiv records.
ARXIV_CATEGORIES: dict[str, tuple[str, ...]] = {field: tuple(cats) for field, cats in _DATA["arxiv_categories"].items()}
# field -> slot -> fillers of ``{slot}``
SLOTS: dict[str, dict[str, tuple[str, ...]]] = {
    field: {slot: tuple(fillers) for slot, fillers in slots.items()} for field, slots in _DATA["slots"].items()}
# field -> subtopic -> (sentences, title heads, title tails)
BANKS: dict[str, dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]] = {
    field: {name: (tuple(bank["sentences"]), tuple(bank["title_heads"]), tuple(bank["title_tails"]))
            for name, bank in subtopics.items()}
    for field, subtopics in _DATA["banks"].items()}

# Share of an abstract's sentences from its field's bank (the rest are seed sentences).
FIELD_SHARE = {"ml": 0.0, "theory": 0.55, "vision": 0.55, "language": 0.55, "speech": 0.6, "robotics": 0.6,
               "graphics": 0.6, "data": 0.55, "ai": 0.55}
# Share of titles made from the field's fragments (the rest from the seed titles).
FIELD_TITLE_SHARE = {"ml": 0.0, "theory": 0.7, "vision": 0.7, "language": 0.7, "speech": 0.75, "robotics": 0.75,
                     "graphics": 0.75, "data": 0.7, "ai": 0.7}
