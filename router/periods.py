"""Periods named in a question: FY2024, fiscal 2024, 2024年, 2024年度, 2024财年, 1Q25, Q1 2025,
2025年第一季度, 上半年 / H1, 前三季度 / 9M, ranges (2022-2024, 2022至2024年), "last three years" / 近三年,
"latest" / 最新. Relative periods are resolved later against what the warehouse holds, never the clock."""

from __future__ import annotations

import re
import unicodedata

from schema.models import PeriodRef

_CN_NUM = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
_EN_NUM = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
           "ten": 10}
_ORD = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_YEAR = r"((?:19|20)\d\d)"


def _year(text: str) -> int:
    y = int(text)
    return y + 2000 if y < 100 else y


def _num(word: str) -> int | None:
    word = word.lower()
    if word.isdigit():
        return int(word)
    return _EN_NUM.get(word) or _CN_NUM.get(word)


def find_periods(question: str) -> tuple[list[PeriodRef], int | None]:
    """(periods, last_n_years). Quarter / half-year / nine-month mentions win over a bare year."""
    text = unicodedata.normalize("NFKC", question)
    found: list[tuple[int, PeriodRef]] = []
    taken: list[tuple[int, int]] = []

    def add(m: re.Match, year: int | None, period: str | None, relative: str | None = None) -> None:
        span = (m.start(), m.end())
        if any(span[0] < b and a < span[1] for a, b in taken):
            return
        taken.append(span)
        found.append((m.start(), PeriodRef(fiscal_year=year, fiscal_period=period, matched=m.group(0),
                                           relative=relative)))

    patterns: list[tuple[str, callable]] = [
        # quarters
        (r"\b([1-4])Q\s?'?(\d{2}|\d{4})\b", lambda m: (_year(m.group(2)), f"Q{m.group(1)}")),
        (r"\bQ([1-4])\s?(?:FY\s?|fiscal\s+(?:year\s+)?)?'?(\d{4}|\d{2})\b", lambda m: (_year(m.group(2)), f"Q{m.group(1)}")),
        (_YEAR + r"\s?Q([1-4])\b", lambda m: (int(m.group(1)), f"Q{m.group(2)}")),
        (r"\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter\s+(?:of\s+)?(?:fiscal\s+(?:year\s+)?|FY\s?)?"
         + _YEAR, lambda m: (int(m.group(2)), f"Q{_ORD[m.group(1).lower()]}")),
        (_YEAR + r"\s?年(?:度)?\s?(?:第\s?)?([一二三四1-4])\s?季度", lambda m: (int(m.group(1)), f"Q{_num(m.group(2))}")),
        # half years and nine months
        (_YEAR + r"\s?年?(?:度)?\s?(?:上半年|半年度|中期|半年)", lambda m: (int(m.group(1)), "H1")),
        (r"\b(?:H1|1H|first\s+half(?:\s+of)?|interim)\s?(?:FY\s?|fiscal\s+)?" + _YEAR, lambda m: (int(m.group(1)), "H1")),
        (_YEAR + r"\s?(?:H1|1H|first\s+half|interim)\b", lambda m: (int(m.group(1)), "H1")),
        (_YEAR + r"\s?年?(?:度)?\s?(?:前三季度|1-9月|1—9月|一至三季度)", lambda m: (int(m.group(1)), "9M")),
        (r"\b(?:9M|nine\s+months(?:\s+ended)?(?:\s+of)?)\s?(?:FY\s?|fiscal\s+)?" + _YEAR, lambda m: (int(m.group(1)), "9M")),
        # ranges of fiscal years
        (r"(?:FY\s?)?" + _YEAR + r"\s?(?:年度|年|财年)?\s?(?:-|–|—|~|to|through|至|到)\s?(?:FY\s?)?" + _YEAR
         + r"\s?(?:年度|年|财年)?",
         None),
        # fiscal years
        (r"\b(?:FY|fiscal\s+(?:year\s+)?|fiscal-year\s+)'?(\d{4}|\d{2})\b", lambda m: (_year(m.group(1)), "FY")),
        (_YEAR + r"\s?(?:财年|財年|fiscal\s+year|年度|年报|年報|annual)", lambda m: (int(m.group(1)), "FY")),
        (_YEAR + r"\s?年", lambda m: (int(m.group(1)), None)),
        (r"(?<!\d)(?<!\d[.,])" + _YEAR + r"(?!\d|[.,]\d|%)", lambda m: (int(m.group(1)), None)),
    ]
    yearless = [
        (r"(?<![\d年])前三季度", lambda m: "9M"),
        (r"(?<![\d年])(?:上半年|半年度|中期)", lambda m: "H1"),
        (r"(?<![\d年前])(?:第\s?)?([一二三四])\s?季度", lambda m: f"Q{_num(m.group(1))}"),
    ]
    for pattern, make in patterns:
        for m in re.finditer(pattern, text, re.I):
            if make is None:  # a range of years
                a, b = int(m.group(1)), int(m.group(2))
                if a <= b <= a + 30:
                    span = (m.start(), m.end())
                    if not any(span[0] < y and x < span[1] for x, y in taken):
                        taken.append(span)
                        for y in range(a, b + 1):
                            found.append((m.start(), PeriodRef(fiscal_year=y, fiscal_period=None, matched=m.group(0))))
                continue
            year, period = make(m)
            add(m, year, period)
    for pattern, make in yearless:
        for m in re.finditer(pattern, text):
            before = [p for pos, p in found if pos < m.start() and p.fiscal_year]
            if before:
                add(m, before[-1].fiscal_year, make(m))
    if re.search(r"\b(?:quarterly|each quarter|every quarter|by quarter|per quarter)\b|各季度|分季度|每个季度|每季度", text, re.I):
        for pos, p in list(found):
            if p.fiscal_year and p.fiscal_period in (None, "FY"):
                found.remove((pos, p))
                found += [(pos, PeriodRef(fiscal_year=p.fiscal_year, fiscal_period=f"Q{i}", matched=p.matched))
                          for i in range(1, 5)]
    bad = re.search(r"\b(?:fifth|sixth|seventh|eighth|5th|6th|7th|8th)\s+(?:fiscal\s+)?quarter\b|\bQ[5-9]\b|"
                    r"第?[五六七八九]季度|\b(?:third|3rd)\s+half\b|下下半年", text, re.I)
    if bad:  # a period that does not exist: never answered with a neighbouring one
        return [PeriodRef(relative="invalid", matched=bad.group(0))], None
    last_n = None
    m = re.search(r"\b(?:last|past|previous|recent)\s+(\w+)\s+(?:fiscal\s+)?years\b", text, re.I) or \
        re.search(r"(?:近|最近|过去|過去|前)\s?([一二两三四五六七八九十\d]+)\s?(?:个)?(?:年|财年|會計年度|会计年度)", text)
    if m:
        last_n = _num(m.group(1))
    if re.search(r"\b(?:latest|most\s+recent|newest|current)\b|最新|最近一期", text, re.I) and not found and not last_n:
        found.append((0, PeriodRef(relative="latest", matched="latest")))
    found.sort(key=lambda x: x[0])
    unique: list[PeriodRef] = []
    for _, p in found:
        if all((p.fiscal_year, p.fiscal_period, p.relative) != (q.fiscal_year, q.fiscal_period, q.relative) for q in unique):
            unique.append(p)
    # a bare year next to the same year with a period is that period ("Q1 2025 ... 2025")
    specific = {p.fiscal_year for p in unique if p.fiscal_period}
    unique = [p for p in unique if p.fiscal_period or p.fiscal_year not in specific or p.relative]
    return unique, last_n
