"""Synthetic catalogs for benchmarks: ``generate(n, out, seed)`` writes a content folder.

Usage::

    python bench/synth.py 10000 /tmp/cat10k [--seed 0]

The catalog is made deterministically (same ``n`` and ``seed`` -> byte-identical files)
from the sentences of the real seed abstracts (``<repo>/../shared/seeds/*.txt``, or the
bodies of ``content/papers/*.md`` when the shared seeds are missing):

* **Abstracts**: 4–11 seed sentences each, most from one source abstract (its topic), the
  rest from anywhere. 15 % of the words of five or more letters are replaced by
  pseudo-words drawn from an unbounded Zipf–Mandelbrot distribution, so, as in a real
  corpus, a few coined words are frequent and the vocabulary keeps growing with the corpus
  (Heaps' law: ~8,000 distinct words at 1,000 papers, ~27,000 at 10,000, V ~ N^0.5). About
  as many abstracts carry LaTeX math as in the seeds (1–2 math sentences, kept whole).
* **Titles**: fragments of the real titles recombined ("<head> for <tail>"), often with
  a coined method name ("Brelomi: ..."), some with inline math; unique in the catalog.
* **Authors**: 1–12 per paper from a large synthetic name pool (accented and a few
  non-Latin names), drawn with a heavy head so prolific authors are shared by many papers.
* **Venues**: real conference names over several years (more papers in later years).
* **Tags**: ids of ``content/tags.toml``. Every seed sentence and title fragment carries
  the tags of the real paper it comes from (from ``content/papers`` or, failing that,
  ``generator.importers.tags.suggest_tags``); a synthetic paper gets the tags most of its
  sentences (and, weighted 3, its title) vote for — so tags follow the text, as with the
  importer's suggestions. ``suggest_tags=True`` runs the real suggestions instead.

The papers go through the real importer: the generator writes seed-format text files
(one per venue: a ``"<Venue> <year> Papers"`` header, one abstract per paragraph) and
``metadata/*.json`` records (title, authors, presentation, URLs), then runs
``generator.importers.seeds.import_seeds`` into the content folder. A few papers have no
metadata record and are imported as provisional, as in the real seed catalog.

The importer's tag suggestion costs about 25–30 ms of CPU per paper (``score_tags`` runs
some 700 phrase regexes over each text and rebuilds its phrase index on every call): 5
minutes for 10,000 papers, 25 for 50,000. By default the importer is therefore given a
one-tag taxonomy (every paper gets a placeholder tag, instantly) and the placeholder in
each written file is then replaced by the voted tags, exactly as the importer writes a
tag list; everything else (parsing, metadata checks, slugs, front matter, venue files,
atomic writes) is the importer's own work. ``suggest_tags=True`` (CLI ``--suggest-tags``)
keeps the real taxonomy and its suggestions, for small catalogs or patience.

``out`` is written to a temporary folder beside it and renamed into place; an existing
``out`` is replaced only when it is a previous synthetic catalog (it holds the marker
file ``.papershelf-synth``), never a folder of someone's content.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import shutil
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run as a script: make ``generator`` importable
    sys.path.insert(0, str(REPO))

from generator.content import frontmatter  # noqa: E402
from generator.importers.seeds import import_seeds, provisional_title  # noqa: E402
from generator.content.taxonomy import read_taxonomy  # noqa: E402
from generator.importers import tags as tags_module  # noqa: E402

SEEDS_DIR = Path(__file__).resolve().parents[2] / "shared" / "seeds"
FALLBACK_PAPERS = REPO / "content" / "papers"
TAGS_TOML = REPO / "content" / "tags.toml"
MARKER = ".papershelf-synth"
PLACEHOLDER_TAG = "synth-placeholder"
PLACEHOLDER_TAXONOMY = f"""\
# One tag, so that the importer's tag suggestion is instant; replaced after the import.
[{PLACEHOLDER_TAG}]
name = "Placeholder"
description = "Replaced by bench/synth.py after the import."
phrases = []
fallback = true
"""

# Pseudo-word vocabulary: Zipf-Mandelbrot ranks, P(rank >= k) = (1 + k/ZIPF_Q)^-(ZIPF_S - 1),
# and the share of eligible words (five or more lower-case letters) replaced by one. With these,
# the vocabulary grows like a real corpus (Heaps' law, V ~ N^0.5): ~8k distinct words at
# 1,000 papers, ~27k at 10,000 (bench/RESULTS.md shows the index terms of each size).
ZIPF_S = 1.5
ZIPF_Q = 150
PSEUDO_RATE = 0.15
MAX_RANK = 10**9
TOPIC_RATE = 0.6  # share of an abstract's sentences taken from one source paper (its topic)
MIN_SENTENCES, MAX_SENTENCES = 4, 11
# Authors per paper: 1..12, most often 3-6.
AUTHOR_COUNT_WEIGHTS = (4, 9, 14, 16, 15, 12, 9, 7, 5, 4, 3, 2)
PROVISIONAL_RATE = 0.01  # papers without a metadata record (no title/authors known)
TITLE_MATH_RATE = 0.03
TITLE_VOTE = 3  # a title fragment votes for its paper's tags like three sentences
VOTE_SHARE = 0.7  # a tag needs this share of the best tag's votes (1-3 tags, like the seeds)
PRESENTATIONS = (("poster", 75), ("spotlight", 15), ("oral", 5), (None, 5))

CONFERENCES = (  # short name (as the importer knows it), relative size
    ("NeurIPS", 10), ("ICML", 8), ("ICLR", 8), ("CVPR", 9), ("ACL", 4), ("EMNLP", 4),
    ("AAAI", 6), ("KDD", 2), ("AISTATS", 2), ("UAI", 1), ("COLT", 1),
)
YEARS = tuple(range(2024, 2015, -1))  # newest first
PAPERS_PER_VENUE = 250  # the number of venue-years grows with the catalog

FIRST_NAMES = (
    "Ada Alan Alice Amir Ana Andrea Anna Arjun Ben Bo Camille Carlos Chen Chloe Daniel David Diego Dmitri "
    "Elena Emma Eric Fatima Felix Gabriel Grace Hannah Hao Hiroshi Ines Isabel Ivan Jack James Jan Jia Jin "
    "John Jonas Julia Kai Karim Kenji Laura Lei Leo Li Lin Lucas Lukas Maria Mark Marta Mei Michael Min "
    "Mohammed Nadia Naveen Nina Noah Olga Omar Pablo Paul Pedro Priya Qiang Rahul Rosa Ruth Sam Sara Sergey "
    "Shu Sofia Sophie Tariq Thomas Tian Tom Valentina Victor Wei Xin Yan Yang Yi Yuki Yusuf Zara Zhi Ziyu "
    "Aarav Bruno Chiara Dara Emil Freya Gustav Hugo Ingrid Jana Kofi Lena Mateo Nora Oscar Pia Quinn Rafael "
    "Selin Theo Uma Vera Wen Xiao Yara Zoltan "
    "José Zoë François Jürgen Søren Łukasz Çağlar Renée Noémie Björn Óscar Ramón Inês Jérôme Mélanie "
    "Dagný Ştefan Tomáš Agnès Håkon Gökhan Marić Dóra Ülkü Nguyễn"
).split()
FAMILY_NAMES = (
    "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez "
    "Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Lewis "
    "Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall "
    "Rivera Campbell Mitchell Carter Roberts Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu "
    "Hu Guo He Lin Luo Gao Zheng Liang Xie Tang Han Cao Deng Feng Kim Park Choi Jung Kang Cho Yoon Tanaka "
    "Suzuki Takahashi Watanabe Ito Yamamoto Nakamura Kobayashi Sato Patel Shah Singh Kumar Sharma Gupta "
    "Iyer Rao Reddy Das Bose Khan Ahmed Ali Hassan Ibrahim Mahmoud Cohen Levi Mizrahi Novak Kowalski "
    "Nowak Wiśniewski Horvat Ivanov Petrov Smirnov Popov Kuznetsov Schmidt Schneider Fischer Weber Meyer "
    "Wagner Becker Schulz Hoffmann Koch Richter Klein Wolf Neumann Schwarz Zimmermann Braun Hofmann "
    "Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco Bruno Gallo Conti Dubois "
    "Durand Leroy Moreau Simon Laurent Lefebvre Michel Fournier Girard Bonnet Dupont Lambert Fontaine "
    "Rousseau Vincent Jansen Visser Bakker Smit Mulder Bos Vos Peters Hendriks Dekker Andersen Nielsen "
    "Hansen Pedersen Larsen Johansson Karlsson Nilsson Eriksson Lindberg Virtanen Korhonen Silva Santos "
    "Oliveira Souza Costa Pereira Almeida Ferreira Carvalho Gomes Ribeiro Okafor Mensah Boateng Mwangi "
    "Müller García Pérez Gómez Fernández Núñez Jiménez Álvarez Martínez Rodríguez Søndergaard Ødegaard "
    "Björklund Çelik Yılmaz Öztürk Şahin Dvořák Černý Kovačević Jovanović Nováková Lévesque Côté Gagné "
    "Bélanger Löwe Weiß Groß Hämäläinen Mäkinen Ó'Brien Nguyễn Trần Lê Phạm"
).split()
MIDDLE = ("",) * 6 + tuple(f"{c}." for c in "ABCDEFGHJKLMNPRSTW")
NON_LATIN_NAMES = ("张伟", "王芳", "李娜", "刘洋", "陈静", "山田太郎", "佐藤花子", "김민준", "이서연", "Дмитрий Иванов",
                   "Ольга Смирнова", "Γιώργος Παπαδόπουλος", "محمد علي")
NON_LATIN_RATE = 0.002

ONSETS = "b c d f g h k l m n p r s t v z br cr dr fl gr pl pr st tr th sh ch".split()
NUCLEI = "a e i o u ai ea io ou".split()
SYLLABLES = tuple(o + n for o in ONSETS for n in NUCLEI)
CODAS = ("", "n", "r", "s", "l", "x", "m", "t")

TITLE_MATH = ("$k$-Means", "$\\ell_1$ Regularization", "$O(\\sqrt{T})$ Regret", "$\\epsilon$-Optimal Policies",
              "$K$ Experts", "$\\mathcal{O}(n \\log n)$ Time", "$p$-Norm Constraints", "$\\alpha$-Divergences")
CONNECTORS = ("for", "with", "via", "through", "in", "on", "under", "from", "by", "beyond", "without")
_CONNECTOR_RE = re.compile(r"\s+(" + "|".join(CONNECTORS) + r")\s+", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“(\[])")
_MATH_SPLIT = re.compile(r"(\$[^$]*\$)")
_REPLACEABLE = re.compile(r"^([a-z]{5,})([.,;:]?)$")


# --------------------------------------------------------------------------- source text

Tags = tuple[str, ...]


@dataclass(frozen=True)
class Corpus:
    plain: tuple[tuple[str, Tags], ...]  # (sentence without math, tags of its paper)
    math: tuple[tuple[str, Tags], ...]  # (sentence with $...$ math, tags of its paper)
    topics: tuple[tuple[int, ...], ...]  # per source paper with plain sentences: their indexes in ``plain``
    math_share: float  # share of source abstracts that contain math
    titles: tuple[tuple[str, Tags], ...]  # real titles (may be empty) and their paper's tags


def _balanced(sentence: str) -> bool:
    unescaped_dollars = len(re.findall(r"(?<!\\)\$", sentence))
    depth = 0
    for ch in sentence:
        depth += ch == "{"
        depth -= ch == "}"
        if depth < 0:
            return False
    return depth == 0 and unescaped_dollars % 2 == 0 and sentence.count("(") == sentence.count(")") \
        and sentence.count("[") == sentence.count("]")


def _norm(text: str) -> str:
    return " ".join(text.split())


def _content_papers(folder: Path) -> list[tuple[str, str | None, Tags]]:
    """(abstract, title or None when provisional, tags) of the committed paper files."""
    papers = []
    for path in sorted(folder.glob("*.md")):
        fm = frontmatter.parse(path.read_text(encoding="utf-8"), path.name)
        title = fm.data.get("title")
        if fm.data.get("provisional") or not isinstance(title, str):
            title = None
        papers.append((_norm(fm.body), title, tuple(str(t) for t in fm.data.get("tags") or ())))
    return papers


def _seed_papers(folder: Path, known: dict[str, Tags]) -> list[tuple[str, str | None, Tags]]:
    """(abstract, title or None, tags) from seed files and their metadata; tags from ``known``
    (the committed catalog, by abstract) or else suggested from the taxonomy."""
    taxonomy = None
    papers = []
    for path in sorted(folder.glob("*.txt")):
        text = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
        abstracts = [_norm(p) for p in re.split(r"\n\s*\n", text) if p.strip()][1:]  # [0]: venue header
        titles: dict[int, str] = {}
        meta = folder / "metadata" / f"{path.stem}.json"
        if meta.is_file():
            for record in json.loads(meta.read_text(encoding="utf-8-sig")):
                if isinstance(record, dict) and isinstance(record.get("title"), str) \
                        and isinstance(record.get("index"), int):
                    titles[record["index"]] = record["title"]
        for index, abstract in enumerate(abstracts, 1):
            tags = known.get(abstract)
            if tags is None:
                if taxonomy is None:
                    taxonomy = read_taxonomy(TAGS_TOML, "tags.toml")
                tags = tags_module.suggest_tags(titles.get(index, ""), abstract, taxonomy)
            papers.append((abstract, titles.get(index), tags))
    return papers


def load_corpus(seeds_dir: Path = SEEDS_DIR, fallback: Path = FALLBACK_PAPERS) -> Corpus:
    """The sentences and titles (with their papers' tags) the synthetic catalog is made of."""
    committed = _content_papers(fallback) if fallback.is_dir() else []
    papers = _seed_papers(seeds_dir, {a: t for a, _, t in committed}) if seeds_dir.is_dir() else []
    if not papers:
        papers = committed
    if not papers:
        raise FileNotFoundError(f"no seed abstracts in {seeds_dir} nor paper files in {fallback}")
    plain: list[tuple[str, Tags]] = []
    math: list[tuple[str, Tags]] = []
    topics: list[tuple[int, ...]] = []
    seen: set[str] = set()
    for abstract, _, tags in papers:
        topic: list[int] = []
        for sentence in _SENTENCE_END.split(abstract):
            sentence = sentence.strip()
            if len(sentence.split()) < 4 or sentence in seen or not _balanced(sentence):
                continue
            seen.add(sentence)
            if "$" in sentence:
                math.append((sentence, tags))
            else:
                topic.append(len(plain))
                plain.append((sentence, tags))
        if topic:
            topics.append(tuple(topic))
    if not plain:
        raise ValueError("the seed abstracts have no usable sentences")
    with_math = sum(1 for a, _, _ in papers if "$" in a)
    titles = {title: tags for _, title, tags in papers if title and "…" not in title}
    return Corpus(tuple(plain), tuple(math), tuple(topics), with_math / len(papers), tuple(titles.items()))


# --------------------------------------------------------------------------- words and names


def pseudo_word(rank: int) -> str:
    """A pronounceable coined word, distinct for each rank in ``0..10**9``.

    Ranks below ``len(SYLLABLES)**3`` get three syllables, the rest four (syllable =
    consonant onset + vowel nucleus, so a word splits into syllables one way only); the
    rank is scrambled by an affine map modulo the number of such words (a bijection),
    and a final consonant chosen by the rank is added.
    """
    base = len(SYLLABLES)
    width, x = (3, rank) if rank < base**3 else (4, rank - base**3)
    x = (x * 1_000_003 + 12_345) % base**width  # 1_000_003 is prime, so coprime with base**width
    parts = []
    for _ in range(width):
        x, digit = divmod(x, base)
        parts.append(SYLLABLES[digit])
    return "".join(parts) + CODAS[rank % len(CODAS)]


def zipf_rank(rng: random.Random, s: float = ZIPF_S, q: float = ZIPF_Q) -> int:
    """A rank >= 0 with ``P(rank >= k) = (1 + k/q)^-(s - 1)``: a head of about ``q`` common
    words and an unbounded power-law tail of rare ones (capped at ``MAX_RANK``)."""
    u = 1.0 - rng.random()  # (0, 1]
    return min(int(q * (u ** (-1.0 / (s - 1.0)) - 1.0)), MAX_RANK)


def person_name(index: int) -> str:
    """The ``index``-th person of the synthetic name pool (distinct for distinct indexes)."""
    size = len(FIRST_NAMES) * len(MIDDLE) * len(FAMILY_NAMES)
    k = (index * 7919 + 17) % size  # spread consecutive indexes over the pool
    k, first = divmod(k, len(FIRST_NAMES))
    family, middle = divmod(k, len(MIDDLE))
    return " ".join(part for part in (FIRST_NAMES[first], MIDDLE[middle], FAMILY_NAMES[family]) if part)


def _name_key(name: str) -> str:
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().casefold()
    return re.sub(r"[^a-z0-9]+", "-", folded).strip("-") or name


# --------------------------------------------------------------------------- papers


@dataclass(frozen=True)
class SynthPaper:
    abstract: str
    title: str
    authors: tuple[str, ...]
    tags: Tags  # voted tags (used unless suggest_tags=True)
    presentation: str | None
    urls: dict[str, str | None]
    provisional: bool  # no metadata record: the importer makes it provisional


def vote_tags(votes: Counter[str], taxonomy_order: dict[str, int], limit: int = 4) -> Tags:
    """Tags with at least ``VOTE_SHARE`` of the best vote, best first (ties in taxonomy order)."""
    if not votes:
        return ()
    best = max(votes.values())
    chosen = sorted((t for t, v in votes.items() if v >= VOTE_SHARE * best),
                    key=lambda t: (-votes[t], taxonomy_order.get(t, 0)))
    return tuple(chosen[:limit])


class _Maker:
    def __init__(self, n: int, seed: int, corpus: Corpus, taxonomy_order: dict[str, int]):
        self.n = n
        self.rng = random.Random(f"papershelf-synth:{seed}:{n}")
        self.corpus = corpus
        self.order = taxonomy_order
        self.pool_size = max(200, 3 * n)
        self.titles_seen: set[str] = set()
        self.abstracts_seen: set[str] = set()
        heads: dict[str, Tags] = {}
        tails: dict[str, Tags] = {}
        for title, tags in corpus.titles or (("Learning Representations for Efficient Inference", ()),):
            body = title.split(": ", 1)[-1]
            pieces = _CONNECTOR_RE.split(body)
            heads.setdefault(pieces[0], tags)
            for i in range(1, len(pieces) - 1, 2):
                tails.setdefault(f"{pieces[i].lower()} {pieces[i + 1]}", tags)
        self.heads = tuple(heads.items())
        self.tails = tuple(tails.items()) or (("for Machine Learning", ()),)

    def word(self) -> str:
        return pseudo_word(zipf_rank(self.rng))

    def coined_name(self) -> str:
        style = self.rng.random()
        word = self.word()
        if style < 0.4:
            return word.upper()[: self.rng.randint(3, 6)]
        if style < 0.8:
            return word.capitalize() + self.rng.choice(("", "Net", "Former", "GPT", "Diff", "-X", "++"))
        return f"{word.capitalize()}-{self.rng.choice(('LM', 'RL', 'GNN', 'ViT', 'IQA', 'NeRF'))}"

    def sentence(self, with_math: bool, topic: list[int] | None = None) -> tuple[str, Tags]:
        """A source sentence with some words coined; from ``topic`` (popped) when drawn."""
        if with_math:
            source, tags = self.rng.choice(self.corpus.math)
        elif topic and self.rng.random() < TOPIC_RATE:
            source, tags = self.corpus.plain[topic.pop()]
        else:
            source, tags = self.rng.choice(self.corpus.plain)
        parts = _MATH_SPLIT.split(source)
        for i in range(0, len(parts), 2):  # even parts are outside $...$: math is kept as written
            tokens = parts[i].split(" ")
            for j, token in enumerate(tokens):
                match = _REPLACEABLE.match(token)
                if match and self.rng.random() < PSEUDO_RATE:
                    tokens[j] = self.word() + match.group(2)
            parts[i] = " ".join(tokens)
        return "".join(parts), tags

    def abstract(self, votes: Counter[str]) -> str:
        while True:
            count = self.rng.randint(MIN_SENTENCES, MAX_SENTENCES)
            topic = list(self.rng.choice(self.corpus.topics))
            self.rng.shuffle(topic)
            sentences = [self.sentence(with_math=False, topic=topic) for _ in range(count)]
            if self.corpus.math and self.rng.random() < self.corpus.math_share:
                for _ in range(self.rng.randint(1, 2)):
                    sentences.insert(self.rng.randrange(len(sentences) + 1), self.sentence(with_math=True))
            text = " ".join(s for s, _ in sentences)
            key = _norm(text)
            if key not in self.abstracts_seen:
                self.abstracts_seen.add(key)
                for _, tags in sentences:
                    votes.update(tags)
                return text

    def title(self, votes: Counter[str]) -> str:
        for attempt in range(100):
            (head, head_tags), tail_tags = self.rng.choice(self.heads), ()
            if self.rng.random() < 0.35:  # a coined word inside the head
                words = head.split()
                words[self.rng.randrange(len(words))] = self.word().capitalize()
                head = " ".join(words)
            title = head
            if self.rng.random() < 0.75:
                tail, tail_tags = self.rng.choice(self.tails)
                title += " " + tail
            if self.rng.random() < TITLE_MATH_RATE:
                title += " with " + self.rng.choice(TITLE_MATH)
            if attempt > 3 or self.rng.random() < 0.45:
                title = f"{self.coined_name()}: {title}"
            key = self._title_key(title)
            if key not in self.titles_seen:
                self.titles_seen.add(key)
                for tags in (head_tags, tail_tags):
                    for tag in tags:
                        votes[tag] += TITLE_VOTE
                return title
        raise RuntimeError("could not make a unique title")  # pragma: no cover - 100 tries

    def authors(self) -> tuple[str, ...]:
        count = self.rng.choices(range(1, 13), weights=AUTHOR_COUNT_WEIGHTS)[0]
        names: list[str] = []
        keys: set[str] = set()
        while len(names) < count:
            if self.rng.random() < NON_LATIN_RATE:
                name = self.rng.choice(NON_LATIN_NAMES)
            else:
                # Density ~ r^-1/3 over the pool: a few people co-author many papers.
                name = person_name(int(self.pool_size * self.rng.random() ** 1.5))
            key = _name_key(name)
            if key not in keys:
                keys.add(key)
                names.append(name)
        return tuple(names)

    def urls(self, venue_short: str, year: int) -> dict[str, str | None]:
        rng = self.rng
        arxiv = f"https://arxiv.org/abs/{year % 100:02d}{rng.randint(1, 12):02d}.{rng.randint(0, 99999):05d}"
        forum = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
                        for _ in range(10))
        return {
            "arxiv": arxiv if rng.random() < 0.8 else None,
            "openreview": f"https://openreview.net/forum?id={forum}" if venue_short in ("ICLR", "NeurIPS", "ICML")
            else None,
            "code": f"https://github.com/{self.word()}/{self.word()}" if rng.random() < 0.35 else None,
        }

    def paper(self, venue_short: str, year: int) -> SynthPaper:
        votes: Counter[str] = Counter()
        abstract = self.abstract(votes)
        before_title = votes.copy()
        title = self.title(votes)
        authors = self.authors()
        presentation = self.rng.choices([p for p, _ in PRESENTATIONS], weights=[w for _, w in PRESENTATIONS])[0]
        urls = self.urls(venue_short, year)
        provisional = self.rng.random() < PROVISIONAL_RATE
        if provisional:  # the importer titles it from its abstract's start: that must be unique too
            title_votes = votes - before_title
            while (key := self._title_key(provisional_title(abstract))) in self.titles_seen:
                votes = Counter()
                abstract = self.abstract(votes)  # (a rare draw more: smaller catalogs are unchanged)
                votes.update(title_votes)
            self.titles_seen.add(key)
        return SynthPaper(abstract, title, authors, vote_tags(votes, self.order), presentation, urls, provisional)

    @staticmethod
    def _title_key(title: str) -> str:
        return " ".join(re.sub(r"[\W_]+", " ", title.casefold()).split())

    def venues(self) -> list[tuple[str, int, float]]:
        """(short name, year, weight) of the venue-years in this catalog, newest first.

        About one venue-year per ``PAPERS_PER_VENUE`` papers, spread over at least two
        years; later years weigh more (conferences grow).
        """
        count = max(2, min(len(CONFERENCES) * len(YEARS), math.ceil(self.n / PAPERS_PER_VENUE)))
        years = min(len(YEARS), max(2, math.ceil(count / 3)))
        conferences = min(len(CONFERENCES), math.ceil(count / years))
        return [(short, year, size * (1.0 + 0.15 * (year - YEARS[-1])))
                for year in YEARS[:years] for short, size in CONFERENCES[:conferences]][:count]


def write_seed_files(n: int, seed: int, folder: Path, corpus: Corpus | None = None
                     ) -> tuple[list[Path], dict[tuple[str, int], SynthPaper]]:
    """Seed-format files (``<stem>.txt`` + ``metadata/<stem>.json``) for ``n`` papers.

    Returns the seed files and the papers by (seed file name, 1-based index).
    """
    corpus = corpus or load_corpus()
    order = {tag: i for i, tag in enumerate(read_taxonomy(TAGS_TOML, "tags.toml"))}
    maker = _Maker(n, seed, corpus, order)
    venues = maker.venues()
    weights = [w for _, _, w in venues]
    counts = Counter(maker.rng.choices(range(len(venues)), weights=weights, k=n))
    metadata_dir = folder / "metadata"
    metadata_dir.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    papers: dict[tuple[str, int], SynthPaper] = {}
    for v, (short, year, _) in enumerate(venues):
        if not counts[v]:
            continue
        stem = f"{v:03d}_{short.lower()}_{year}"
        records: list[dict[str, object]] = []
        batch = [maker.paper(short, year) for _ in range(counts[v])]
        for index, paper in enumerate(batch, 1):
            papers[(f"{stem}.txt", index)] = paper
            if paper.provisional:
                continue
            records.append({
                "seed": f"{stem}.txt",
                "index": index,
                "first_words": " ".join(paper.abstract.split()[:6]),
                "title": paper.title,
                "authors": list(paper.authors),
                "venue": f"{short} {year}",
                "presentation": paper.presentation,
                "urls": paper.urls,
            })
        path = folder / f"{stem}.txt"
        path.write_text(f"{short} {year} Papers\n\n" + "\n\n".join(p.abstract for p in batch) + "\n",
                        encoding="utf-8")
        (metadata_dir / f"{stem}.json").write_text(json.dumps(records, ensure_ascii=False, indent=1) + "\n",
                                                   encoding="utf-8")
        files.append(path)
    return files, papers


def _site_toml(n: int, seed: int) -> str:
    return (
        "# A synthetic catalog written by bench/synth.py (deterministic for its size and seed).\n"
        f'title = "Synthetic catalog: {n} papers (seed {seed})"\n'
        f'description = "A synthetic catalog of {n} papers made from seed abstracts, for benchmarks."\n'
        'base_url = "/"\n'
        'language = "en"\n'
        'owner = "Papershelf benchmarks"\n'
    )


def _placeholder_lines(tags: Tags) -> str:
    return "tags:\n" + "".join(f"- {tag}\n" for tag in tags)


def generate(n: int, out: Path, seed: int = 0, *, suggest_tags: bool = False) -> Path:
    """Write a content folder of ``n`` synthetic papers to ``out`` and return ``out``.

    Deterministic: the same ``n`` and ``seed`` give byte-identical files. With
    ``suggest_tags=True`` the importer suggests tags from the real taxonomy (slow: about
    30 ms per paper); otherwise papers get the tags their text votes for.
    """
    if n < 1:
        raise ValueError("n must be at least 1")
    out = Path(out).resolve()
    if out.exists() and not (out / MARKER).is_file():
        raise FileExistsError(f"{out} exists and is not a synthetic catalog (no {MARKER}); not replacing it")
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{out.name}.synth-", dir=out.parent))
    try:
        content = work / "content"
        content.mkdir()
        (content / "site.toml").write_text(_site_toml(n, seed), encoding="utf-8")
        if suggest_tags:
            shutil.copyfile(TAGS_TOML, content / "tags.toml")
        else:
            (content / "tags.toml").write_text(PLACEHOLDER_TAXONOMY, encoding="utf-8")
        seeds, papers = write_seed_files(n, seed, work / "seeds")
        report = import_seeds(seeds, content, work / "seeds" / "metadata")
        if len(report.papers) != n or report.warnings:
            raise RuntimeError(f"the importer imported {len(report.papers)} papers (expected {n}) with "
                               f"{len(report.warnings)} warnings:\n" + "\n".join(report.warnings[:20]))
        if not suggest_tags:
            placeholder = _placeholder_lines((PLACEHOLDER_TAG,))
            for result in report.papers:
                path = content / "papers" / f"{result.slug}.md"
                text = path.read_text(encoding="utf-8")
                end = text.find("\n---\n", 3) + 1  # just after the front matter's last line
                head, rest = text[:end], text[end:]
                if not end or head.count(placeholder) != 1:
                    raise RuntimeError(f"{path}: the importer no longer writes tags as {placeholder!r}")
                tags = papers[(Path(result.seed).name, result.index)].tags
                path.write_text(head.replace(placeholder, _placeholder_lines(tags)) + rest,
                                encoding="utf-8")
            shutil.copyfile(TAGS_TOML, content / "tags.toml")
        (content / MARKER).write_text(f"bench/synth.py n={n} seed={seed} suggest_tags={suggest_tags}\n",
                                      encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        content.rename(out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write a synthetic Papershelf content folder.")
    parser.add_argument("n", type=int, help="number of papers")
    parser.add_argument("out", type=Path, help="content folder to write (replaced if it is a synthetic one)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--suggest-tags", action="store_true",
                        help="let the importer suggest tags from the taxonomy (about 30 ms per paper)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    path = generate(args.n, args.out, args.seed, suggest_tags=args.suggest_tags)
    print(f"Wrote {args.n} papers to {path} in {time.perf_counter() - started:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
