"""Known proceedings hosts (the data in ``hosts.toml``, shipped in the package): the name of
the site a paper's landing page is on, and its PDF by a fixed rule of the host.

* ``pdf_of(url)``: the PDF of a landing page (``proceedings.mlr.press/v97/x19a.html`` →
  ``…/v97/x19a/x19a.pdf``), of an arXiv abstract or an OpenReview forum, or of a DOI that
  names one (``doi.org/10.18653/v1/2022.acl-long.1``); None where no rule applies (IEEE
  Xplore, ACM: no free PDF), and for a URL that is not http(s).
* ``host_name(url)``: "PMLR", "CVF Open Access", "IEEE Xplore" …, None for an unknown host.

Every importer and the build (``derive.urls.pdf_url``, ``model.Link.label``) ask here, so a
rule added to the table serves links written by hand as much as imported ones. The table is
read once, checked as it is read: a rule whose expression does not compile, or whose PDF
names a group the expression lacks, is a bug of the package (``HostTableError``).
"""

from __future__ import annotations

import functools
import re
import string
import tomllib
from dataclasses import dataclass
from importlib import resources
from urllib.parse import urlsplit

TABLE = "hosts.toml"


class HostTableError(Exception):
    """The shipped table is malformed (a bug of the package, not of a catalog)."""


@dataclass(frozen=True)
class Rule:
    pattern: re.Pattern[str]
    pdf: str  # str.format template: {origin} and the pattern's named groups
    on_doi: bool  # matched against a DOI rather than a path


@dataclass(frozen=True)
class Host:
    name: str
    domains: tuple[str, ...]
    doi_prefixes: tuple[str, ...]
    rules: tuple[Rule, ...]


@dataclass(frozen=True)
class HostTable:
    hosts: tuple[Host, ...]
    by_domain: dict[str, Host]
    by_doi_prefix: dict[str, Host]


def _rule(host: str, raw: dict) -> Rule:
    on_doi = "doi" in raw
    source, pdf = raw.get("doi" if on_doi else "path"), raw.get("pdf")
    if not isinstance(source, str) or not isinstance(pdf, str) or set(raw) - {"path", "doi", "pdf"}:
        raise HostTableError(f"{TABLE}: host {host!r}: a rule needs 'path' or 'doi', and 'pdf'")
    try:
        pattern = re.compile(source, re.IGNORECASE if on_doi else 0)
    except re.error as exc:
        raise HostTableError(f"{TABLE}: host {host!r}: {source!r}: {exc}") from None
    fields = {name for _, name, _, _ in string.Formatter().parse(pdf) if name}
    missing = fields - set(pattern.groupindex) - {"origin"}
    if missing:
        raise HostTableError(f"{TABLE}: host {host!r}: {pdf!r} names {sorted(missing)}, not groups of {source!r}")
    return Rule(pattern, pdf, on_doi)


def parse_table(text: str) -> HostTable:
    """The host table of ``text`` (the TOML of ``hosts.toml``)."""
    hosts = []
    for raw in tomllib.loads(text).get("host", []):
        name = raw.get("name")
        if not isinstance(name, str) or set(raw) - {"name", "domains", "doi_prefixes", "pdf"}:
            raise HostTableError(f"{TABLE}: a host needs a name and only domains, doi_prefixes, pdf: {raw!r}")
        hosts.append(Host(name, tuple(raw.get("domains", ())), tuple(raw.get("doi_prefixes", ())),
                          tuple(_rule(name, r) for r in raw.get("pdf", ()))))
    by_domain: dict[str, Host] = {}
    by_prefix: dict[str, Host] = {}
    for host in hosts:
        for domain in host.domains:
            by_domain.setdefault(domain, host)
        for prefix in host.doi_prefixes:
            by_prefix.setdefault(prefix, host)
    return HostTable(tuple(hosts), by_domain, by_prefix)


@functools.cache
def table() -> HostTable:
    """The shipped table, read once."""
    return parse_table(resources.files(__package__).joinpath(TABLE).read_text(encoding="utf-8"))


_DOI_HOSTS = ("doi.org", "dx.doi.org")


def _domain(netloc: str) -> str:
    host = netloc.rpartition("@")[2].partition(":")[0].lower()
    return host[4:] if host.startswith("www.") else host


@functools.lru_cache(maxsize=8192)
def _lookup(url: str) -> tuple[Host, str, str, bool] | None:
    """(host, the string its rules match, origin, whether that string is a DOI) of ``url``."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    known = table()
    domain = _domain(parts.netloc)
    origin = f"{parts.scheme}://{parts.netloc}"
    if domain in _DOI_HOSTS:
        doi = parts.path.lstrip("/")
        host = known.by_doi_prefix.get(doi.partition("/")[0])
        if host is not None:
            return host, doi, origin, True
    host = known.by_domain.get(domain)
    if host is None:
        return None
    return host, parts.path + (f"?{parts.query}" if parts.query else ""), origin, False


def host_name(url: str) -> str | None:
    """The name of the known host of ``url`` ("PMLR", "IEEE Xplore" …), else None."""
    found = _lookup(url)
    return found[0].name if found else None


def pdf_of(url: str) -> str | None:
    """The PDF of the landing page ``url`` by its host's rule, else None (see the module docstring)."""
    found = _lookup(url)
    if found is None:
        return None
    host, target, origin, is_doi = found
    for rule in host.rules:
        if rule.on_doi != is_doi:
            continue
        match = rule.pattern.fullmatch(target)
        if match:
            return rule.pdf.format(origin=origin, **{k: v or "" for k, v in match.groupdict().items()})
    return None
