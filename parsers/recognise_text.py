"""What the per-market recognisers share (``parsers.recognise_a``, ``recognise_hk``, ``recognise_us``): the text
of a document's first pages, English month names, dates that may not exist, Chinese numerals
(二零二五 -> 2025) and the language of a text (en / zh-Hans / zh-Hant / en+zh-...)."""

from __future__ import annotations

import datetime as dt

from schema.models import Page

MONTHS = {m: i + 1 for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
     "november", "december"])}
_CN_DIGITS = {"〇": 0, "零": 0, "○": 0, "Ｏ": 0, "O": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6,
              "七": 7, "八": 8, "九": 9}
_TRAD = set("與個們這會報國財務歸屬東於產業戶權據經營總額損當變應稅資負債淨發實際幣點電際團劃")
_SIMP = set("与个们这会报国财务归属东于产业户权据经营总额损当变应税资负债净发实际币点电际团划")
_TRAD_ONLY = _TRAD - _SIMP
_SIMP_ONLY = _SIMP - _TRAD


def _is_cjk(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff"


def cn_number(s: str) -> int | None:
    """二零二五 -> 2025; 三十一 -> 31; 十二 -> 12; 九 -> 9."""
    s = s.strip()
    if not s:
        return None
    if s.isdigit():
        return int(s)
    if "十" in s:
        tens, _, ones = s.partition("十")
        t = _CN_DIGITS.get(tens, 1) if tens else 1
        o = _CN_DIGITS.get(ones, 0) if ones else 0
        return t * 10 + o
    digits = [_CN_DIGITS.get(ch) for ch in s]
    if None in digits:
        return None
    return int("".join(str(d) for d in digits))


def date_or_none(y: int, m: int, d: int) -> dt.date | None:
    """The date, or None when it does not exist (31 June)."""
    try:
        return dt.date(y, m, d)
    except ValueError:
        return None


def text_of(pages: list[Page], first: int | None = None) -> str:
    """The text of the first ``first`` pages (all pages without it), one page after the other."""
    sel = pages if first is None else pages[:first]
    return "\n".join(p.text for p in sel)


def language_of(text: str) -> str:
    """'en', 'zh-Hans' / 'zh-Hant' (by the characters only one script uses), or 'en+zh-...' for both."""
    cjk = sum(1 for ch in text if _is_cjk(ch))
    latin = sum(1 for ch in text if ch.isascii() and ch.isalpha())
    trad = sum(1 for ch in text if ch in _TRAD_ONLY)
    simp = sum(1 for ch in text if ch in _SIMP_ONLY)
    script = "zh-Hant" if trad > simp else "zh-Hans"
    # a CJK character carries roughly as much text as 3 Latin letters
    if cjk * 3 < 0.15 * latin:
        return "en"
    if latin < 0.15 * cjk * 3:
        return script
    return "en+" + script
