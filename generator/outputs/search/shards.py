"""The search files of the site, split by term so a query fetches only what it needs.

``build_search(site)`` returns the files the build writes under ``search/``; a query loads
the few of them its words need (``static/js/search-engine.js``):

``search/meta.json``
    small, loaded first: format version, counts, venue and tag names for the filters, the
    character folding table that tokenizes queries exactly as documents are tokenized, the
    query settings (``typoBudget``: the per-query budget of typos, ``index.typo_words``;
    ``typoUnder``: a word whose term has at least that many postings needs no typo; so a
    long query fetches a few dictionary files a word), the first bucket of each dictionary file (``dict``), the size of the
    document chunks.
``search/facets.json``
    every paper's tags by ref (``g``: indexes into ``meta.tags``, sorted), loaded only for
    the tag filter and its counts. Refs (small numbers) run through the papers by venue,
    then by tag set: ``meta.json``'s ``n`` is the number of papers of each venue of
    ``meta.venues`` in that order (the first ``n[0]`` refs are the first venue's; the year
    is the venue's), so venue and year need no file of their own.
``search/dict/<n>.json``
    the dictionary: every index term and every surface word whose stem differs from it,
    grouped in buckets by their first two characters (``bucket``), buckets in JavaScript
    string order cut into files of about ``DICT_BYTES``:
    ``{bucket: [[word, its term or "" when the word is a term, document frequency, postings file], ...]}``.
    Each word is also filed under a tail key and a skip key (``keys_of``), next to the bucket
    of the same two letters and in the same file. A query word needs the bucket of its stem
    (the exact term), of itself (the half-typed last word's completions), and for one typo
    the keys of the words one edit away (``typo_keys``): at most four files a word.
``search/terms/<n>.json``
    the postings: a term whose postings pass ``OWN_BYTES`` in a file of its own, the others
    in JavaScript string order in files of about ``TERM_BYTES``:
    ``{term: [code, weight, code, weight, ...]}``, one pair per (paper, field) that has the
    term, by paper then field; ``code`` is ``(ref - previous ref) * 4 + field`` (fields
    ``FIELDS``: title, authors, meta, abstract) and ``weight`` is the Lunr field-vector weight
    of the term in that field (BM25 with the field's boost), as lunr.py computes it for the
    index of that field's part (``index.PartWeights``; ``index.build_part`` writes the same
    weights as a whole lunr index, compared with lunr.py and lunr.js in the tests).
    A paper's score for a term is the sum of its fields' weights, what lunr.js's
    ``Index.search`` gives for that one term.
``search/docs/<n>.json``
    the whole rows of ``DOC_CHUNK`` papers by ref (``display_record``: title, authors and
    their pages, presentation, PDF, tags), what a result shows as soon as the query is
    answered: the page fetches the chunks of the results on screen only, and no paper page.
``search/people/<n>.json``
    the people with a page, by family name (``people.py``): a short query's person cards.
``search/ids/<n>.json``
    the papers' identifiers from their links (``ids.py``): arXiv, DOI, ACL Anthology,
    OpenReview, PMLR; a query that looks like one fetches one file.
"""

from __future__ import annotations

import hashlib
import json
import re
from array import array
from typing import Iterable

from ...content.slugs import MAX_LENGTH
from ...content.words import CHAR_MAP, MAX_TOKEN, tokenize
from ...derive.views import PaperView, SiteData
from .index import (
    FORMAT_VERSION, MAX_EXPANDED_POSTINGS, MAX_EXPANSION_FILES, MAX_EXPANSIONS, MAX_QUERY_CHARS, MAX_UNITS, MIN_FUZZY,
    MIN_PREFIX, PARTS, RAW_FIELDS, common_postings, TYPO_BUDGET, TYPO_UNDER, W_EXACT, W_FUZZY, W_PREFIX, PartWeights, search_fields,
    utf16_key,
)
from .ids import key_file, link_keys
from .people import people_files
from .sessions import session_links, session_notes

FIELDS = [name for _, fields in PARTS for name, _ in fields]  # the field numbers of the postings
DOC_CHUNK = 50  # papers per file under search/docs/ (whole records: ~4 kB gzip)
ID_BYTES = 8_000  # about 3 kB gzip per file of identifiers (search/ids/)
DICT_BYTES = 32_000  # about 8 kB gzip per dictionary file
TERM_BYTES = 70_000  # about 24 kB gzip per postings file of rarer terms
OWN_BYTES = 16_000  # a term with longer postings (~5 kB gzip) is a file of its own


def bucket(word: str) -> str:
    """The dictionary bucket of a word: its first two characters (code points)."""
    return word[:2]


TAIL = " "  # key suffix: the words by their 2nd and 3rd characters ("if " holds "diffusion")
SKIP = "!"  # key suffix: the words by their 1st and 3rd characters ("df!" holds "diffusion")


def keys_of(word: str) -> list[str]:
    """The dictionary keys a word is filed under: its bucket, and for one typo its tail and
    skip keys (the bucket of the word without its first, or without its second character)."""
    keys = [bucket(word)]
    if len(word) > 1:
        keys += [bucket(word[1:]) + TAIL, bucket(word[:1] + word[2:]) + SKIP]
    return keys


def typo_keys(word: str) -> list[str]:
    """The keys under which every word one edit (insertion, deletion, substitution or swap
    of neighbours) from ``word`` is filed: an edit after the second character keeps the
    bucket; one of the first two characters dropped or swapped gives the bucket of the
    word without it or swapped; a wrong or extra first character keeps the tail, a wrong or
    extra second character the skip key. All in the groups of at most four buckets."""
    rest, skipped = word[1:], word[:1] + word[2:]
    found = [bucket(word), bucket(rest), bucket(word[1:2] + word[:1] + word[2:]), bucket(skipped),
             bucket(word) + TAIL, bucket(rest) + TAIL, bucket(skipped) + SKIP, bucket(word) + SKIP]
    return [k for i, k in enumerate(found) if k.rstrip(TAIL + SKIP) and k not in found[:i]]




def title_slug(title: str) -> str:
    """The page's slug as the page derives it from an ASCII title (search-engine.js
    ``titleSlug``): its letter and digit runs, lower-cased and joined by hyphens, as many
    whole words as fit in ``MAX_LENGTH`` characters."""
    slug = ""
    for word in re.findall(r"[a-z0-9]+", title.lower()):
        if len(slug) + len(word) + bool(slug) > MAX_LENGTH:
            break
        slug = f"{slug}-{word}" if slug else word
    return slug


def display_record(view: PaperView) -> dict[str, object]:
    """What a result shows of a paper besides its venue and year (``meta.json`` "n"): the
    title, the paper's page (``s``) when the page cannot derive it from the title
    (``title_slug``), the authors (``a``) and where each has a page (``h``: its
    ``AuthorRef.path``, 1 where ``name_path`` gives it, 0 for none), the presentation (``p``), provisional (``x``), the PDF
    (``f``, ``PaperView.pdf_url``), tags (``g``) and the sessions that discussed it (``d``), both
    added by ``build_search``. The whole row
    from one file: no paper page is fetched. Plain text only, set with textContent."""
    record: dict[str, object] = {"t": view.title_plain}
    if not (view.title_plain.isascii() and title_slug(view.title_plain) == view.slug):
        record["s"] = view.slug
    record["a"] = [a.name for a in view.authors]
    if any(a.path for a in view.authors):
        record["h"] = [(1 if a.path == name_path(a.name) else a.path) if a.path else 0 for a in view.authors]
    if view.presentation:
        record["p"] = view.presentation
    if view.provisional:
        record["x"] = 1
    pdf = view.pdf_url
    if pdf:
        record["f"] = pdf
    return record


def name_path(name: str) -> str | None:
    """An author's page below ``authors/`` as the page derives it from an ASCII name
    (search-engine.js ``namePath``): the name's letter and digit runs, lower-cased and joined
    by hyphens, in the folder of its first two letters. A record says 1 where the author's
    page is there (``display_record``), a third of a record's bytes less."""
    if not name.isascii():
        return None
    slug = "-".join(re.findall(r"[a-z0-9]+", name.lower()))
    return f"{(slug.replace('-', '')[:2] + '__')[:2]}/{slug}" if slug else None


def _dump(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _cut(items: Iterable[tuple[str, str]], limit: int) -> list[list[tuple[str, str]]]:
    """Consecutive (key, text) items in groups of about ``limit`` characters of text."""
    groups: list[list[tuple[str, str]]] = [[]]
    size = 0
    for key, text in items:
        if size and size + len(text) > limit:
            groups.append([])
            size = 0
        groups[-1].append((key, text))
        size += len(text)
    return groups


def _pack(items: Iterable[tuple[str, str]], limit: int, own: int) -> list[list[tuple[str, str]]]:
    """Like ``_cut``, but an item longer than ``own`` is a group of its own, so a word that
    is neither rare nor common costs its own postings rather than a full group's."""
    small: list[tuple[str, str]] = []
    groups: list[list[tuple[str, str]]] = []
    for item in items:
        if len(item[1]) > own:
            groups.append([item])
        else:
            small.append(item)
    return groups + [g for g in _cut(small, limit) if g]


def postings(tokenized: list[dict[str, list[str]]]) -> tuple[dict[str, tuple[array, list[str]]], dict[str, set[str]]]:
    """Every term's postings by paper then field: ``(keys, weights)``, a key being
    ``ref * 4 + field number``; and the surface words of each term. (Arrays of ints and
    lists of the shared weight strings: a tuple per posting took 3x the memory.)"""
    found: dict[str, tuple[array, list[str]]] = {}
    words: dict[str, set[str]] = {}
    first = 0
    for _, fields in PARTS:
        part = PartWeights(fields, tokenized, RAW_FIELDS)
        terms = {tid: term for term, tid in part.term_ids.items()}
        for ref, f, pairs in part.vectors:
            key = ref * 4 + first + f
            for tid, weight in pairs:
                term = terms[tid]
                entry = found.get(term)
                if entry is None:
                    entry = found[term] = (array("i"), [])
                entry[0].append(key)
                entry[1].append(weight)
        for term, ws in part.words.items():
            words.setdefault(term, set()).update(ws)
        first += len(fields)
        del part
    for term, (keys, weights) in found.items():
        if any(keys[i] > keys[i + 1] for i in range(len(keys) - 1)):  # a term in several parts
            order = sorted(range(len(keys)), key=keys.__getitem__)
            found[term] = (array("i", [keys[i] for i in order]), [weights[i] for i in order])
    return found, words


def posting_text(keys: array, weights: list[str]) -> str:
    out, previous = [], 0
    for key, weight in zip(keys, weights):
        ref = key >> 2
        out.append(f"{(ref - previous) * 4 + (key & 3)},{weight}")
        previous = ref
    return "[" + ",".join(out) + "]"


def build_search(site: SiteData) -> dict[str, str]:
    """The search files to write, by path relative to the site root."""
    # Papers by venue, then by their tags: the venue of a ref is its run (facets.json "n"),
    # and runs of one tag set compress well ("g": 19 -> 12 kB gzip at 10,000 papers).
    venue_index = {v.ref.id: i for i, v in enumerate(site.venues)}
    tag_index = {t.ref.id: i for i, t in enumerate(site.tags)}
    tag_codes = [[tag_index[t.id] for t in v.tags] for v in site.papers]  # in each paper's order
    order = sorted(range(len(site.papers)),
                   key=lambda i: (venue_index[site.papers[i].venue.id], sorted(tag_codes[i]), i))
    views = [site.papers[i] for i in order]
    # One str object per distinct token: 10,000 abstracts hold ~2.5 million tokens.
    shared: dict[str, str] = {}
    notes = session_notes(site)  # issue 34: sessions' notes searched with their papers
    tokenized = [{name: [shared.setdefault(t, t) for t in tokenize(text)]
                  for name, text in search_fields(v, notes.get(v.slug, "")).items()} for v in views]
    del shared
    found, words = postings(tokenized)
    del tokenized
    files: dict[str, str] = {}

    # Postings, by term in JavaScript order.
    terms = sorted(found, key=utf16_key)
    shard_of: dict[str, int] = {}
    df = {term: len(found[term][0]) for term in terms}
    groups = _pack(((t, _dump(t) + ":" + posting_text(*found.pop(t))) for t in terms), TERM_BYTES, OWN_BYTES)
    for n, group in enumerate(groups):
        for term, _ in group:
            shard_of[term] = n
        files[f"search/terms/{n}.json"] = "{" + ",".join(text for _, text in group) + "}"

    dict_starts = _dictionary_files(terms, words, df, shard_of, files)

    # Display records and facets, by ref. The facets hold each paper's tags sorted (runs of
    # one set compress: 127 -> 88 kB gzip at 100,000 papers); a record whose paper lists them
    # in another order says it ("g"), for the result to show them as the paper's page does.
    codes = [tag_codes[i] for i in order]
    chunks = max(1, -(-len(views) // DOC_CHUNK))
    discussed = session_links(site)
    for n in range(chunks):
        records = []
        for view, own in zip(views[n * DOC_CHUNK:(n + 1) * DOC_CHUNK], codes[n * DOC_CHUNK:(n + 1) * DOC_CHUNK]):
            records.append(display_record(view))
            if own:
                records[-1]["g"] = own
            if view.slug in discussed:
                records[-1]["d"] = discussed[view.slug]
        files[f"search/docs/{n}.json"] = _dump(records)
    papers_of = [0] * len(site.venues)
    for view in views:
        papers_of[venue_index[view.venue.id]] += 1
    # Tags of every paper: loaded only for the tag filter and its counts (search-engine.js).
    files["search/facets.json"] = _dump({"g": [sorted(own) for own in codes]})
    ref_of = {view.slug: ref for ref, view in enumerate(views)}
    people_count = people_files(site, ref_of, files)
    id_count = _id_files(views, files)
    digest = hashlib.sha1()
    for path in sorted(files):
        digest.update(path.encode() + b"\0" + files[path].encode("utf-8") + b"\0")
    meta = _meta(site, digest.hexdigest()[:12], len(views), dict_starts)
    meta.update({"n": papers_of, "people": people_count, "ids": id_count})
    files["search/meta.json"] = _dump(meta)
    return files


def _id_files(views: list[PaperView], files: dict[str, str]) -> int:
    """search/ids/<n>.json: ``{key: [ref, ...]}``, the papers of each identifier key of their
    links (``ids.link_keys``), keys spread over the files by ``ids.key_file``; returns how
    many files (a query that looks like an identifier fetches one)."""
    refs_of: dict[str, list[int]] = {}
    for ref, view in enumerate(views):
        for link in view.links:
            for key in link_keys(link.url):
                found = refs_of.setdefault(key, [])
                if ref not in found:
                    found.append(ref)
    size = sum(len(k) + 8 for k in refs_of)
    count = max(1, -(-size // ID_BYTES))
    shards: list[dict[str, list[int]]] = [{} for _ in range(count)]
    for key in sorted(refs_of):
        shards[key_file(key, count)][key] = refs_of[key]
    for n, shard in enumerate(shards):
        files[f"search/ids/{n}.json"] = _dump(shard)
    return count


def _dictionary_files(terms: list[str], words: dict, df: dict[str, int], shard_of: dict[str, int],
                      files: dict[str, str]) -> list[str]:
    """The dictionary: terms and the surface words that stem to them, by bucket (each word
    again under its tail and skip keys), cut into files added to ``files``; returns the first
    key of each file."""
    entries: dict[str, list[list]] = {}
    for term in terms:
        entries.setdefault(bucket(term), []).append([term, "", df[term], shard_of[term]])
        for word in words.get(term, ()):
            entries.setdefault(bucket(word), []).append([word, term, df[term], shard_of[term]])
    for b in list(entries):  # each word again under its tail and skip keys
        for entry in entries[b]:
            for key in keys_of(entry[0])[1:]:
                entries.setdefault(key, []).append(entry)
    keys = sorted(entries, key=utf16_key)
    groups_of: dict[str, list[str]] = {}  # a bucket and its tail and skip keys: one file
    for key in keys:
        entries[key].sort(key=lambda e: (utf16_key(e[0]), utf16_key(e[1])))
        groups_of.setdefault(key.rstrip(TAIL + SKIP) or key, []).append(key)
    dict_starts = []
    texts = ((ks[0], ",".join(_dump(k) + ":" + _dump(entries[k]) for k in ks)) for ks in groups_of.values())
    for group in _cut(texts, DICT_BYTES):
        if group:
            dict_starts.append(group[0][0])
            files[f"search/dict/{len(dict_starts) - 1}.json"] = "{" + ",".join(text for _, text in group) + "}"
    return dict_starts


def _meta(site: SiteData, build: str, count: int, dict_starts: list[str]) -> dict:
    """search/meta.json: what the page's engine needs before it fetches anything else."""
    meta = {
        "version": FORMAT_VERSION,
        "build": build,
        "count": count,
        "fields": FIELDS,
        "dict": dict_starts,
        "docChunk": DOC_CHUNK,
        "slugMax": MAX_LENGTH,  # records leave out a slug the page derives (title_slug)
        # "full": the proceedings title in each result's COinS (static/js/search.js)
        "venues": [{"id": v.ref.id, "name": v.ref.name, "full": v.ref.full_name, "year": v.ref.year}
                   for v in site.venues],
        "tags": [{"id": t.ref.id, "name": t.ref.name} for t in site.tags],
        "fold": {"map": CHAR_MAP, "maxToken": MAX_TOKEN},
        "query": {
            "maxChars": MAX_QUERY_CHARS, "maxUnits": MAX_UNITS, "minPrefix": MIN_PREFIX,
            "minFuzzy": MIN_FUZZY, "typoBudget": TYPO_BUDGET, "typoUnder": TYPO_UNDER,
            "maxExpansions": MAX_EXPANSIONS,
            "maxPostings": MAX_EXPANDED_POSTINGS, "maxFiles": MAX_EXPANSION_FILES,
            "common": common_postings(count),
            "weights": {"exact": W_EXACT, "prefix": W_PREFIX, "fuzzy": W_FUZZY},
        },
    }
    return meta
