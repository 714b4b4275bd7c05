"""The words of a synthetic archive: abstracts, titles and the tags their text votes for.

* **Seed text**: the sentences and titles of the real seed abstracts
  (``<repo>/../shared/seeds/*.txt`` and ``metadata/``, or the bodies of
  ``content/papers/*.md`` when the shared seeds are missing), each with the tags of the
  paper it comes from (``load_corpus``).
* **Field text**: the seeds are machine learning only, so a paper of another field (its
  lab's: vision, language, speech, robotics, graphics, theory, data mining, AI) takes
  about half of its sentences, and most titles, from that field's phrase bank
  (``fields``), one subtopic per paper. Bank sentences vote for the tags the real
  ``suggest_tags`` gives them (so tags follow the text whatever the taxonomy).
* **Abstracts**: 4–11 sentences, most seed sentences from one source abstract (its topic).
  15 % of the words of five or more letters are replaced by pseudo-words drawn from an
  unbounded Zipf–Mandelbrot distribution, so, as in a real corpus, a few coined words are
  frequent and the vocabulary keeps growing (Heaps' law, V ~ N^0.5). About as many
  abstracts carry LaTeX math as in the seeds (theory papers more). Unique in the archive.
* **Titles**: fragments recombined ("<head> <tail>"), often with a coined method name
  ("Brelomi: ..."), some with inline math or non-ASCII symbols (``π₀``, "Rényi"); unique.
"""

from __future__ import annotations

import functools
import json
import math
import random
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from generator.content import frontmatter
from generator.content.taxonomy import read_taxonomy
from generator.importers import tags as tags_module

from . import fields as synth_fields

REPO = Path(__file__).resolve().parents[2]
SEEDS_DIR = REPO.parent / "shared" / "seeds"
FALLBACK_PAPERS = REPO / "content" / "papers"
TAGS_TOML = REPO / "content" / "tags.toml"

# Pseudo-word vocabulary: Zipf-Mandelbrot ranks, P(rank >= k) = (1 + k/ZIPF_Q)^-(ZIPF_S - 1),
# and the share of eligible words (five or more lower-case letters) replaced by one. With these,
# the vocabulary grows like a real corpus (Heaps' law, V ~ N^0.5).
ZIPF_S = 1.5
ZIPF_Q = 150
PSEUDO_RATE = 0.15
MAX_RANK = 10**9
TOPIC_RATE = 0.6  # share of an abstract's seed sentences taken from one source paper (its topic)
MIN_SENTENCES, MAX_SENTENCES = 4, 11
THEORY_MATH_SHARE = 0.6  # theory abstracts with math (the others: as many as in the seeds)
TITLE_MATH_RATE = 0.03
TITLE_SYMBOL_RATE = 0.006  # titles with non-ASCII symbols or names (π₀, Rényi)
TITLE_VOTE = 3  # a title fragment votes for its paper's tags like three sentences
VOTE_SHARE = 0.7  # a tag needs this share of the best tag's votes (1-4 tags, like the seeds)

ONSETS = "b c d f g h k l m n p r s t v z br cr dr fl gr pl pr st tr th sh ch".split()
NUCLEI = "a e i o u ai ea io ou".split()
SYLLABLES = tuple(o + n for o in ONSETS for n in NUCLEI)
CODAS = ("", "n", "r", "s", "l", "x", "m", "t")

TITLE_MATH = ("$k$-Means", "$\\ell_1$ Regularization", "$O(\\sqrt{T})$ Regret", "$\\epsilon$-Optimal Policies",
              "$K$ Experts", "$\\mathcal{O}(n \\log n)$ Time", "$p$-Norm Constraints", "$\\alpha$-Divergences")
SYMBOL_NAMES = ("π₀", "π₀.₅", "α-Flow", "β-VAE", "λ-Returns", "μP", "Δ-Tuning", "∞-Net", "ε-Greedy")
SYMBOL_TAILS = ("via Rényi Divergences", "with Hölder Smoothness", "under Lévy Noise", "with Schrödinger Bridges",
                "on Poincaré Balls", "in Fréchet Spaces", "with Möbius Transformations", "for Gödel Machines")
CONNECTORS = ("for", "with", "via", "through", "in", "on", "under", "from", "by", "beyond", "without")
_CONNECTOR_RE = re.compile(r"\s+(" + "|".join(CONNECTORS) + r")\s+", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"“(\[])")
_MATH_SPLIT = re.compile(r"(\$[^$]*\$)")
_REPLACEABLE = re.compile(r"^([a-z]{5,})([.,;:]?)$")
_SLOT = re.compile(r"\{(\w+)\}")

Tags = tuple[str, ...]


# --------------------------------------------------------------------------- seed text


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


def norm(text: str) -> str:
    return " ".join(text.split())


def _content_papers(folder: Path) -> list[tuple[str, str | None, Tags]]:
    """(abstract, title or None when provisional, tags) of the committed paper files."""
    papers = []
    for path in sorted(folder.glob("*.md")):
        fm = frontmatter.parse(path.read_text(encoding="utf-8"), path.name)
        title = fm.data.get("title")
        if fm.data.get("provisional") or not isinstance(title, str):
            title = None
        papers.append((norm(fm.body), title, tuple(str(t) for t in fm.data.get("tags") or ())))
    return papers


def _seed_papers(folder: Path, known: dict[str, Tags]) -> list[tuple[str, str | None, Tags]]:
    """(abstract, title or None, tags) from seed files and their metadata; tags from ``known``
    (the committed catalog, by abstract) or else suggested from the taxonomy."""
    taxonomy = None
    papers = []
    for path in sorted(folder.glob("*.txt")):
        text = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
        abstracts = [norm(p) for p in re.split(r"\n\s*\n", text) if p.strip()][1:]  # [0]: venue header
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
    """The sentences and titles (with their papers' tags) the seed text is made of."""
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


@functools.lru_cache(maxsize=4)
def cached_corpus(seeds_dir: Path = SEEDS_DIR, fallback: Path = FALLBACK_PAPERS) -> Corpus:
    return load_corpus(seeds_dir, fallback)


# --------------------------------------------------------------------------- field text


@dataclass(frozen=True)
class Subtopic:
    field: str
    name: str
    sentences: tuple[tuple[str, Tags], ...]  # templates ({slot}s) and the tags they suggest
    heads: tuple[tuple[str, Tags], ...]
    tails: tuple[tuple[str, Tags], ...]


def _fill_first(template: str, field: str) -> str:
    slots = synth_fields.SLOTS.get(field, {})
    return _SLOT.sub(lambda m: (slots.get(m.group(1)) or ("12",))[0], template)


@functools.lru_cache(maxsize=4)
def field_banks(tags_toml: Path = TAGS_TOML) -> dict[str, tuple[Subtopic, ...]]:
    """Every field's subtopics, each sentence and fragment with the tags ``suggest_tags`` gives
    it under ``tags_toml`` (none when it names no tag: the fallback is not a vote)."""
    taxonomy = read_taxonomy(tags_toml, "tags.toml")
    fallback = tags_module.fallback_tag(taxonomy)

    def tags_of(text: str) -> Tags:
        found = tags_module.suggest_tags(_fill_first(text, field), "", taxonomy)
        return tuple(t for t in found if t != fallback)

    banks: dict[str, tuple[Subtopic, ...]] = {}
    for field, subtopics in synth_fields.BANKS.items():
        banks[field] = tuple(
            Subtopic(field, name, tuple((s, tags_of(s)) for s in sentences), tuple((h, tags_of(h)) for h in heads),
                     tuple((t, tags_of(t)) for t in tails))
            for name, (sentences, heads, tails) in subtopics.items())
    return banks


# --------------------------------------------------------------------------- words


@functools.lru_cache(maxsize=1 << 16)  # the frequent ranks recur (Zipf's head)
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


def title_key(title: str) -> str:
    return " ".join(re.sub(r"[\W_]+", " ", title.casefold()).split())


def vote_tags(votes: Counter[str], order: dict[str, int], limit: int = 4) -> Tags:
    """Tags of ``order`` (the taxonomy) with at least ``VOTE_SHARE`` of the best vote, best first
    (ties in taxonomy order); empty when no tag of the taxonomy has a vote."""
    votes = Counter({t: v for t, v in votes.items() if t in order})
    if not votes:
        return ()
    best = max(votes.values())
    chosen = sorted((t for t, v in votes.items() if v >= VOTE_SHARE * best), key=lambda t: (-votes[t], order[t]))
    return tuple(chosen[:limit])


# --------------------------------------------------------------------------- the maker

_LOG_KEEP = math.log(1.0 - PSEUDO_RATE)
_TOKEN = re.compile(r"(\$[^$]*\$| )")


@functools.lru_cache(maxsize=65536)
def _tokens(text: str) -> tuple[tuple[str, ...], tuple[tuple[int, str], ...]]:
    """``text`` as tokens (words, spaces and whole ``$…$`` formulas) and the eligible words:
    (token index, trailing punctuation) of the lower-case words of five or more letters."""
    tokens = tuple(t for t in _TOKEN.split(text) if t)
    eligible = []
    for i, token in enumerate(tokens):
        match = _REPLACEABLE.match(token) if len(token) >= 5 else None
        if match:
            eligible.append((i, match.group(2)))
    return tokens, tuple(eligible)


class TextMaker:
    """Abstracts and titles, unique in one archive; ``rng`` is the text's own random stream."""

    def __init__(self, rng: random.Random, corpus: Corpus, banks: dict[str, tuple[Subtopic, ...]]):
        self.rng = rng
        self.corpus = corpus
        self.banks = banks
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

    def subtopic(self, field: str) -> Subtopic | None:
        subtopics = self.banks.get(field)
        return self.rng.choice(subtopics) if subtopics else None

    def word(self) -> str:
        return pseudo_word(zipf_rank(self.rng))

    def coined_name(self) -> str:
        rng = self.rng
        style = rng.random()
        word = self.word()
        if style < 0.4:
            return word.upper()[: rng.randint(3, 6)]
        if style < 0.8:
            return word.capitalize() + rng.choice(("", "Net", "Former", "GPT", "Diff", "-X", "++"))
        return f"{word.capitalize()}-{rng.choice(('LM', 'RL', 'GNN', 'ViT', 'IQA', 'NeRF'))}"

    def _coin(self, text: str) -> str:
        """Some words of five or more letters replaced by pseudo-words (math kept as written):
        each eligible word with probability ``PSEUDO_RATE`` (geometric skips: one draw a word replaced)."""
        tokens, eligible = _tokens(text)
        if not eligible:
            return text
        rng = self.rng
        out: list[str] | None = None
        i = -1
        while True:
            i += 1 + int(math.log(1.0 - rng.random()) / _LOG_KEEP)
            if i >= len(eligible):
                break
            if out is None:
                out = list(tokens)
            position, punctuation = eligible[i]
            out[position] = self.word() + punctuation
        return text if out is None else "".join(out)

    def _fill(self, template: str, field: str) -> str:
        rng = self.rng
        slots = synth_fields.SLOTS.get(field, {})

        def value(match: re.Match[str]) -> str:
            name = match.group(1)
            if name == "num":
                return rng.choice((f"{rng.randint(1, 9)}.{rng.randint(0, 9)}", str(rng.randint(2, 40))))
            if name == "pct":
                return str(rng.randint(55, 98))
            return rng.choice(slots[name])

        return _SLOT.sub(value, template)

    def abstract(self, field: str, subtopic: Subtopic | None, votes: Counter[str]) -> str:
        rng, corpus = self.rng, self.corpus
        share = synth_fields.FIELD_SHARE.get(field, 0.0) if subtopic else 0.0
        math_share = THEORY_MATH_SHARE if field == "theory" else corpus.math_share
        while True:
            count = rng.randint(MIN_SENTENCES, MAX_SENTENCES)
            topic = list(rng.choice(corpus.topics))
            rng.shuffle(topic)
            bank = list(subtopic.sentences) if subtopic else []
            rng.shuffle(bank)
            sentences: list[tuple[str, Tags]] = []
            for _ in range(count):
                if bank and rng.random() < share:
                    template, tags = bank.pop()
                    sentences.append((self._coin(self._fill(template, field)), tags))
                elif topic and rng.random() < TOPIC_RATE:
                    source, tags = corpus.plain[topic.pop()]
                    sentences.append((self._coin(source), tags))
                else:
                    source, tags = rng.choice(corpus.plain)
                    sentences.append((self._coin(source), tags))
            if corpus.math and rng.random() < math_share:
                for _ in range(rng.randint(1, 2)):
                    source, tags = rng.choice(corpus.math)
                    sentences.insert(rng.randrange(len(sentences) + 1), (self._coin(source), tags))
            text = " ".join(s for s, _ in sentences)
            key = " ".join(text.casefold().split())
            if key not in self.abstracts_seen:
                self.abstracts_seen.add(key)
                for _, tags in sentences:
                    votes.update(tags)
                return text

    def title(self, field: str, subtopic: Subtopic | None, votes: Counter[str]) -> str:
        rng = self.rng
        own = subtopic is not None and rng.random() < synth_fields.FIELD_TITLE_SHARE.get(field, 0.0)
        for attempt in range(200):
            if own:
                (head, head_tags) = rng.choice(subtopic.heads)
                tail, tail_tags = rng.choice(subtopic.tails if rng.random() < 0.7 else self.tails)
            else:
                (head, head_tags) = rng.choice(self.heads)
                tail, tail_tags = rng.choice(self.tails)
            if rng.random() < 0.35:  # a coined word inside the head
                words = head.split()
                words[rng.randrange(len(words))] = self.word().capitalize()
                head = " ".join(words)
            title = head
            if rng.random() < 0.75:
                title += " " + tail
            else:
                tail_tags = ()
            if rng.random() < TITLE_MATH_RATE:
                title += " with " + rng.choice(TITLE_MATH)
            symbol = rng.random() < TITLE_SYMBOL_RATE
            if symbol and rng.random() < 0.5:
                title += " " + rng.choice(SYMBOL_TAILS)
            if symbol or attempt > 3 or rng.random() < 0.45:
                name = rng.choice(SYMBOL_NAMES) if symbol and attempt < 3 else self.coined_name()
                title = f"{name}: {title}"
            key = title_key(title)
            if key not in self.titles_seen:
                self.titles_seen.add(key)
                for tags in (head_tags, tail_tags):
                    for tag in tags:
                        votes[tag] += TITLE_VOTE
                return title
        raise RuntimeError("could not make a unique title")  # pragma: no cover - 200 tries
