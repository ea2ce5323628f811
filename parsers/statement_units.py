"""Unit and scale lines of printed statements, every market, from ``mappings/statement_tables.yaml``."""

from __future__ import annotations

from mappings.statement_tables import cn_currency, cn_unit, unit_rules


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
