"""The company master: companies, their listings and the names users type for them.

Seeded from ``companies.yaml``; the warehouse adds companies it meets in filings (``Company`` built from
a filing's own identity) and runs :func:`check_master` before anything goes live.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import yaml

from mappings.vocabulary import generic_company_words
from schema.errors import ConfigError
from schema.models import Company, Security

HERE = Path(__file__).resolve().parent

def normalise_code(code: str) -> str | None:
    """One spelling per listing: AAPL, 600080, 0700.HK. Accepts 700, 00700, 0700.HK, HK0700, 600080.SH."""
    text = unicodedata.normalize("NFKC", code or "").strip().upper()
    m = re.fullmatch(r"(?:HK)?0*(\d{1,5})\.HK|HK\.?0*(\d{1,5})", text)
    if m:
        return f"{int(m.group(1) or m.group(2)):04d}.HK"
    m = re.fullmatch(r"(\d{6})(?:\.(?:SH|SZ|SS|BJ))?|(?:SH|SZ)(\d{6})", text)
    if m:
        return m.group(1) or m.group(2)
    if re.fullmatch(r"\d{1,5}", text):
        return f"{int(text):04d}.HK"
    if re.fullmatch(r"[A-Z][A-Z0-9.\-]{0,9}", text):
        return text
    return None


def company_from_entry(entry: dict) -> tuple[Company, list[Security]]:
    """A master entry as models (``fiscal_year_named_by`` is read by :func:`start_year_labels`)."""
    company = Company(
        company_id=entry["company_id"],
        name_en=entry.get("name_en"),
        name_zh=entry.get("name_zh"),
        cik=entry.get("cik"),
        aliases=list(entry.get("aliases") or []),
    )
    securities = []
    for s in entry.get("securities") or []:
        code = normalise_code(str(s["code"]))
        if code is None:
            raise ConfigError(f"company {company.company_id}: invalid listing code {s['code']!r}")
        securities.append(
            Security(stock_code=code, company_id=company.company_id, market=s["market"], listing=s["listing"],
                     exchange=s.get("exchange"))
        )
    return company, securities


@lru_cache(maxsize=1)
def master() -> tuple[tuple[Company, ...], tuple[Security, ...]]:
    path = HERE / "companies.yaml"
    try:
        entries = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: invalid YAML ({exc})") from None
    companies, securities = [], []
    for entry in entries:
        c, s = company_from_entry(entry)
        companies.append(c)
        securities.extend(s)
    problems = check_master(companies, securities)
    if problems:
        raise ConfigError(f"{path}: " + "; ".join(problems))
    return tuple(companies), tuple(securities)


def alias_key(alias: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", alias).casefold()).strip()


def names_of(company: Company) -> list[str]:
    return [n for n in [company.name_en, company.name_zh, *company.aliases] if n]


def check_master(companies: list[Company] | tuple[Company, ...], securities: list[Security] | tuple[Security, ...]) -> list[str]:
    """Alias collisions and unsafe aliases; an empty list means the master can go live."""
    problems: list[str] = []
    owners: dict[str, str] = {}
    ids = set()
    for c in companies:
        if c.company_id in ids:
            problems.append(f"duplicate company_id {c.company_id}")
        ids.add(c.company_id)
        for name in names_of(c):
            key = alias_key(name)
            if key in generic_company_words():
                problems.append(f"{c.company_id}: alias {name!r} is a generic word that cannot identify a company")
            if re.fullmatch(r"\d+", key):
                problems.append(f"{c.company_id}: alias {name!r} is a bare number (use a listing code)")
            other = owners.setdefault(key, c.company_id)
            if other != c.company_id:
                problems.append(f"alias {name!r} names both {other} and {c.company_id}")
    codes: dict[str, str] = {}
    for s in securities:
        if s.company_id not in ids:
            problems.append(f"listing {s.stock_code} points at unknown company {s.company_id}")
        other = codes.setdefault(s.stock_code, s.company_id)
        if other != s.company_id:
            problems.append(f"listing {s.stock_code} belongs to both {other} and {s.company_id}")
        owner = owners.get(alias_key(s.stock_code))
        if owner and owner != s.company_id:
            problems.append(f"listing {s.stock_code} of {s.company_id} is an alias of {owner}")
    return problems


def company_for_code(code: str) -> Company | None:
    norm = normalise_code(code)
    companies, securities = master()
    for s in securities:
        if s.stock_code == norm:
            return next(c for c in companies if c.company_id == s.company_id)
    return None


@lru_cache(maxsize=1)
def start_year_labels() -> frozenset[str]:
    """Listing codes of companies that name a fiscal year by the year it starts in (Home Depot's "fiscal
    2024" ends in February 2025): their stated year is one less than fiscal_year."""
    entries = yaml.safe_load((HERE / "companies.yaml").read_text(encoding="utf-8")) or []
    ids = {e["company_id"] for e in entries if e.get("fiscal_year_named_by") == "start"}
    return frozenset(s.stock_code for s in master()[1] if s.company_id in ids)


def company_for_cik(cik: str | None) -> Company | None:
    if not cik:
        return None
    key = cik.zfill(10)
    return next((c for c in master()[0] if c.cik == key), None)


def slug(text: str) -> str:
    """A company_id for a company the master does not know yet (from its ticker or code)."""
    return re.sub(r"[^a-z0-9]+", "_", unicodedata.normalize("NFKC", text).casefold()).strip("_") or "unknown"
