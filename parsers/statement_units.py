"""Unit and scale lines of printed statements, every market, from ``mappings/statement_tables.yaml``."""

from __future__ import annotations

import re

from mappings.statement_tables import cn_currency, cn_unit, unit_rules
from parsers.statement_columns import HK_HEADER_FILLER


def cn_unit_in(text: str, scale: int, word: str, ccy: str) -> tuple[int, str, str]:
    """(scale, printed unit word, currency) after an A-share line: the line's unit / currency where it prints
    one ("单位：万元 币种：人民币"), else the values passed in."""
    hit = cn_unit().search(text)
    if hit:
        word, scale = hit[0], int(hit[1])
    cur = cn_currency().search(text)
    if cur:
        ccy = str(cur[1])
    return scale, word, ccy


def is_cn_unit_line(text: str) -> bool:
    return cn_unit().line.search(text) is not None


def is_cn_currency_line(text: str) -> bool:
    return cn_currency().line.search(text) is not None


def rule_unit(market: str, text: str) -> tuple[str, int] | None:
    """(currency or "", scale) of the first rule of ``market`` ("hk", "us") that matches ``text``."""
    for rule in unit_rules(market):
        if rule.pattern.search(text):
            return rule.currency, rule.scale
    return None


_HK_UNIT_TOKEN = re.compile(
    r"^(?:HK\$|RMB|S\$|US\$)\s*[’'‘`]?\s*(?:000|million)?$|^(?:千港元|港元|人民幣千元|人民幣元|千新加坡元|港仙)$"
)


def hk_unit_line(line: str) -> tuple[str, str, int] | None:
    """(printed unit, currency, scale) when the line is a units line ("Notes HK$'000 HK$'000")."""
    line = re.sub(r"(HK\$|RMB|S\$|US\$)\s+(million)\b", lambda m: f"{m.group(1)}\u00a0{m.group(2)}", line)  # "HK$ million": one token
    toks = [t for t in line.split(" ") if t and t.casefold() not in HK_HEADER_FILLER]
    if not toks or not all(_HK_UNIT_TOKEN.match(t.replace("\u00a0", "")) for t in toks):
        return None
    for tok in toks:
        hit = rule_unit("hk", tok.replace("\u00a0", " "))
        if hit:
            return tok.replace("\u00a0", " "), hit[0], hit[1]
    return None
