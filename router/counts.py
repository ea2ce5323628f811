"""Questions that ask for a count of things sold, shipped or delivered ("How many iPhones did Apple sell in fiscal
2024?"): many companies never print unit counts, and passages about the product (its revenue, its launch) do not
answer. Such a question is answered only by a passage that prints a number of those things; otherwise no_data."""

from __future__ import annotations

import re

from router.quotes import root

# "how many <things> did/does <company> sell / ship / deliver / produce"
_COUNT_ASKED = re.compile(
    r"\bhow\s+many\s+((?:[\w&'’-]+\s+){0,3}?[\w&'’-]+)\s+(?:did|does|do|has|have|had|will|were|was)\b.*?"
    r"\b(?:sell|sold|ship|shipped|deliver|delivered|produce|produced|manufacture|manufactured)\b", re.I)
_SCALE = r"(?:\s*(?:million|billion|thousand|mn|m|k))?"
# 卖了多少盒, 交付了多少辆, 销量是多少: the measure word counted (any of them for 销量)
_UNITS_ZH = "个台辆部盒件支瓶套吨片颗架艘箱袋"
_COUNT_ASKED_ZH = re.compile(r"(?:卖|卖出|售出|销售|出货|交付|交车|生产|賣|賣出|銷售|出貨)了?(?:多少|几)(万|萬)?([" + _UNITS_ZH + r"])|"
                             r"(?:销量|銷量|出货量|出貨量|交付量)(?:是|为|為|有)?(?:多少|几何)")


def counted(question: str) -> str | None:
    """The things a question asks a count of ("iphones", "data-center gpus"; 盒 for 卖了多少盒, 件 standing for any
    measure word of 销量是多少), or None."""
    m = _COUNT_ASKED.search(question)
    if m:
        return m.group(1).casefold()
    m = _COUNT_ASKED_ZH.search(question)
    return (m.group(2) or "件") if m else None


def prints_count(text: str, things: str) -> bool:
    """Does a passage print a number of those things (or of units): "52 million iPhones", "shipped 1.2 million
    units"? A figure of money ("$201 billion of iPhone revenue") is no count."""
    if len(things) == 1 and things in _UNITS_ZH:  # a Chinese measure word: "销售 1,234 万盒", "交付 52,000 辆"
        units = things if things != "件" else _UNITS_ZH
        return bool(re.search(r"\d[\d,.]*\s*(?:万|萬|亿|億)?\s*[" + units + "]", text))
    head = root(re.sub(r"s$", "", things.split()[-1]))
    noun = r"(?:" + re.escape(head) + r"\w*|units?)"
    for m in re.finditer(r"(?<![$\d.,])(\d(?:[\d,.]*\d)?)(" + _SCALE + r")\s+(?:[\w-]+\s+){0,3}?" + noun + r"\b", text, re.I):
        year = re.fullmatch(r"(?:19|20)\d\d", m.group(1)) and not m.group(2)
        model = re.search(re.escape(head) + r"\w*\s*$", text[: m.start()], re.I)  # "iPhone 16, iPhone 16 Plus"
        if not year and not model:
            return True
    return False
