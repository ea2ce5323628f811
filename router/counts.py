"""Questions that ask for a count of things sold, shipped or delivered ("How many iPhones did Apple sell in fiscal
2024?"), or of the people a company employs (headcount, 员工人数): many companies never print unit counts, and
passages about the product (its revenue, its launch) or about staff (their pay, their training) do not answer. Such
a question is answered only by a passage that prints a number of those things; otherwise no_data. A headcount is
looked for in both languages (an HK report prints it in English under a Chinese question)."""

from __future__ import annotations

import re
from collections.abc import Callable

from mappings.vocabulary import fold, simplified_in_place, words
from router.quotes import root
from router.fallback import span_passage
from schema.models import Passage, QueryPlan

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


_HOW_MANY = re.compile(r"\bhow\s+many\s+((?:[\w&'’-]+\s+){0,3}?[\w&'’-]+)\s+(?:did|does|do|has|have|had|will|were|was|are|is|in|at|on|as|for)\b",
                       re.I)


def how_many(question: str) -> str | None:
    """The things a "how many ..." question counts, whatever it asks them of ("primary school students" of "how many
    primary school students were enrolled"), or None."""
    m = _HOW_MANY.search(question)
    return m.group(1).casefold() if m else None


def qualified_count(text: str, things: str) -> bool:
    """Does a passage print the count of the very things asked, by the words that narrow them, right before a number
    ("Primary school 26,874" for "primary school students"; not "69,695 students" in all, nor "Huiyang Primary
    School in January 2021")? Things named by one word have nothing that narrows them."""
    words = things.split()[:-1]
    if not words:
        return False
    name = r"\s+".join(re.escape(w) for w in words)
    # (a count is a whole number: "construction projects 21.8" is an amount in a table of money)
    for m in re.finditer(rf"(?<![\w-]){name}(?![\w-])[^\d\n]{{0,12}}?(\d[\d,]*)(?![\d,]*(?:\.\d|\s*[年%]))", text, re.I):
        if not re.fullmatch(r"(?:19|20)\d\d", m.group(1)):
            return True
    return False


SENTENCE_BACK = 300  # characters a headcount's quote may start before the count
HEADCOUNT = "employees"  # what :func:`counted` returns for a question about how many people a company employs
# the words joined to a headcount question's search: the count is printed in either language
HEADCOUNT_TERMS = "employees employed staff 员工 在职员工 雇员"
_PEOPLE = r"(?:employees|people|persons|staff|workers|associates|team\s+members|colleagues|full[- ]time\s+equivalents?)"
# words between a count and people ("57,500 full- and part-time employees")
_COUNT_WORDS = (r"(?:(?:full|part)(?:[- ]time)?-?\s+(?:and|or|&)\s+|(?:full|part)[- ]time\s+|permanent\s+|total\s+|"
                r"regular\s+|active\s+)*")
_HEADCOUNT_EN = re.compile(
    r"(?<![\d.,$])(?:\d{1,3}(?:,\d{3})+|\d{2,6})(?![\d.,%])\s+(?:\([^()\n]{0,30}\)\s+)?" + _COUNT_WORDS + _PEOPLE + r"\b|"
    r"(?<![\d.,$])\d+(?:\.\d+)?\s+(?:million|thousand)\s+" + _COUNT_WORDS + _PEOPLE + r"\b|"  # 2.2 million associates
    r"\bemploy(?:ed|s|ing)?\s+(?:a\s+total\s+of\s+|approximately\s+|about\s+|around\s+|over\s+|some\s+|more\s+than\s+)*"
    r"[\d,.]+\s+(?:million\s+|thousand\s+)?" + _COUNT_WORDS + _PEOPLE + r"\b|"
    r"\b(?:headcount|workforce|number\s+of\s+(?:full[- ]time\s+)?(?:employees|staff))\s+(?:of|was|were|totall?ed|stood\s+at|"
    r"reached)\s+(?:approximately\s+|about\s+)?\d", re.I)
# (a Traditional page's letter-spaced words too: 約20名僱 員); a count of attendances (人次), of a share plan's or a
# training's participants, of hires or leavers is no headcount
_HEADCOUNT_ZH = re.compile(r"(?:员\s?工|职\s?工|雇\s?员|人\s?员)(?:(?!持股|培训|参与|新增|新招|招聘|离职|退休|人次)[^。；;\n]){0,20}?"
                           r"\d[\d,]*\s*(?:人|名)(?![民币次])|"
                           r"\d[\d,]*\s*(?:名|人)\s?(?:[（(][^()（）]{0,30}[)）]\s?)?(?:全\s?职\s?)?(?:员\s?工|职\s?工|雇\s?员)")
# (a comparative in brackets between the count and the people: 聘用約20名（二 零 二 四 年：15名）僱 員)
# the table of the CSRC template: 母公司在职员工的数量 517 / 主要子公司在职员工的数量 83 / 在职员工的数量合计 600 (the total first)
_HEADCOUNT_TABLE_ZH = (re.compile(r"在职员工的?(?:数量|人数)合计\s*[:：]?\s*\d[\d,]*"),
                       re.compile(r"在职员工的?(?:数量|人数)\s*[:：]?\s*\d[\d,]*"))


# a question about what staff cost is no headcount question ("employee benefit expense", 员工薪酬)
_STAFF_COST = re.compile(r"\b(?:benefits?|salar(?:y|ies)|wages?|compensation|costs?|expenses?|pay|payroll|remuneration)\b|"
                         r"薪酬|工资|福利|费用|成本|报酬", re.I)


def asks_headcount(question: str) -> bool:
    folded = fold(question)
    return bool(words("headcount").search(folded)) and not _STAFF_COST.search(folded)


def headcount_span(text: str) -> tuple[int, int] | None:
    """(start, end) of the sentence or table row that prints how many people a company employs ("employed
    approximately 221,000 people on a full-time basis", "165 full-time employees", 本集团共有在职员工 41,011 人,
    在职员工的数量合计 600), or None. A year ("2021 employees") is no count."""
    folded = simplified_in_place(text)
    hits = [m for rx in _HEADCOUNT_TABLE_ZH for m in rx.finditer(folded)][:1]
    hits += [m for m in _HEADCOUNT_EN.finditer(text) if not re.match(r"(?:19|20)\d\d\s", m.group(0))][:1]
    hits += list(_HEADCOUNT_ZH.finditer(folded))[:1]
    if not hits:
        return None
    m = hits[0]
    # from the sentence's start (a sentence may run over printed lines), or the line's when that is far back
    start = max(text.rfind(end, 0, m.start()) for end in ("。", "；", ". ", "\n\n")) + 1
    if m.start() - start > SENTENCE_BACK:
        start = text.rfind("\n", 0, m.start()) + 1
    start += len(text[start: m.start()]) - len(text[start: m.start()].lstrip())
    ends = [i for i in (text.find(c, m.end()) for c in ("。", "；", ". ", "\n")) if i >= 0]
    return start, (min(ends) + 1 if ends else len(text))


def page_counts(passages: list[Passage], page_text: Callable[[str, int], str | None]) -> list[Passage]:
    """The headcount printed on the pages of units that print none themselves (the unit found stops before the
    sentence that gives it: "Employees / At December 31, 2019, we had approximately 9,200 total full-time and
    part-time employees."), quoted from the page: for each company, the first of its pages that prints one."""
    seen, out = set(), {}
    for p in passages:
        key = (p.source.get("document_id"), p.source.get("page"))
        if key in seen or None in key or p.company_id in out:
            continue
        seen.add(key)
        page = page_text(*key) or ""
        span = headcount_span(page)
        if span:
            out[p.company_id] = Passage(text=page[span[0]: span[1]], company_id=p.company_id, score=p.score,
                                        source={**p.source, "char_start": span[0], "char_end": span[1]})
    return list(out.values())


def headcount_quotes(searcher: Callable, queries: list[QueryPlan], filters: dict, page_text: Callable,
                     cut: Callable[[str, tuple[int, int]], tuple[int, int]] = lambda text, span: span) -> list[Passage]:
    """The passages that print a headcount, found by each query in turn under ``filters`` (whole units): the first
    query's units that print one (each quoted by ``cut``), and the pages of the units that print none."""
    counts: list[Passage] = []
    for query in queries:
        found = searcher(query, filters, whole=True)
        counts = counts or [span_passage(p, *cut(p.text, span)) for p in found if (span := headcount_span(p.text))]
        counts += page_counts([p for p in found if p.company_id not in {q.company_id for q in counts}], page_text)
    return counts


def each_year(filters: dict) -> list[dict]:
    """The filters once per fiscal year they name when they name several (each year's report searched apart), else
    as they are."""
    years = filters.get("fiscal_year") or []
    return [dict(filters, fiscal_year=[y]) for y in years] if len(years) > 1 else [filters]
