"""Topics found in the catalog (derive/topics.py and its parts) and trends by year (trends.py)."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace

import pytest

from bench import topics_purity
from bench.synth import build_archive
from generator.derive.charts import year_bars
from generator.derive.topic_map import DOTS_HEIGHT, DOTS_WIDTH, MAP_HEIGHT, MAP_WIDTH, paper_dots, topic_layout
from generator.derive.topic_model import MAX_TOPICS, topic_count
from generator.derive.topic_names import _chosen, slug
from generator.derive.topic_terms import corpus, singular
from generator.derive.topics import _map_labels, find_topics
from generator.derive.trends import series, site_trends
from generator.derive.numeric import np

# Three fields, each with its own words of art, and words every abstract uses.
FIELDS = {
    "graph": ("Graph neural networks for {x}",
              ["graph neural networks", "message passing", "node classification", "graph structure",
               "over-smoothing", "graph neural networks"]),
    "rl": ("Reinforcement learning with {x}",
           ["reinforcement learning", "policy gradient", "reward shaping", "the agent",
            "offline reinforcement learning",
            "value function"]),
    "diffusion": ("Diffusion models for {x}",
                  ["diffusion models", "denoising score matching", "image generation", "the sampler",
                   "diffusion models", "noise schedule"]),
}
COMMON = ["we propose a method", "experiments show strong results", "our model improves the accuracy",
          "the training data", "a simple analysis", "on standard benchmarks"]
FILLERS = ["robust estimation", "sparse inputs", "long horizons", "small budgets", "noisy labels", "fast inference",
           "uncertainty", "fairness"]


def field_texts(per_field: int = 20, seed: int = 1) -> tuple[list[tuple[str, str]], list[str]]:
    rng = random.Random(seed)
    texts, truth = [], []
    for field, (title, words) in FIELDS.items():
        for i in range(per_field):
            sentences = [f"This paper studies {rng.choice(words)} and {rng.choice(words)}." for _ in range(3)]
            sentences += [f"{rng.choice(COMMON).capitalize()} with {rng.choice(words)}." for _ in range(3)]
            texts.append((title.format(x=rng.choice(FILLERS)) + f" {i}", " ".join(sentences)))
            truth.append(field)
    order = list(range(len(texts)))
    rng.shuffle(order)
    return [texts[i] for i in order], [truth[i] for i in order]


def test_the_number_of_topics_grows_with_the_catalog():
    assert topic_count(5) == 0  # too few papers to split
    assert topic_count(76) == 6  # a handful for the bundled catalog
    assert 50 <= topic_count(10_000) <= 100
    assert 100 <= topic_count(100_000) <= MAX_TOPICS
    assert topic_count(10 ** 7) == MAX_TOPICS


def test_fields_become_topics_named_by_their_words_of_art():
    texts, truth = field_texts()
    found = find_topics(texts)
    assert found is not None
    # Each field is one topic (k = 5 for 60 papers: a field may split, never mix).
    for label in set(found.labels):
        fields = {truth[i] for i, lab in enumerate(found.labels) if lab == label}
        assert len(fields) == 1, fields
    names = " | ".join(found.names).lower()
    for words in ("graph neural networks", "reinforcement learning", "diffusion models"):
        assert words in names, names
    for generic in ("model", "method", "results", "accuracy"):
        assert not any(n.lower() == generic or n.lower().startswith(generic + ",") for n in found.names), found.names


def test_every_paper_is_in_exactly_one_topic_and_ids_are_url_segments():
    texts, _ = field_texts()
    found = find_topics(texts)
    assert len(found.labels) == len(texts)
    assert set(found.labels) == set(range(len(found.ids)))
    assert len(set(found.ids)) == len(found.ids)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i) for i in found.ids)
    sizes = [found.labels.count(i) for i in range(len(found.ids))]
    assert sizes == sorted(sizes, reverse=True)  # numbered by size


def test_the_same_texts_give_the_same_topics_and_ids():
    texts, _ = field_texts()
    assert find_topics(texts) == find_topics(list(texts))


def test_too_few_papers_have_no_topics():
    assert find_topics([("A title", "An abstract about graphs.")] * 3) is None
    assert find_topics([]) is None


def test_the_bundled_catalog_has_a_handful_of_topics_covering_every_paper(bundled_views):
    site = bundled_views()
    topics = site.topics
    assert 4 <= len(topics.topics) <= 8
    slugs = [p.slug for t in topics.topics for p in t.papers]
    assert sorted(slugs) == sorted(p.slug for p in site.papers)  # each paper exactly once
    assert all(site.topics.of(p.slug) is not None for p in site.papers)
    for t in topics.topics:
        assert t.ref.name and t.keywords and t.ref.url == f"topics/{t.ref.id}/"
        assert t.ref not in t.nearest and len(t.nearest) <= 4
        assert all(0 <= d.x <= DOTS_WIDTH and 0 <= d.y <= DOTS_HEIGHT for d in t.dots)
        assert {d.paper.slug for d in t.dots} <= {p.slug for p in t.papers}
    for v in site.venues:
        mix = topics.mix(v.ref.id)
        assert sum(c.count for c in mix) <= len(v.papers) and mix[0].bar == 100


def test_slugs():
    assert slug("Graph neural networks") == "graph-neural-networks"
    assert slug("Über-Modelle: LLMs!") == "uber-modelle-llms"
    assert slug("∑") == "topic"


def test_the_topic_map_places_circles_apart_inside_the_box():
    rng = np.random.default_rng(0)
    centroids = rng.standard_normal((40, 8))
    sizes = rng.integers(5, 500, 40).astype(float)
    placed = topic_layout(centroids, sizes, [f"topic number {i}" for i in range(40)])
    for i, a in enumerate(placed):
        assert a.r >= 3 and 0 <= a.x - a.r and a.x + a.r <= MAP_WIDTH and 0 <= a.y - a.r and a.y + a.r <= MAP_HEIGHT
        for b in placed[i + 1:]:
            assert (a.x - b.x) ** 2 + (a.y - b.y) ** 2 >= (0.95 * (a.r + b.r) - 2) ** 2
    assert placed[int(np.argmax(sizes))].label  # the largest topic is labelled
    assert placed == topic_layout(centroids, sizes, [f"topic number {i}" for i in range(40)])


def test_a_topics_map_shows_at_most_its_most_typical_papers():
    rng = np.random.default_rng(1)
    points = rng.standard_normal((1000, 6)).astype(np.float32)
    shown, xy = paper_dots(points, points.mean(axis=0))
    assert len(shown) == len(xy) == 300 and list(shown) == sorted(shown)
    assert all(0 <= x <= DOTS_WIDTH and 0 <= y <= DOTS_HEIGHT for x, y in xy)


def test_year_bars_carry_their_numbers():
    chart = year_bars([2020, 2021, 2022], [3, 0, 6])
    assert [(v.year, v.text) for v in chart.values] == [(2020, "3"), (2021, "0"), (2022, "6")]
    assert chart.path.count("M") == 2  # no bar for 0
    assert chart.summary == "2020–2022: from 3 to 6 papers; most in 2022 (6)"
    shares = year_bars([2020, 2021], [0.25, 0.125], "of the papers", percent=True)
    assert [v.text for v in shares.values] == ["25.0%", "12.5%"]
    assert year_bars([], []) is None


def _paper(year: int, venue: str = "ICML"):
    return SimpleNamespace(venue=SimpleNamespace(year=year, name=f"{venue} {year}"))


def test_trends_name_the_tags_rising_fastest_in_the_last_two_years():
    papers = [_paper(y) for y in range(2018, 2025) for _ in range(10)]
    rising = [p for p in papers if p.venue.year >= 2023][:12] + [papers[0]]
    steady = papers[::5]
    tags = [SimpleNamespace(ref=SimpleNamespace(id=i, name=i.title(), url=f"tags/{i}/"), papers=tuple(ps))
            for i, ps in (("rising", rising), ("steady", steady), ("empty", ()))]
    trends = site_trends(papers, tags, None)
    assert (trends.first, trends.last, trends.recent, trends.before) == (2018, 2024, "2023–2024", "2020–2022")
    assert [r.name for r in trends.tag_risers] == ["Rising"]
    assert trends.tags[0].rise_text == "+60.0 points: 60.0% in 2023–2024 against 0.0% in 2020–2022"
    assert [r.name for r in trends.tags] == ["Rising", "Steady"]  # a tag without papers has no row
    assert trends.years.values[0].value == 10 and trends.of_tag("steady").values[-1].value == 2
    assert [r.name for r in trends.venues] == ["ICML"] and trends.venues[0].total == 70


def test_one_year_has_counts_but_no_risers():
    papers = [_paper(2024, v) for v in ("ICLR", "ICLR", "ICML")]
    trends = site_trends(papers, [], None)
    assert trends.recent == "" and not trends.tag_risers
    assert [(r.name, r.total) for r in trends.venues] == [("ICLR", 2), ("ICML", 1)]
    assert site_trends([], [], None).years is None


def _tag(name: str, papers) -> SimpleNamespace:
    return SimpleNamespace(ref=SimpleNamespace(id=name.lower(), name=name, url=f"tags/{name.lower()}/"),
                           papers=tuple(papers))


def test_a_venue_only_in_the_recent_years_does_not_make_its_field_rise():
    """ICML every year; SIGGRAPH only in 2023-2024 (the catalog's make-up changed, not the
    field): graphics, 75% of 2023-2024's papers and 0% before, is no riser; a tag rising
    within ICML still is, by its ICML shares."""
    icml = [_paper(y) for y in range(2018, 2025) for _ in range(10)]
    siggraph = [_paper(y, "SIGGRAPH") for y in (2023, 2024) for _ in range(30)]
    diffusion = [p for p in icml if p.venue.year >= 2023][:6] + [p for p in icml if p.venue.year == 2021][:3]
    tags = [_tag("Graphics", siggraph), _tag("Diffusion", diffusion), _tag("Learning", icml)]
    trends = site_trends(icml + siggraph, tags, None)
    by_name = {r.name: r for r in trends.tags}
    assert by_name["Graphics"].rise is None and by_name["Learning"].rise == 0.0
    assert [r.name for r in trends.tag_risers] == ["Diffusion"]
    assert by_name["Diffusion"].rise_text == "+20.0 points: 30.0% in 2023–2024 against 10.0% in 2020–2022"
    assert "SIGGRAPH has papers in only one of the two periods" in trends.makeup
    assert "within the 1 venue with papers in both 2020–2022 and 2023–2024 (50 of the 110 papers" in trends.makeup


def test_a_change_of_the_venues_mix_is_no_rise_but_no_venue_in_both_periods_measures_none():
    """ICML grows and ACL shrinks; a tag on half of ICML's papers every year and none of
    ACL's has the same share within each venue: no rise (the catalog's share went from 12.5%
    to 40%)."""
    papers = [_paper(y, v) for y in range(2019, 2025) for v, n in (("ICML", 40 if y >= 2023 else 10),
                                                                     ("ACL", 10 if y >= 2023 else 30))
              for _ in range(n)]
    icml = [p for p in papers if p.venue.name.startswith("ICML")]
    half = [p for i, p in enumerate(icml) if i % 2 == 0]
    trends = site_trends(papers, [_tag("Half", half)], None)
    assert trends.tags[0].rise == 0.0 and not trends.tag_risers and trends.makeup == ""
    # Before: only ICML; recent: only SIGGRAPH. Nothing is compared, and the page says why.
    moved = [_paper(y) for y in range(2018, 2023) for _ in range(5)] + \
        [_paper(y, "SIGGRAPH") for y in (2023, 2024) for _ in range(5)]
    trends = site_trends(moved, [_tag("Graphics", moved[-10:])], None)
    assert trends.tags[0].rise is None and not trends.tag_risers
    assert trends.makeup == ("No venue has papers in both 2020–2022 and 2023–2024: the catalog's venues "
                             "changed, so no rise is measured.")


def test_venue_series_drop_the_year():
    assert series("ICLR 2024") == "ICLR" and series("NeurIPS (2019)") == "NeurIPS" and series("2024") == "2024"
    # Names that hold their year or edition inside (the ACL Anthology's proceedings, workshops).
    assert series("Proceedings of the 57th Annual Meeting of the Association for Computational Linguistics") == \
        series("Proceedings of the 58th Annual Meeting of the Association for Computational Linguistics") == \
        "Proceedings of the Annual Meeting of the Association for Computational Linguistics"
    assert series("Proceedings of the 2019 Conference of the North American Chapter") == \
        "Proceedings of the Conference of the North American Chapter"
    assert series("Proceedings of the Fourth Workshop on Online Abuse and Harms (WOAH 2021)") == \
        series("Proceedings of the Fifth Workshop on Online Abuse and Harms (WOAH 2022)") == \
        "Proceedings of the Workshop on Online Abuse and Harms (WOAH)"
    assert series("Proceedings of the 3rd Workshop (2020)") == "Proceedings of the Workshop"
    assert series("Proceedings of the Twenty-Second Workshop on X") == "Proceedings of the Workshop on X"
    assert series("CVPR 2023 Workshops") == "CVPR Workshops" and series("Findings of EMNLP 2025") == "Findings of EMNLP"


# Catalogs of titles alone (BibTeX of a proceedings), in Title Case as proceedings write them.
TITLE_FIELDS = {
    "mt": ["Neural Machine Translation with {x}", "Improving Neural Machine Translation by {x}",
           "Zero-Shot Neural Machine Translation for {x}"],
    "qa": ["Open-Domain Question Answering with BERT and {x}", "BERT for Question Answering over {x}",
           "Multi-View Question Answering on {x}"],
    "det": ["Object Detection with {x}", "Real-Time Object Detection using {x}", "Weakly Supervised Object Detection in {x}"],
}
TITLE_FILLERS = ["Sparse Priors", "Noisy Labels", "Small Budgets", "Long Documents", "Curriculum Schedules",
                 "Memory Banks", "Graph Priors", "Contrastive Pairs", "Synthetic Data", "Retrieval"]


def title_texts(per_field: int = 20, seed: int = 3) -> tuple[list[tuple[str, str]], list[str]]:
    rng = random.Random(seed)
    texts, truth = [], []
    for field, patterns in TITLE_FIELDS.items():
        for i in range(per_field):
            texts.append((rng.choice(patterns).format(x=rng.choice(TITLE_FILLERS)), ""))
            truth.append(field)
    return texts, truth


def test_titles_alone_in_title_case_give_names_as_readers_write_them():
    texts, truth = title_texts()
    found = find_topics(texts)
    assert found is not None
    names = " | ".join(found.names)
    # Title Case says nothing of how a word is written: lower case, but acronyms as written.
    assert "Neural machine translation" in names and "object detection" in names.lower(), names
    assert "Machine Translation" not in names and "Object Detection" not in names, names
    assert "BERT" in " ".join(w for kw in found.keywords for w in kw), found.keywords
    for words in found.keywords:  # pieces of hyphenated compounds never stand alone
        assert not {"shot", "Shot", "multi", "Multi", "view", "domain", "time", "Real"} & set(words), words


def test_a_word_is_completed_to_the_compound_it_is_mostly_part_of():
    texts = [(f"Zero-shot {x} with sparse priors", "") for x in ("parsing", "tagging", "retrieval", "ranking")] * 4
    texts += [(f"Convex {x} under noise", "") for x in ("bounds", "rates", "losses", "games")] * 4
    texts += [(f"End-to-end {x} for speech", "") for x in ("models", "training", "decoding", "search")] * 2
    texts += [(f"Speech {x} from end to end", "") for x in ("models", "training", "decoding", "search")] * 2
    found = find_topics(texts)
    keywords = [w.lower() for kw in found.keywords for w in kw]
    assert "zero-shot" in keywords and "shot" not in keywords and "zero" not in keywords, found.keywords
    assert "end" not in keywords, found.keywords  # half its uses are in "end-to-end"


def test_singulars_not_stems_make_the_words_of_topics():
    assert [singular(w) for w in ("networks", "classes", "approaches", "studies", "series", "biases", "analysis",
                                  "cases", "losses")] == \
        ["network", "class", "approach", "study", "series", "bias", "analysis", "case", "loss"]
    found = corpus([("Text Generation with General Models", "Generative models generalize."), ("Networks", "")])
    assert len({found.stems.index(w) for w in ("generation", "general", "generative", "network")}) == 4


def test_a_topic_of_words_every_field_uses_is_named_by_them_not_other_papers():
    # "Dataset" is the one word the first field's titles share, and a word of every field.
    # (each title ends in a word of its own: no term)
    texts = [(f"{head} {field}{i}", "") for head, field in (("A Dataset for", "tamil"), ("Convex Bounds on", "noise"),
                                                            ("Graph Coloring of", "planar")) for i in range(10)]
    found = find_topics(texts)
    assert "Other papers" not in found.names and any(n.startswith("Dataset") for n in found.names), found.names


def test_a_phrase_holding_a_better_keyword_takes_its_place():
    phrases = SimpleNamespace(of=lambda topic, t: {1: ((10,), "word"), 2: ((10, 11, 12), "word sense disambiguation"),
                                                   3: ((13,), "vectors"), 4: ((13, 14), "vectors space")}[t])
    # "word sense disambiguation" scores over half of "word": it names the topic instead
    assert _chosen(phrases, 0, [(1, 8.0), (3, 5.0), (2, 4.0)]) == ("word sense disambiguation", "vectors")
    assert _chosen(phrases, 0, [(1, 8.0), (3, 5.0), (2, 3.9), (4, 1.0)]) == ("word", "vectors")


def test_function_words_of_other_languages_name_no_topic():
    texts = [(f"Une approche {x} pour la traduction de la parole", "") for x in ("neuronale", "hybride", "simple")] * 5
    texts += [(f"Convex {x} under Noise", "") for x in ("Bounds", "Rates", "Losses")] * 5
    found = find_topics(texts)
    words = {w.lower() for kw in found.keywords for w in kw for w in w.split()}
    assert not {"de", "la", "pour", "une"} & words and "traduction" in words, found.keywords


def test_topics_that_share_a_first_keyword_are_labelled_by_their_names_on_the_map():
    labels = _map_labels((("image", "captioning"), ("image", "super-resolution"), ("speech",), ()),
                         ["Image, captioning", "Image, super-resolution", "Speech", "Other papers"])
    assert labels == ["Image, captioning", "Image, super-resolution", "speech", "Other papers"]


@pytest.mark.parametrize("n, seed", [(1200, 7), pytest.param(2000, 1, marks=pytest.mark.slow),
                                     pytest.param(3000, 5, marks=pytest.mark.slow)])
def test_topics_separate_the_venues_fields_at_least_as_well_as_tfidf_svd_kmeans(n, seed):
    """A synthetic mixed archive (vision, language, robotics, speech, ML venues; the general
    ones, AAAI and IJCAI, have no field): purity by venue field, ours against the plain
    recipe with as many topics. Keeping only a paper's 64 heaviest terms lost in 4 of 5."""
    archive = build_archive(n, seed=seed)
    texts = [(p.title, p.clean_abstract) for p in archive.papers]
    fields = [None if p.venue.field == "ai" else p.venue.field for p in archive.papers]
    assert len({f for f in fields if f}) >= 4
    found = find_topics(texts)
    ours = topics_purity.purity(found.labels, fields)
    baseline = topics_purity.purity(topics_purity.baseline_labels(texts, len(found.names)), fields)
    assert ours >= baseline, (ours, baseline)
    assert topics_purity.purity([0] * len(fields), fields) < ours - 0.1  # the fields are mixed: one topic is no good


def test_a_topic_is_named_by_what_all_its_papers_share_not_by_a_part_of_them():
    """A topic holding Gaussian-process papers and, as a third of it, Gaussian-splatting
    papers (which share the word "Gaussian") is not named "Gaussian processes, Bayesian"
    alone: the end of its name says what the papers the first keyword misses hold."""
    from generator.derive.topic_names import name_topics
    rng = random.Random(5)
    gp = ["Gaussian processes", "Bayesian optimization", "kernel hyperparameters", "posterior variance",
          "Bayesian inference"]
    splat = ["Gaussian splatting", "real-time rendering", "radiance fields", "novel view synthesis"]
    rl = ["reinforcement learning", "policy gradient", "reward shaping", "value function"]
    texts, labels = [], []
    for words, label, count in ((gp, 0, 24), (splat, 0, 12), (rl, 1, 24)):
        for i in range(count):
            title = f"{rng.choice(words).capitalize()} for {rng.choice(FILLERS)} {i}"
            texts.append((title, " ".join(f"We study {rng.choice(words)} with {rng.choice(words)}." for _ in range(4))))
            labels.append(label)
    names = name_topics(corpus(texts), np.array(labels), 2)
    first, second = (k.lower() for k in names.keywords[0][:2])

    def named(i: int) -> bool:  # a paper holding a word of the name (as written, or its plural)
        text = " ".join(texts[i]).lower()
        return any(re.search(rf"\b{re.escape(k)}s?\b", text) for k in (first, second))

    splatting = range(24, 36)
    assert sum(named(i) for i in splatting) >= 0.8 * len(splatting), (first, second)
    assert sum(named(i) for i in range(36)) >= 0.8 * 36, (first, second)
    assert "splatting" not in first and names.name(1).lower().startswith(("reinforcement learning", "policy gradient",
                                                                          "reward shaping", "value function"))


def test_a_topics_venue_counts_count_a_track_as_its_venue(content):
    from generator.content.loader import load_catalog
    from generator.derive.views import derive

    from ..conftest import paper_md

    content.write("venues/acl-2022.md", "---\nname: ACL 2022\nfull_name: Proceedings of the 60th Annual Meeting of "
                  "the Association for Computational Linguistics\nyear: 2022\n---\n")
    texts, _ = field_texts(per_field=12)
    for i, (title, abstract) in enumerate(texts):
        content.add_paper(f"p{i}", paper_md(title.replace(":", ""), venue="acl-2022", body=abstract,
                                            extra="track: findings" if i % 2 else ""))
    site = derive(load_catalog(content.root))
    assert site.topics is not None and any(p.venue.track == "findings" for p in site.papers)
    acl = next(v.ref for v in site.venues if v.ref.id == "acl-2022")
    for topic in site.topics.topics:
        acl_count = sum(1 for p in topic.papers if p.venue.id == "acl-2022")
        assert [c.item for c in topic.venue_counts if c.item.id == "acl-2022"] == [acl]  # one entry, the venue's
        assert next(c.count for c in topic.venue_counts if c.item is acl) == acl_count
