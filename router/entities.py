"""Companies named in a question: names and short names (English, Chinese), tickers as whole words,
A-share codes, HK codes in every spelling, ADR tickers. One company with several listings resolves to
the company. Words shared by many legal names ("Technology", "Bank", "Companies") never identify a
company on their own.

The lexicon is built from the warehouse (master aliases, listings, and companies met in filings)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

import duckdb

from mappings.companies import GENERIC_WORDS, alias_key, normalise_code
from schema.models import CompanyRef

_LEGAL = re.compile(
    r"[,.]?\s*\b(?:inc|incorporated|corp|corporation|co|company|ltd|limited|plc|holdings?|group|the|n\.?v|s\.?a|ag|llc|"
    r"international)\b\.?", re.I)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_UNIT_AFTER = re.compile(r"^\s*(?:million|billion|thousand|m\b|bn\b|k\b|%|万|亿|元|港元|美元|股|年|月|日|个|家)", re.I)
_HK_CONTEXT = re.compile(r"(?:\.HK\b|\bHK\b|港股|H股|港交所|stock code|股份代號|股份代号)", re.I)


@dataclass(frozen=True)
class Entry:
    company_id: str
    text: str
    via: str  # name, alias, ticker, code


@dataclass
class Lexicon:
    names: list[Entry]  # matched case-insensitively as whole words (CJK: as substrings)
    tickers: dict[str, str]  # US ticker -> company_id (case-sensitive whole word)
    codes: dict[str, str]  # normalised A/HK code -> company_id


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def _short_name(name: str) -> str | None:
    short = _LEGAL.sub(" ", name)
    short = re.sub(r"\s+", " ", short).strip(" ,.&")
    return short if short and short.lower() != name.lower() else None


def _usable(alias: str) -> bool:
    key = alias_key(alias)
    words = re.findall(r"[\w&'-]+", key)
    if not words or all(w in GENERIC_WORDS for w in words):
        return False
    if re.fullmatch(r"\d+", key):
        return False
    if _CJK.search(key):
        return len(key) >= 2
    return len(key) >= 3 or (len(key) == 2 and any(ch.isdigit() for ch in key))  # "3M" names a company


def build_lexicon(con: duckdb.DuckDBPyConnection) -> Lexicon:
    names: dict[tuple[str, str], Entry] = {}

    def add(company_id: str, text: str | None, via: str) -> None:
        if text and _usable(text):
            names.setdefault((alias_key(text), company_id), Entry(company_id, _fold(text).strip(), via))

    for alias, company_id, kind in con.execute("SELECT alias, company_id, kind FROM aliases").fetchall():
        add(company_id, alias, "alias" if kind == "alias" else "name")
        if kind == "name_en":
            add(company_id, _short_name(alias), "name")
    for company_id, name_en, name_zh in con.execute(
            "SELECT company_id, name_en, name_zh FROM companies WHERE source = 'filing'").fetchall():
        for n in (name_en, name_zh):
            add(company_id, n, "name")
            if n and not _CJK.search(n):
                add(company_id, _short_name(n), "name")
    # an alias that names two companies identifies neither
    owners: dict[str, set[str]] = {}
    for (key, company_id) in names:
        owners.setdefault(key, set()).add(company_id)
    entries = [e for (key, _), e in names.items() if len(owners[key]) == 1]
    entries.sort(key=lambda e: -len(e.text))
    tickers, codes = {}, {}
    for code, company_id, market in con.execute("SELECT stock_code, company_id, market FROM securities").fetchall():
        if market == "US":
            tickers[code] = company_id
        else:
            codes[code] = company_id
    return Lexicon(entries, tickers, codes)


def _overlaps(span: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    return any(span[0] < b and a < span[1] for a, b in taken)


def find_companies(question: str, lex: Lexicon) -> list[CompanyRef]:
    text = _fold(question)
    lower = text.casefold()
    found: list[tuple[int, CompanyRef]] = []
    taken: list[tuple[int, int]] = []

    def hit(start: int, end: int, company_id: str, via: str) -> None:
        if _overlaps((start, end), taken):
            return
        taken.append((start, end))
        found.append((start, CompanyRef(company_id=company_id, matched=text[start:end], via=via)))

    # codes first: 600519, 600519.SH, 0700.HK, 00700, HK0700, 2359 (with care: years and amounts are numbers too)
    for m in re.finditer(r"(?<![\w.])(?:HK\s?)?(\d{1,6})(?:\.(?:HK|SH|SZ|SS))?(?![\w])", text, re.I):
        raw, digits = m.group(0), m.group(1)
        if _UNIT_AFTER.match(text[m.end():]) or re.match(r"^\s*[-–~至到]\s*\d", text[m.end():]):
            continue
        explicit = bool(re.search(r"\.(HK|SH|SZ|SS)$|^HK", raw, re.I))
        if len(digits) == 6:
            code = digits
        elif len(digits) in (4, 5) and (digits.startswith("0") or explicit):
            code = normalise_code(digits)
        elif len(digits) == 4 and not re.fullmatch(r"(19|20)\d\d", digits):
            code = normalise_code(digits)  # 1161, 2359: not a year, no unit after it
        elif len(digits) <= 3 and (explicit or _HK_CONTEXT.search(text[max(0, m.start() - 12): m.end() + 12])):
            code = normalise_code(digits)
        else:
            code = None
        if code and code in lex.codes:
            hit(m.start(), m.end(), lex.codes[code], "code")
    # names and aliases, longest first
    for entry in lex.names:
        key = entry.text.casefold()
        if _CJK.search(key):
            start = lower.find(key)
            while start != -1:
                hit(start, start + len(key), entry.company_id, entry.via)
                start = lower.find(key, start + 1)
            continue
        for m in re.finditer(r"(?<![A-Za-z0-9&])" + re.escape(key) + r"(?![A-Za-z0-9&])", lower):
            hit(m.start(), m.end(), entry.company_id, entry.via)
    # tickers: case-sensitive whole words (AT&T's T never matches "discussed"; DIS only as DIS)
    for m in re.finditer(r"(?<![A-Za-z0-9&$.])\$?([A-Z][A-Z.\-]{0,5})(?:'s)?(?![A-Za-z0-9&])", text):
        ticker = m.group(1)
        if ticker in lex.tickers and (len(ticker) > 1 or m.group(0).endswith("'s") or m.group(0).startswith("$")):
            hit(m.start(1), m.end(1), lex.tickers[ticker], "ticker")
    found.sort(key=lambda x: x[0])
    out: list[CompanyRef] = []
    for _, ref in found:
        if all(ref.company_id != r.company_id for r in out):
            out.append(ref)
    return out
