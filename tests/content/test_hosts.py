"""The table of proceedings hosts (generator/content/hosts.toml): a real landing URL of every
rule gives its PDF, hosts without a free PDF give their name only, and landing links are
labelled by host on the pages."""

from __future__ import annotations

import pytest

from generator.content import hosts
from generator.content.model import Link

# (landing URL as the host publishes it, its PDF, the host's name)
SHAPES = [
    # PMLR: beside the page up to volume 69, in a folder of its own from volume 70.
    ("http://proceedings.mlr.press/v48/he16.html", "http://proceedings.mlr.press/v48/he16.pdf", "PMLR"),
    ("https://proceedings.mlr.press/v37/ioffe15.html", "https://proceedings.mlr.press/v37/ioffe15.pdf", "PMLR"),
    ("https://proceedings.mlr.press/v70/finn17a.html", "https://proceedings.mlr.press/v70/finn17a/finn17a.pdf",
     "PMLR"),
    ("https://proceedings.mlr.press/v97/zhang19a.html", "https://proceedings.mlr.press/v97/zhang19a/zhang19a.pdf",
     "PMLR"),
    ("https://proceedings.mlr.press/v235/zhong24e.html",
     "https://proceedings.mlr.press/v235/zhong24e/zhong24e.pdf", "PMLR"),
    ("http://jmlr.org/proceedings/papers/v37/xuc15.html", "http://jmlr.org/proceedings/papers/v37/xuc15.pdf",
     "JMLR"),
    ("https://jmlr.org/papers/v21/19-123.html", "https://jmlr.org/papers/volume21/19-123/19-123.pdf", "JMLR"),
    # CVF Open Access, old and new folder layouts, workshops.
    ("https://openaccess.thecvf.com/content_cvpr_2016/html/He_Deep_Residual_Learning_CVPR_2016_paper.html",
     "https://openaccess.thecvf.com/content_cvpr_2016/papers/He_Deep_Residual_Learning_CVPR_2016_paper.pdf",
     "CVF Open Access"),
    ("https://openaccess.thecvf.com/content_ICCV_2019/html/Li_Some_Title_ICCV_2019_paper.html",
     "https://openaccess.thecvf.com/content_ICCV_2019/papers/Li_Some_Title_ICCV_2019_paper.pdf", "CVF Open Access"),
    ("https://openaccess.thecvf.com/content/CVPR2022/html/Rombach_High-Resolution_Image_Synthesis_With_Latent"
     "_Diffusion_Models_CVPR_2022_paper.html",
     "https://openaccess.thecvf.com/content/CVPR2022/papers/Rombach_High-Resolution_Image_Synthesis_With_Latent"
     "_Diffusion_Models_CVPR_2022_paper.pdf", "CVF Open Access"),
    ("https://openaccess.thecvf.com/content/CVPR2023W/CVFAD/html/X_Y_CVPRW_2023_paper.html",
     "https://openaccess.thecvf.com/content/CVPR2023W/CVFAD/papers/X_Y_CVPRW_2023_paper.pdf", "CVF Open Access"),
    ("https://openaccess.thecvf.com/content/WACV2024/html/A_B_WACV_2024_paper.html",
     "https://openaccess.thecvf.com/content/WACV2024/papers/A_B_WACV_2024_paper.pdf", "CVF Open Access"),
    # NeurIPS proceedings: "-Abstract.html" (to 2021), "-Abstract-Conference.html" (2022 on), D&B tracks.
    ("https://proceedings.neurips.cc/paper/2017/hash/3f5ee243547dee91fbd053c1c4a845aa-Abstract.html",
     "https://proceedings.neurips.cc/paper/2017/file/3f5ee243547dee91fbd053c1c4a845aa-Paper.pdf",
     "NeurIPS Proceedings"),
    ("https://proceedings.neurips.cc/paper_files/paper/2022/hash/b1efde53be364a73914f58805a001731-Abstract"
     "-Conference.html",
     "https://proceedings.neurips.cc/paper_files/paper/2022/file/b1efde53be364a73914f58805a001731-Paper"
     "-Conference.pdf", "NeurIPS Proceedings"),
    ("https://proceedings.neurips.cc/paper_files/paper/2023/hash/0a1b2c3d4e5f60718293a4b5c6d7e8f9-Abstract"
     "-Datasets_and_Benchmarks.html",
     "https://proceedings.neurips.cc/paper_files/paper/2023/file/0a1b2c3d4e5f60718293a4b5c6d7e8f9-Paper"
     "-Datasets_and_Benchmarks.pdf", "NeurIPS Proceedings"),
    ("https://datasets-benchmarks-proceedings.neurips.cc/paper/2021/hash/0a1b2c3d4e5f60718293a4b5c6d7e8f9"
     "-Abstract-round1.html",
     "https://datasets-benchmarks-proceedings.neurips.cc/paper/2021/file/0a1b2c3d4e5f60718293a4b5c6d7e8f9"
     "-Paper-round1.pdf", "NeurIPS Proceedings"),
    ("https://papers.nips.cc/paper/5423-generative-adversarial-nets",
     "https://papers.nips.cc/paper/5423-generative-adversarial-nets.pdf", "NeurIPS Proceedings"),
    # ACL Anthology: new and old ids, the old aclweb.org address, and its DOIs.
    ("https://aclanthology.org/2022.acl-long.1/", "https://aclanthology.org/2022.acl-long.1.pdf", "ACL Anthology"),
    ("https://aclanthology.org/2020.findings-emnlp.139", "https://aclanthology.org/2020.findings-emnlp.139.pdf",
     "ACL Anthology"),
    ("https://aclanthology.org/N19-1423/", "https://aclanthology.org/N19-1423.pdf", "ACL Anthology"),
    ("https://www.aclweb.org/anthology/P19-1001/", "https://aclanthology.org/P19-1001.pdf", "ACL Anthology"),
    ("https://doi.org/10.18653/v1/2022.acl-long.1", "https://aclanthology.org/2022.acl-long.1.pdf",
     "ACL Anthology"),
    ("https://doi.org/10.18653/v1/N19-1423", "https://aclanthology.org/N19-1423.pdf", "ACL Anthology"),
    # OpenReview and arXiv.
    ("https://openreview.net/forum?id=YicbFdNTTy", "https://openreview.net/pdf?id=YicbFdNTTy", "OpenReview"),
    ("https://openreview.net/forum?id=YicbFdNTTy&noteId=abc", "https://openreview.net/pdf?id=YicbFdNTTy",
     "OpenReview"),
    ("https://arxiv.org/abs/1706.03762v7", "https://arxiv.org/pdf/1706.03762v7", "arXiv"),
    ("https://doi.org/10.48550/arXiv.1706.03762", "https://arxiv.org/pdf/1706.03762", "arXiv"),
    # IJCAI: zero-padded numbers, the layout before 2017, and its DOIs.
    ("https://www.ijcai.org/proceedings/2022/530", "https://www.ijcai.org/proceedings/2022/0530.pdf", "IJCAI"),
    ("https://www.ijcai.org/proceedings/2019/1", "https://www.ijcai.org/proceedings/2019/0001.pdf", "IJCAI"),
    ("https://www.ijcai.org/Abstract/16/008", "https://www.ijcai.org/Proceedings/16/Papers/008.pdf", "IJCAI"),
    ("https://doi.org/10.24963/ijcai.2019/1", "https://www.ijcai.org/proceedings/2019/0001.pdf", "IJCAI"),
    # RSS and ISCA (Interspeech).
    ("https://www.roboticsproceedings.org/rss15/p01.html", "https://www.roboticsproceedings.org/rss15/p01.pdf",
     "RSS Proceedings"),
    ("http://www.roboticsproceedings.org/rss09/p44.html", "http://www.roboticsproceedings.org/rss09/p44.pdf",
     "RSS Proceedings"),
    ("https://www.isca-speech.org/archive/interspeech_2021/penney21_interspeech.html",
     "https://www.isca-speech.org/archive/pdfs/interspeech_2021/penney21_interspeech.pdf", "ISCA Archive"),
    ("https://www.isca-archive.org/interspeech_2023/li23f_interspeech.html",
     "https://www.isca-archive.org/interspeech_2023/li23f_interspeech.pdf", "ISCA Archive"),
    ("https://www.isca-speech.org/archive/Interspeech_2019/abstracts/2680.html",
     "https://www.isca-speech.org/archive/Interspeech_2019/pdfs/2680.pdf", "ISCA Archive"),
    # Hosts that give no free PDF by a rule: their name only.
    ("https://ieeexplore.ieee.org/document/9157397", None, "IEEE Xplore"),
    ("https://ieeexplore.ieee.org/abstract/document/8460528/", None, "IEEE Xplore"),
    ("https://doi.org/10.1109/ICRA48506.2021.9561234", None, "IEEE Xplore"),
    ("https://dl.acm.org/doi/10.1145/3534678.3539321", None, "ACM Digital Library"),
    ("https://doi.org/10.1145/3534678.3539321", None, "ACM Digital Library"),
    ("https://ojs.aaai.org/index.php/AAAI/article/view/16826", None, "AAAI"),
    ("https://doi.org/10.1609/aaai.v35i12.17325", None, "AAAI"),
    ("https://link.springer.com/chapter/10.1007/978-3-030-58452-8_13", None, "Springer"),
    ("https://www.ecva.net/papers/eccv_2020/papers_ECCV/html/267_ECCV_2020_paper.php", None, "ECVA"),
    ("https://doi.org/10.21437/Interspeech.2021-729", None, "ISCA Archive"),
    ("https://doi.org/10.5555/3295222.3295349", None, "DOI"),
]


@pytest.mark.parametrize("landing, pdf, name", SHAPES, ids=[s[0].split("//")[1][:60] for s in SHAPES])
def test_each_host_gives_its_pdf_by_rule_and_its_name(landing, pdf, name):
    assert hosts.pdf_of(landing) == pdf
    assert hosts.host_name(landing) == name


@pytest.mark.parametrize("url", [
    "https://proceedings.mlr.press/v97/",  # a volume, not a paper
    "https://openaccess.thecvf.com/CVPR2022",
    "https://aclanthology.org/events/acl-2022/",
    "https://aclanthology.org/volumes/2022.acl-long/",
    "https://openreview.net/group?id=ICLR.cc/2024/Conference",
    "https://openreview.net/forum?id=a&id=b",
    "https://www.ijcai.org/proceedings/2022/",
    "https://proceedings.mlr.press.evil.example/v97/x19a.html",
    "https://example.org/v97/x19a.html",
    "ftp://proceedings.mlr.press/v97/x19a.html",
    "javascript:alert(1)",
    "not a url",
    "",
])
def test_no_pdf_where_no_rule_applies(url):
    assert hosts.pdf_of(url) is None


def test_unknown_hosts_have_no_name():
    assert hosts.host_name("https://iclr.cc/virtual/2024/poster/1") is None
    assert hosts.host_name("https://example.org/paper.html") is None


def test_landing_links_are_labelled_by_host():
    assert Link("venue_page", "https://proceedings.mlr.press/v235/zhong24e.html").label == "PMLR"
    assert Link("venue_page", "https://ieeexplore.ieee.org/document/9157397").label == "IEEE Xplore"
    assert Link("venue_page", "https://iclr.cc/virtual/2024/poster/1").label == "Venue page"
    assert Link("arxiv", "https://arxiv.org/abs/1706.03762").label == "arXiv"
    assert Link("pdf", "https://proceedings.mlr.press/v48/he16.pdf").label == "PDF"


def test_a_malformed_table_is_refused_with_the_host_named():
    with pytest.raises(hosts.HostTableError, match="'X'.*names \\['nope'\\]"):
        hosts.parse_table('[[host]]\nname = "X"\ndomains = ["x.org"]\n[[host.pdf]]\npath = "^/(?P<id>.+)$"\n'
                          'pdf = "{origin}/{nope}.pdf"\n')
    with pytest.raises(hosts.HostTableError, match="'X'"):
        hosts.parse_table('[[host]]\nname = "X"\n[[host.pdf]]\npath = "(unclosed"\npdf = "x"\n')


def test_every_host_of_the_table_with_a_rule_is_tested_here():
    tested = {name for _, pdf, name in SHAPES if pdf}
    assert {host.name for host in hosts.table().hosts if host.rules} <= tested
