"""Known conference series (content/series.toml): what a record's container names, and what
a venue of a series is called — ids, names and the proceedings' full names."""

from __future__ import annotations

import pytest

from generator.content.series import FINDINGS, MAIN, WORKSHOPS, find_series, ordinal, roman, series_of, table


@pytest.mark.parametrize("container, year, vid, name, proceedings", [
    ("Advances in Neural Information Processing Systems 32", 2019, "neurips-2019", "NeurIPS 2019",
     "Advances in Neural Information Processing Systems 32"),
    ("NIPS", 1995, "neurips-1995", "NeurIPS 1995", "Advances in Neural Information Processing Systems 8"),
    ("Neural Information Processing Systems", 1987, "neurips-1987", "NeurIPS 1987",
     "Neural Information Processing Systems"),
    ("Proceedings of the 36th International Conference on Machine Learning", 2019, "icml-2019", "ICML 2019",
     "Proceedings of the 36th International Conference on Machine Learning"),
    ("ICML", 2024, "icml-2024", "ICML 2024", "Proceedings of the 41st International Conference on Machine Learning"),
    ("International Conference on Learning Representations", 2024, "iclr-2024", "ICLR 2024",
     "The 12th International Conference on Learning Representations"),
    ("Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)", 2022, "cvpr-2022",
     "CVPR 2022", "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)"),
    ("2019 IEEE/CVF International Conference on Computer Vision (ICCV)", 2019, "iccv-2019", "ICCV 2019",
     "Proceedings of the IEEE/CVF International Conference on Computer Vision (ICCV)"),
    ("Computer Vision – ECCV 2020", 2020, "eccv-2020", "ECCV 2020",
     "Computer Vision – ECCV 2020: 16th European Conference on Computer Vision"),
    ("Proceedings of the 60th Annual Meeting of the Association for Computational Linguistics (Volume 1: Long "
     "Papers)", 2022, "acl-2022", "ACL 2022",
     "Proceedings of the 60th Annual Meeting of the Association for Computational Linguistics"),
    ("Proceedings of the 2020 Conference on Empirical Methods in Natural Language Processing (EMNLP)", 2020,
     "emnlp-2020", "EMNLP 2020",
     "Proceedings of the 2020 Conference on Empirical Methods in Natural Language Processing"),
    ("NAACL-HLT", 2019, "naacl-2019", "NAACL 2019", "Proceedings of the 2019 Conference of the North American "
     "Chapter of the Association for Computational Linguistics: Human Language Technologies"),
    ("Proceedings of the AAAI Conference on Artificial Intelligence", 2020, "aaai-2020", "AAAI 2020",
     "Proceedings of the 34th AAAI Conference on Artificial Intelligence"),
    ("Proceedings of the Thirty-First International Joint Conference on Artificial Intelligence", 2022,
     "ijcai-2022", "IJCAI 2022", "Proceedings of the 31st International Joint Conference on Artificial Intelligence"),
    ("Proceedings of the 25th ACM SIGKDD International Conference on Knowledge Discovery & Data Mining", 2019,
     "kdd-2019", "KDD 2019", "Proceedings of the 25th ACM SIGKDD Conference on Knowledge Discovery and Data Mining"),
    ("Proceedings of the Twenty-Second International Conference on Artificial Intelligence and Statistics", 2019,
     "aistats-2019", "AISTATS 2019",
     "Proceedings of the 22nd International Conference on Artificial Intelligence and Statistics"),
    ("Uncertainty in Artificial Intelligence", 2019, "uai-2019", "UAI 2019",
     "Proceedings of the 35th Conference on Uncertainty in Artificial Intelligence"),
    ("Conference on Learning Theory", 2019, "colt-2019", "COLT 2019",
     "Proceedings of the 32nd Conference on Learning Theory"),
    ("Conference on Robot Learning", 2019, "corl-2019", "CoRL 2019",
     "Proceedings of the 3rd Conference on Robot Learning"),
    ("Robotics: Science and Systems", 2019, "rss-2019", "RSS 2019", "Robotics: Science and Systems XV"),
    ("2019 International Conference on Robotics and Automation (ICRA)", 2019, "icra-2019", "ICRA 2019",
     "IEEE International Conference on Robotics and Automation (ICRA)"),
    ("2019 IEEE/RSJ International Conference on Intelligent Robots and Systems (IROS)", 2019, "iros-2019",
     "IROS 2019", "IEEE/RSJ International Conference on Intelligent Robots and Systems (IROS)"),
    ("Proceedings of the IEEE/CVF Winter Conference on Applications of Computer Vision (WACV)", 2021, "wacv-2021",
     "WACV 2021", "Proceedings of the IEEE/CVF Winter Conference on Applications of Computer Vision (WACV)"),
    ("Proc. Interspeech 2019", 2019, "interspeech-2019", "Interspeech 2019", "Proc. Interspeech 2019"),
    ("INTERSPEECH", 2012, "interspeech-2012", "Interspeech 2012", "Proc. Interspeech 2012"),
    # IEEE's older proceedings: the year first, catalogue numbers after
    ("1998 IEEE International Conference on Computer Vision", 1998, "iccv-1998", "ICCV 1998",
     "Proceedings of the IEEE/CVF International Conference on Computer Vision (ICCV)"),
    ("Proceedings 1999 IEEE Computer Society Conference on Computer Vision and Pattern Recognition (Cat. No "
     "PR00149)", 1999, "cvpr-1999", "CVPR 1999",
     "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)"),
    ("Proceedings 2002 IEEE International Conference on Robotics and Automation (Cat. No.02CH37292)", 2002,
     "icra-2002", "ICRA 2002", "IEEE International Conference on Robotics and Automation (ICRA)"),
    ("2005 IEEE Computer Society Conference on Computer Vision and Pattern Recognition (CVPR'05)", 2005,
     "cvpr-2005", "CVPR 2005",
     "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)"),
    ("ICASSP 2020 - 2020 IEEE International Conference on Acoustics, Speech and Signal Processing (ICASSP)", 2020,
     "icassp-2020", "ICASSP 2020", "IEEE International Conference on Acoustics, Speech and Signal Processing (ICASSP)"),
    ("2021 IEEE Winter Conference on Applications of Computer Vision (WACV)", 2021, "wacv-2021", "WACV 2021",
     "Proceedings of the IEEE/CVF Winter Conference on Applications of Computer Vision (WACV)"),
    # SIGGRAPH: the old proceedings by edition, the new by name, the event as records abbreviate it
    ("Proceedings of the 27th annual conference on Computer graphics and interactive techniques", 2000,
     "siggraph-2000", "SIGGRAPH 2000",
     "Proceedings of the 27th Annual Conference on Computer Graphics and Interactive Techniques (SIGGRAPH 2000)"),
    ("Special Interest Group on Computer Graphics and Interactive Techniques Conference Proceedings (SIGGRAPH '23 "
     "Conference Proceedings)", 2023, "siggraph-2023", "SIGGRAPH 2023",
     "Proceedings of the 50th Annual Conference on Computer Graphics and Interactive Techniques (SIGGRAPH 2023)"),
    ("SIGGRAPH '25", 2025, "siggraph-2025", "SIGGRAPH 2025",
     "Proceedings of the 52nd Annual Conference on Computer Graphics and Interactive Techniques (SIGGRAPH 2025)"),
    # an acronym written with its year
    ("CVPR2024", 2024, "cvpr-2024", "CVPR 2024",
     "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)"),
    ("ICLR24", 2024, "iclr-2024", "ICLR 2024", "The 12th International Conference on Learning Representations"),
])
def test_real_containers_give_the_series_venue(container, year, vid, name, proceedings):
    series, part = find_series(container)
    venue = series.venue(year, part)
    assert (venue.id, venue.name, venue.proceedings) == (vid, name, proceedings)
    assert series_of(vid) == venue


@pytest.mark.parametrize("container, vid", [
    ("Findings of the Association for Computational Linguistics: EMNLP 2020", "findings-emnlp-2020"),
    ("Findings of ACL 2022", "findings-acl-2020"),
    ("Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR) Workshops",
     "cvpr-2020-workshops"),
])
def test_findings_and_joint_workshops_are_venues_of_their_own(container, vid):
    series, part = find_series(container)
    assert part in (FINDINGS, WORKSHOPS)
    venue = series.venue(2020, part)
    assert venue.id == vid and series_of(vid) == venue


@pytest.mark.parametrize("container", [
    "ICML 2023 Workshop on Structured Probabilistic Inference",  # a named workshop: a venue of its own
    "NeurIPS 2023 Datasets and Benchmarks Track",
    "AAAI Spring Symposium",
    "2019 18th IEEE International Conference On Machine Learning And Applications (ICMLA)",
    "Journal of Machine Learning Research",
    "SIGGRAPH Asia 2023 Conference Papers",  # another conference than SIGGRAPH
    "ACM Transactions on Graphics",  # SIGGRAPH's papers 2002-2021, but the journal has others too
    "Transactions on Machine Learning Research",
    "arXiv",
])
def test_what_is_no_part_of_a_series(container):
    assert find_series(container) is None


def test_series_of_other_venues_is_none():
    assert series_of("journal-of-made-up-results-2024") is None
    assert series_of("neurips-19") is None
    assert series_of("findings-icml-2020") is None  # ICML has no Findings
    assert series_of("test-2024") is None


def test_every_series_has_a_name_for_each_year_of_its_history():
    for series in table().values():
        for year in range(1980, 2027):
            assert series.venue(year).proceedings.strip()
            assert "{" not in series.venue(year).proceedings


def test_numbers():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == \
        ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]
    assert [roman(n) for n in (1, 4, 9, 15, 21, 40)] == ["I", "IV", "IX", "XV", "XXI", "XL"]
    assert table()["aaai"].venue(2008).proceedings == "Proceedings of the AAAI Conference on Artificial Intelligence (AAAI 2008)"
    assert table()["eccv"].number(2021) is None  # biennial: no ECCV in odd years


def test_a_venue_named_only_by_its_short_name_is_cited_by_its_proceedings():
    """booktitle = {RSS 2025} said nothing a reader could look up (issue 28): a venue of a
    known series whose full name only repeats its short name is cited by the proceedings'
    name; a full name the curator wrote is kept, and a venue of no known series too."""
    from generator.content.model import Venue
    from generator.content.series import full_name_of

    rss = Venue("rss-2019", "RSS 2019", "RSS 2019", 2019)
    assert full_name_of(rss) == series_of("rss-2019").proceedings != "RSS 2019"
    own = Venue("rss-2019", "RSS 2019", "Robotics: Science and Systems XV", 2019)
    assert full_name_of(own) == "Robotics: Science and Systems XV"
    other = Venue("my-workshop-2019", "My Workshop 2019", "My Workshop 2019", 2019)
    assert full_name_of(other) == "My Workshop 2019"
