"""Printed-statement vocabulary (``statement_tables.yaml``) and the exact statement titles (``statements.yaml``
``printed``), loaded once and checked: every pattern compiles, every scale is a power of ten we know, every
title names a statement the facts can carry."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from mappings.metrics import HERE, load_yaml
from schema.errors import ConfigError

FILE = "statement_tables.yaml"
KNOWN_SCALES = {0, 3, 4, 6, 8, 9}  # 元, thousand, 万, million, 亿, billion
PRIMARY = ("income", "balance", "cashflow")


@dataclass(frozen=True)
class UnitRule:
    pattern: re.Pattern
    currency: str  # ISO code; "" = the document's currency
    scale: int


@dataclass(frozen=True)
class WordRule:
    """A line pattern with a named group ``word`` and the value each printed word stands for."""

    line: re.Pattern
    words: dict[str, object]

    def search(self, text: str) -> tuple[str, object] | None:
        m = self.line.search(text)
        if not m:
            return None
        return m.group("word"), self.words[m.group("word")]


def _fail(msg: str) -> ConfigError:
    return ConfigError(f"{HERE / FILE}: {msg}")


def _compile(pattern: str, where: str, flags: int = 0) -> re.Pattern:
    try:
        return re.compile(pattern, flags)
    except re.error as exc:
        raise _fail(f"{where}: bad pattern {pattern!r} ({exc})") from None


@lru_cache(maxsize=1)
def _data() -> dict:
    data = load_yaml(FILE)
    for key in ("cas_title", "units", "currencies", "summary_titles"):
        if key not in data:
            raise _fail(f"missing section {key!r}")
    return data


def compact(text: str) -> str:
    """Comparison form of a title: NFKC, no whitespace, case-folded."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text)).casefold()


@lru_cache(maxsize=4)
def unit_rules(market: str) -> tuple[UnitRule, ...]:
    """Ordered unit rules of a market with a list of rules ("hk", "us")."""
    rules = []
    for i, spec in enumerate(_data()["units"].get(market) or []):
        scale = int(spec["scale"])
        if scale not in KNOWN_SCALES:
            raise _fail(f"units.{market}[{i}]: unknown scale {scale}")
        rules.append(UnitRule(_compile(spec["pattern"], f"units.{market}[{i}]", re.I if market == "us" else 0),
                              str(spec.get("currency") or ""), scale))
    if not rules:
        raise _fail(f"units.{market}: no rules")
    return tuple(rules)


def _word_rule(section: str, market: str) -> WordRule:
    spec = _data()[section].get(market)
    if not spec or "line" not in spec or not spec.get("words"):
        raise _fail(f"{section}.{market}: needs line and words")
    line = _compile(spec["line"], f"{section}.{market}")
    if "word" not in line.groupindex:
        raise _fail(f"{section}.{market}: the line pattern needs a group named word")
    return WordRule(line, dict(spec["words"]))


@lru_cache(maxsize=1)
def cn_unit() -> WordRule:
    rule = _word_rule("units", "cn")
    bad = [w for w, s in rule.words.items() if s not in KNOWN_SCALES]
    if bad:
        raise _fail(f"units.cn: unknown scale for {bad}")
    return rule


@lru_cache(maxsize=1)
def cn_currency() -> WordRule:
    return _word_rule("currencies", "cn")


@lru_cache(maxsize=1)
def cas_title() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(consolidated qualifiers, parent qualifiers, period words) of A-share statement titles."""
    spec = _data()["cas_title"]
    return tuple(spec["consolidated"]), tuple(spec["parent"]), tuple(spec["period_words"])


@lru_cache(maxsize=1)
def cas_names() -> dict[str, str]:
    """A-share table name (利润表) -> statement id."""
    return {name: sid for sid, spec in _printed().items() for name in spec.get("cas") or []}


@lru_cache(maxsize=1)
def _printed() -> dict[str, dict]:
    out = {}
    for sid, spec in load_yaml("statements.yaml").items():
        printed = (spec or {}).get("printed")
        if printed:
            if sid not in PRIMARY:
                raise ConfigError(f"{HERE / 'statements.yaml'}: printed titles under {sid!r}, which facts cannot carry")
            out[sid] = printed
    return out


@lru_cache(maxsize=1)
def printed_titles() -> dict[str, tuple[str, bool]]:
    """Compact exact title -> (statement, consolidated); summary tables map to ("key_figures", True)."""
    out: dict[str, tuple[str, bool]] = {}
    for sid, spec in _printed().items():
        for key, consolidated in (("consolidated", True), ("parent", False)):
            for title in spec.get(key) or []:
                out[compact(title)] = (sid, consolidated)
    for title in _data()["summary_titles"]:
        out[compact(title)] = ("key_figures", True)
    return out


@dataclass(frozen=True)
class CasCells:
    blank: frozenset[str]
    note_ref: re.Pattern
    note_tail: re.Pattern
    percent_points: re.Pattern


def _section_patterns(section: str, keys: tuple[str, ...], flags: int = 0) -> list[re.Pattern]:
    """The compiled patterns ``keys`` of one section, in order; every one must be there."""
    spec = _data().get(section) or {}
    missing = [k for k in keys if not spec.get(k)]
    if missing:
        raise _fail(f"{section}: missing {missing}")
    return [_compile(spec[k], f"{section}.{k}", flags) for k in keys]


@lru_cache(maxsize=1)
def cas_cells() -> CasCells:
    """A-share cell vocabulary (``cas_cells``): blank words and note-reference patterns."""
    blank = (_data().get("cas_cells") or {}).get("blank")
    if not blank:
        raise _fail("cas_cells: missing ['blank']")
    return CasCells(frozenset(str(x) for x in blank),
                    *_section_patterns("cas_cells", ("note_ref", "note_tail", "percent_points")))


@lru_cache(maxsize=1)
def cas_header_words() -> re.Pattern:
    """A word of an A-share column header line (``cas_columns.header_words``)."""
    spec = (_data().get("cas_columns") or {}).get("header_words")
    if not spec:
        raise _fail("cas_columns.header_words: missing")
    return _compile(spec, "cas_columns.header_words")


@dataclass(frozen=True)
class HkRows:
    connector_end: re.Pattern
    dependent: re.Pattern
    statement_end: re.Pattern
    period_line: re.Pattern
    footer: re.Pattern


@lru_cache(maxsize=1)
def hk_rows() -> HkRows:
    """HK row vocabulary (``hk_rows``), compiled case-insensitive."""
    return HkRows(*_section_patterns("hk_rows", ("connector_end", "dependent", "statement_end", "period_line",
                                                 "footer"), re.I))


@lru_cache(maxsize=1)
def cas_label_tail() -> re.Pattern:
    """A label-only line that ends the label above it (``cas_label_tail``)."""
    return _compile(_data().get("cas_label_tail") or "(?!)", "cas_label_tail")


@lru_cache(maxsize=1)
def cas_cash_identity() -> tuple[re.Pattern, tuple[re.Pattern, ...]]:
    """(net change in cash, its parts) of an A-share cash-flow statement, as label patterns."""
    spec = _data().get("cas_cash_identity") or {}
    if not spec.get("total") or not spec.get("parts"):
        raise _fail("cas_cash_identity: needs total and parts")
    return (_compile(spec["total"], "cas_cash_identity.total"),
            tuple(_compile(p, f"cas_cash_identity.parts[{i}]") for i, p in enumerate(spec["parts"])))


@dataclass(frozen=True)
class SpanRule:
    pattern: re.Pattern
    months: int


@lru_cache(maxsize=2)
def column_spans(market: str) -> tuple[SpanRule, ...]:
    """Words of a column group -> the months its columns span (``columns.<market>``)."""
    out = []
    for i, spec in enumerate((_data().get("columns") or {}).get(market) or []):
        months = int(spec["months"])
        if months not in (3, 6, 9, 12):
            raise _fail(f"columns.{market}[{i}]: months must be 3, 6, 9 or 12, not {months}")
        out.append(SpanRule(_compile(spec["pattern"], f"columns.{market}[{i}]", re.I), months))
    if not out:
        raise _fail(f"columns.{market}: no rules")
    return tuple(out)
