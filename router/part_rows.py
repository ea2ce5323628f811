"""A part of a company's figure printed in a breakdown table: a segment's, region's or product line's revenue,
gross margin or profit. Reports print it in one of three shapes, and the answer quotes the table's header with the row,
so the figure is read with its columns and unit:

* the part heads a row of a table about the metric ("分地区 营业收入 营业成本 毛利率 ... 境外 737,763,832.75",
  "Segment Information ... Digital Marketing ...... 1,508.9 1,355.2", "测试业务（WuXi Testing） 567,073.84"):
  :func:`part_row_span`;
* the part heads a table whose rows are the metric ("... for the Optical Communications segment (in millions): ...
  Segment net sales $ 4,349 $ 3,563"): :func:`part_table_span`;
* the part heads a column of a segment note ("Product segment Service segment Elimination Consolidated"):
  :mod:`router.part_columns`.

A part is looked for by its name as the question writes it (with or without its part noun: "Digital Marketing
segment" is printed "Digital Marketing"), then by its name in the other language (``measures.part_of.same_part``:
an English question's "overseas" on an A-share report's 境外 row)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from mappings.metrics import CJK, metrics, printed_names
from mappings.vocabulary import fold, part_markers, reading_labels, simplified_in_place, words
from router.fallback import figure_filters, figure_span, labels_of, span_passage
from router.periods import years_named
from router.other_language_names import other_language_name
from router.part_columns import part_column_span
from router.part_names import (_CJK_PART_ENDINGS, _FIGURE, HEADING_MAX, aside_names, asked_as, flexible, is_part,
                               part_names, spelled_by)
from router.part_sections import _SENTENCE_STOP, _prose, part_section_span
from router.table_cells import ROW_OF_CELLS, heading_columns, listed, rejoined, text_cell, titled, with_year_heading
from router.search_route import FIGURE_POOL
from schema.models import Passage, QueryPlan

PARTS_EACH = 2  # tables quoted per part asked
HEADER_BEFORE = 900  # the metric's name in the table's header: at most this many characters before the row
HEADER_AFTER = 400  # or in a total row under it ("Total revenue")
TABLE_AFTER = 600  # the metric's row under a part's heading: at most this many characters after it
QUOTE_MAX = 1200  # header to row quoted as one span up to this length; beyond it, the row alone
# what may stand between a row's label and its first figure: leaders, spacing, a currency, a name or note in brackets
_ROW_GAP = re.compile(r"(?:[\s.·…:：$¥￥_）)-]|HK\$|US\$|S\$|RMB|[（(][^()（）\n]{0,40}[)）])*", re.I)
_AMOUNT = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d{2,}")
# (a bracketed note the text layer wrapped round the row's figures: "境外（包括北美、欧洲、除中" / "2,474,968,710.69 ..." /
# "国大陆地区以外的亚洲地区）")
_WRAPPED_GAP = re.compile(r"(?:[\s.·…:：$¥￥_）)%-]|[（(][^()（）\n]{0,40}[)）]|[（(][^()（）\n]{0,40}(?=\n)|[\u4e00-\u9fff]{1,4}|"
                          r"\d+(?:\.\d+)?)*")
# what may stand before a part's name on its row: a bullet, a numbering, an opening bracket, the part's other name
_ROW_HEAD = re.compile(r"[\s•●■◆▪·\-–—*（(]*(?:[a-z0-9ivx]{1,4}[.)）]\s*)?(?:[\u4e00-\u9fff]{1,12}\s*[（(])?\s*$", re.I)
# a row's label may go on past the part's name with what it covers ("General building works and associated services")
_LABEL_GOES_ON = re.compile(r"(?:\s+(?:and|&)(?:\s+[a-z][\w’'-]*){1,3})?", re.I)
_ENGLISH_NAME = re.compile(r"[\s•●■◆▪·\-–—*]*[A-Za-z][A-Za-z&'’.,/ -]{0,60}\s")
_CHINESE_NAME = re.compile(r"[^\S\n]+[\u4e00-\u9fff][\u4e00-\u9fff、（）()]{0,15}(?=[^\S\n])")
_FOOTNOTE = re.compile(r"[（(]\d{1,2}[)）]")
_YEARS_HEADER = re.compile(r"(?:19|20)\d\d[^\S\n]+(?:19|20)\d\d[^\S\n]*(?:[^\S\n]+(?:19|20)\d\d)*[^\S\n]*\n")
SENTENCE_GAP = 12  # a sentence names the part and then the metric: at most this many characters between them
SENTENCE_GAP_ZH = 32  # in Chinese, when the words between name no other part ("小分子业务保持稳定发展，收入基本持平，毛利率")
SENTENCE_WINDOW = 200  # and its figure within this many characters after that, in the same sentence
# the metric named first: "... margin for|of|from|in [the] PART", then its figures in brackets or after a verb
_METRIC_OF_PART = re.compile(r"\s+(?:for|of|from|in|at)\s+(?:the\s+|its\s+|our\s+)?", re.I)
_PART_FIGURES = re.compile(r"(?:\s*(?:segment|business|division)s?)?(?:\s+(?:for|during|in)\s+the\s+(?:(?:financial\s+)?year|period|"
                           r"(?:three|six|nine|twelve)\s+months)(?:\s+ended\s+(?:\d{1,2}\s+[a-z]+|[a-z]+\s+\d{1,2},?)\s+(?:19|20)\d\d)?)?"
                           r"\s*(?:\([^()]{0,120}\)|(?:was|were|is|of|amounted\s+to|"
                           r"reached|totall?ed)\s+(?:approximately\s+|about\s+)?[^\s,;.]*\d[\d,.]*%?(?:\s+(?:million|billion))?)",
                           re.I)
_METRIC_ROW_HEAD = re.compile(r"[\s•●■◆▪·\-–—*]*(?:segment|total|reportable segment|分部|板块)?\s*$", re.I)


def table_top(text: str, row_start: int) -> int:
    """Where the table a row belongs to starts: the lines above it up to running text (a line introducing the table,
    ending in a colon, is the table's), at most HEADER_BEFORE characters up."""
    top = row_start
    while top > 0 and row_start - top < HEADER_BEFORE:
        prev = text.rfind("\n", 0, top - 1) + 1
        line = text[prev: top - 1] if top > 0 else ""
        if _prose(line) and not re.search(r"[：:]\s*$", line) and not ROW_OF_CELLS.search(line):
            break  # (a row with a text column is many words, then its figures: "Nimenrix Active immunization ... 38 65")
        top = prev
        if re.search(r"[：:]\s*$", line):
            break
    if top > 0 and text[top: top + 1].islower():  # the table's intro sentence began on the line before
        prev = text.rfind("\n", 0, top - 1) + 1
        start = max(text.rfind(". ", prev, top - 1), text.rfind("。", prev, top - 1))
        top = start + 2 if start >= 0 and text[start] == "." else start + 1 if start >= 0 else prev
    return top


def _name_under_row(text: str, line_start: int, m: re.Match) -> tuple[int, int] | None:
    """A row whose other name, in brackets on its own line, the text layer put under its figures ("测试业务" /
    "567,073.84 595,773.07" / "（WuXi Testing）"): (the row's start, the end of the bracketed name's line), or None."""
    line_end = text.find("\n", m.end())
    line = text[line_start: len(text) if line_end < 0 else line_end].strip()
    if not re.fullmatch(r"[（(][^()（）]+[)）]", line) or line_start < 2:
        return None
    figures_start = text.rfind("\n", 0, line_start - 1) + 1
    figures = text[figures_start: line_start - 1]
    label_start = text.rfind("\n", 0, max(figures_start - 1, 0)) + 1
    label = text[label_start: max(figures_start - 1, label_start)].strip()
    if not re.fullmatch(r"[\d,.()%\s\-–]+", figures.strip() or "x") or not re.fullmatch(r"[\u4e00-\u9fff]{2,12}", label):
        return None
    return label_start, len(text) if line_end < 0 else line_end


def part_row_span(text: str, name: re.Pattern, labels: list[str], kind: str | None = None) -> tuple[int, int] | None:
    """The span from the top of the table to the end of the row the part heads, when the table is about the metric
    (one of its names above the row or in a total under it), or None. An amount of money (``kind``) is no row of
    percentages (a comparable-sales table's "Sam's Club U.S. 4.7% 2.3%")."""
    lower = text.casefold()
    for m in name.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        chinese = bool(CJK.search(m.group(0)))
        head = text[line_start: m.start()]
        # a page printed in English and Chinese side by side heads a row with both names ("Corporate Finance 企業融資
        # 12,735 9,145"): the English name before a Chinese one, the Chinese name after an English one
        if not _ROW_HEAD.fullmatch(head) and not (chinese and _ENGLISH_NAME.fullmatch(head)):
            continue
        if chinese and CJK.match(text, m.end()) and not text.startswith((*labels, *part_markers()), m.end()) \
                and not re.match(_CJK_PART_ENDINGS, text[m.end():]):
            continue  # a longer term (主营业务成本 for 主营业务), unless it goes on with the metric or a part noun (骨科类)
        label_end = m.end() + (_LABEL_GOES_ON.match(text, m.end()).end() - m.end() if not chinese else 0)
        if not chinese and (other := _CHINESE_NAME.match(text, label_end)):
            label_end = other.end()
        figure = _FIGURE.search(text, label_end, label_end + 120)
        while figure is not None and _FOOTNOTE.match(text, figure.start()):  # "Sam's Club U.S.(1)": a note's mark
            figure = _FIGURE.search(text, figure.end() + 1, label_end + 120)
        if figure is not None and kind == "money" and text.startswith("%", figure.end()):
            continue
        if (figure is None or not _ROW_GAP.fullmatch(text[label_end: figure.start()])) and CJK.search(m.group(0)):
            # a Chinese table's cells wrapped over lines ("境外 减少 4.19" / "737,763,832.75 601,896,081.32 18.42"):
            # the row's amounts on the next line, short cells before them
            figure = _AMOUNT.search(text, label_end, label_end + 120)
            if figure is not None and not _WRAPPED_GAP.fullmatch(text[label_end: figure.start()]):
                figure = None
        elif figure is not None and not _ROW_GAP.fullmatch(text[label_end: figure.start()]) \
                and not text_cell(text, label_end, figure):
            figure = None
        if figure is None or text.count("\n", m.end(), figure.start()) > 2:
            above = _name_under_row(text, line_start, m)
            if above is None:
                continue
            line_start, row_end = above
        else:
            row_end = text.find("\n", figure.end())
            row_end = len(text) if row_end < 0 else row_end
            while (more := re.match(r"\n[\d,.()%\s\-–]+(?=\n|$)", text[row_end:])) and _AMOUNT.search(more.group(0)):
                row_end += more.end()  # the row's amounts wrapped onto the next line
        top = table_top(text, line_start)
        if not any(lower.find(w, top, row_end) >= 0 for w in labels) and (
                not any(lower.find(w, row_end, row_end + HEADER_AFTER) >= 0 for w in labels)
                or _other_total_first(text, row_end, labels)) and not titled(text, labels):
            continue
        if _under_another_section(text, lower, top, line_start, row_end, labels):
            continue  # a stacked table's other section (REVENUES) when the metric's own (EARNINGS BEFORE ...) follows
        if row_end - top > QUOTE_MAX:
            top = text.find("\n", row_end - QUOTE_MAX) + 1
        return top, row_end
    return None


@lru_cache(maxsize=1)
def _metric_names() -> frozenset[str]:
    """Every metric's English names, lower case: a row that prints one of them totals that metric."""
    return frozenset(a.casefold() for m in metrics().values() for a in (m.name_en, *m.aliases) if not CJK.search(a))


def _other_total_first(text: str, row_end: int, labels: list[str]) -> bool:
    """Does the block of rows under a part's row end in another metric's total ("Net sales $ 3,642 ...") before any
    line names the metric asked ("Adjusted EBIT" below it heads the next block)? Then the row is that metric's."""
    for line in text[row_end: row_end + HEADER_AFTER].split("\n"):
        lower = line.casefold()
        if any(w in lower for w in labels):
            return False
        figure = _FIGURE.search(line)
        head = re.sub(r"[\s$:]+$", "", line[: figure.start()] if figure else "").strip().casefold()
        if figure and (head.startswith("total") or head in _metric_names()):
            return True
    return False


_SECTION_LINE = re.compile(r"[^\S\n]*[A-Z][^\da-z\n]{2,58}[^\S\n]*")  # an upper-case line without figures ("REVENUES")
# a section of a stacked table headed by its name and its years' columns ("Net Sales 2022 2021 2020")
_YEARS_SECTION = re.compile(r"[^\S\n]*[A-Za-z][A-Za-z&'’(),/ -]{2,58}?(?:[^\S\n]+(?:19|20)\d\d){2,4}[^\S\n]*")


def _under_another_section(text: str, lower: str, top: int, line_start: int, row_end: int, labels: list[str]) -> bool:
    """Is the row under a section heading of a stacked table (a line without figures: "REVENUES"; a name over the
    years' columns: "Net Sales 2022 2021 2020") that names none of the metric's labels, while a later section heading
    of the table does ("EARNINGS BEFORE INTEREST AND TAXES"), or a later section's rows do ("Operating Performance
    2022 2021 2020" ... "Total business segment operating income")?"""
    heading = None
    end = line_start - 1
    while end > top:
        start = text.rfind("\n", 0, end) + 1
        if _SECTION_LINE.fullmatch(text[start:end]) or _YEARS_SECTION.fullmatch(text[start:end]):
            heading = lower[start:end]
            break
        end = start - 1
    if heading is None or any(w in heading for w in labels):
        return False
    later_section = False
    for line in text[row_end: row_end + 2 * QUOTE_MAX].split("\n"):
        named = any(w in line.casefold() for w in labels)
        if _SECTION_LINE.fullmatch(line) and named or later_section and named:
            return True
        later_section = later_section or bool(_YEARS_SECTION.fullmatch(line))
    return False


def part_table_span(text: str, name: re.Pattern, labels: list[str]) -> tuple[int, int] | None:
    """The span from the part's heading to the end of the metric's row under it, or None."""
    lower = text.casefold()
    for m in name.finditer(text):
        head = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        line = text[head: len(text) if line_end < 0 else line_end].strip()
        # the part heads the table: its own heading line, or the line that introduces the table ("... for the Optical
        # Communications segment (in millions):"), not a mention in running text
        if not (re.search(r"[：:]$", line) or (len(line) <= HEADING_MAX and not _prose(line) and not _FIGURE.search(line))):
            continue
        # (a line of several parts' headings is a table's columns: the metric's row has a cell under each)
        columns = 1 + heading_columns(line, name) if not re.search(r"[：:]$", line) else 1
        after = text[m.end(): m.end() + 4]
        if CJK.search(after[:1]) and not after.startswith(part_markers()):
            continue  # a longer term (境外会计准则), not the part
        window_end = min(len(text), m.end() + TABLE_AFTER)
        for label in labels:
            at = lower.find(label, m.end(), window_end)
            while at >= 0:
                line_start = text.rfind("\n", 0, at) + 1
                figure = _FIGURE.search(text, at + len(label), at + len(label) + 80)
                row_end = text.find("\n", figure.end()) if figure is not None else -1
                if line_start > m.end() and _METRIC_ROW_HEAD.fullmatch(text[line_start: at]) and figure is not None \
                        and _ROW_GAP.fullmatch(text[at + len(label): figure.start()]) \
                        and len(_FIGURE.findall(text, figure.start(), len(text) if row_end < 0 else row_end)) >= columns:
                    return with_year_heading(text, head), len(text) if row_end < 0 else row_end
                at = lower.find(label, at + 1, window_end)
    return None


def part_sentence_span(text: str, name: re.Pattern, labels: list[str], kind: str | None) -> tuple[int, int] | None:
    """The span of a sentence that names the part, then the metric with its figure ("公司境外主营业务收入 154,144.57 万元",
    "Digital Marketing revenue was $1,508.9 million", "小分子业务保持稳定发展，收入基本持平，毛利率 45.17%"), or the metric,
    then the part, then its figures ("gross profit margin for foundation and site formation works (2020: approximately
    12.7%; 2021: approximately 6.4%)"), from the start of its line, or None."""
    for m in name.finditer(text):
        # the sentence the part is named in (the page's later labels are other sentences')
        stop = _SENTENCE_STOP.search(text, m.end(), m.end() + SENTENCE_GAP_ZH + SENTENCE_WINDOW)
        rest = text[m.end(): stop.end() if stop else m.end() + SENTENCE_GAP_ZH + SENTENCE_WINDOW]
        span = figure_span(rest, labels, kind)
        if span is None:
            continue
        gap = rest[: span[0]]
        # a Chinese sentence may say other things of the part before the metric, if it names no other part
        limit = SENTENCE_GAP_ZH if CJK.search(m.group(0)) and not any(w in gap for w in part_markers()) else SENTENCE_GAP
        # (a line the text layer wrapped inside the sentence is no break: "TIDES" / "业务收入达到人民币 50.3 亿元")
        # (nor one year's figure in brackets: "services (2020: gross profit margin of approximately 10.9%; 2021: ...")
        if span[0] <= limit and not re.search(r"[。；;]|\n.*\n|(?:19|20)\d\d\s*[:：]", gap) \
                and not _YEARS_HEADER.search(rest[: span[1]]):  # a table's header of years is no sentence's figure
            end = m.end() + span[1]
            clause = re.compile(r"[，。；;\n]|,(?!\d)").search(text, end, end + 40)  # with its unit: to the clause's end
            return text.rfind("\n", 0, m.start()) + 1, clause.start() if clause else end
    lower = text.casefold()
    for label in labels:
        for found in re.finditer(re.escape(label).replace(r"\ ", r"\s+"), lower):  # (a label wrapped over lines)
            at = found.start()
            link = _METRIC_OF_PART.match(text, found.end())
            part = name.match(text, link.end()) if link else None
            if part is None:
                continue
            figures = _PART_FIGURES.match(text, part.end())
            if figures is not None and _FIGURE.search(figures.group(0)):
                return text.rfind("\n", 0, at) + 1, figures.end()
    return None


def part_row_passages(searcher: Callable, plan: QueryPlan,
                      printed: Callable[..., list[str]] | None = None) -> list[Passage]:
    """For each part the plan asks about (a qualifier that is no non-GAAP word), the tables of the asked period's
    reports that print its figure, each quoted from its header to the part's row. A part found by none of its names
    is looked for by the one label ``printed(filters)`` on the asked filings' pages that says its name in the other
    language (:mod:`router.other_language_names`), then among the parts they name in running text too
    (``printed(filters, prose=True)``)."""
    if words("share_of").search(fold(plan.question)):
        return []  # a share of the figure is asked: the part's amount is not it, nor the total beside it
    filters = figure_filters(plan)
    years = {p.fiscal_year for p in plan.periods if p.fiscal_year}
    out: list[Passage] = []
    for qualifier, metric in plan.non_gaap:
        if not is_part(qualifier):
            continue
        own, other = part_names(qualifier)
        own += aside_names(plan.question, qualifier)
        labels = [*reading_labels(plan.question, metric), *labels_of(metric)]  # "EBIT": its own printed names first
        # a part's company-defined measure ("Flexibles segment adjusted EBIT"): only a table of that measure
        adjusted = [w for w, m in plan.non_gaap if m == metric and not is_part(w)]
        labels = [f"{w} {label}" for w in adjusted for label in labels] or labels
        kind = metrics()[metric].kind if metric in metrics() else None
        names = " ".join(dict.fromkeys(printed_names(metric).values()))
        query = plan.model_copy(update={"sections": [],
                                        "question": " ".join([plan.question, names, *other]).strip()})
        evidence = searcher(query, filters, whole=True)
        if filters.get("fiscal_period") and getattr(evidence, "widened", None):
            continue  # found only outside the asked period's reports
        if len(years) > 1 or not _found(evidence, (own, other), labels, kind, years):  # the question's own words too:
            # several years, the latest report's summary table (the notes' tables print fewer years and rank first);
            # a part named in the filing's other language, its sentence ("TIDES 业务收入达到 ..." for "TIDES revenue")
            more = searcher(plan.model_copy(update={"sections": []}), filters, whole=True, pool=2 * FIGURE_POOL)
            seen = {(p.source.get("document_id"), p.source.get("page"), p.text) for p in evidence}
            evidence = [*evidence, *(p for p in more if (p.source.get("document_id"), p.source.get("page"), p.text)
                                     not in seen)]
        found = _found(evidence, (own, other), labels, kind, years) or _in_group(evidence, own[0], labels, kind)
        if not found and len(pieces := listed(own[0])) > 1:  # "冷冻设备和罐式集装箱的毛利率": each part's row
            found = [q for piece in pieces for q in _found(evidence, (part_names(piece)[0],), labels, kind, years)[:1]]
        if not found and printed is not None and (label := other_language_name(own, printed(filters)) or other_language_name(
                own, printed(filters, prose=True)) or spelled_by(asked_as(plan.question, own), printed(filters))):
            # (the parts named in running text only where no row names it; an abbreviation by the row it spells)
            query = plan.model_copy(update={"sections": [], "question": " ".join([plan.question, label, names])})
            found = _found([*searcher(query, filters, whole=True), *evidence], ([simplified_in_place(label)],), labels, kind,
                           years)
        # several years asked: the tables that print the most of them first (the latest report's, "2022 2021 2020");
        # a table under another year's heading only (a comparative year's) last
        # (then a quarter's table before the year to date's: "Three Months Ended" for a quarter, "Six Months" for H1)
        found.sort(key=lambda q: (-len(years & years_named(q.text)), _other_months(q.text, plan), bool(years_named(q.text))))
        out += found[:PARTS_EACH]
    return out


_MONTHS_OF = {"Q1": "three", "Q2": "three", "Q3": "three", "Q4": "three", "H1": "six", "9M": "nine", "FY": "twelve"}
_MONTHS_ENDED = re.compile(r"\b(three|six|nine|twelve)\s+months\s+ended\b", re.I)


def _other_months(text: str, plan: QueryPlan) -> bool:
    """Does a table print only other spans of months than the period asked ("Six Months Ended" for a quarter)?"""
    asked = {_MONTHS_OF.get(p.fiscal_period or "FY") for p in plan.periods}
    printed = {m.group(1).casefold() for m in _MONTHS_ENDED.finditer(text)}
    return bool(printed) and not printed & asked


def _found(evidence: list[Passage], groups: tuple[list[str], ...], labels: list[str], kind: str | None,
           years: set[int]) -> list[Passage]:
    """The passages quoted from the evidence that print a part by the names of the first group that finds any: its
    row, its table under its heading, its column (``router.part_columns``), its sentence or its section's first
    sentence that gives the figure."""
    found: list[Passage] = []
    several = len(years) > 1
    for group in groups:  # the question's own words first
        patterns = [flexible(w) for w in group]

        def span_in(text: str) -> tuple[int, int] | None:
            return next((s for pat in patterns for s in (part_row_span(text, pat, labels, kind),
                                                         part_table_span(text, pat, labels),
                                                         part_column_span(text, pat, labels, years),
                                                         part_sentence_span(text, pat, labels, kind),
                                                         part_section_span(text, pat, labels, kind)) if s), None)

        for p in evidence:
            text = simplified_in_place(p.text)  # a Traditional page read in the question's folded words
            span = span_in(text)
            if span is None and (joined := rejoined(text, group)) != text and (span := span_in(joined)):
                end = text.find("\n", span[1])  # (to the end of the name's tail, in the text as printed)
                span = (span[0], len(text) if end < 0 else end)
            quote = span_passage(p, *span) if span is not None else None
            if quote is not None and quote.text not in {q.text for q in found}:
                found.append(quote)
            if len(found) >= PARTS_EACH and not several:
                break
        if found:
            break
    return found


def _in_group(evidence: list[Passage], name: str, labels: list[str], kind: str | None) -> list[Passage]:
    """A part asked by its row's name and its group's ("polyresin series home decor products"): the row of one half
    of the name ("Polyresin series 44,597 38.7") in a table that prints the other half as a line of its own above
    it ("Home decor products"), the group's heading. Each reader sees both names in the quote."""
    words_ = name.split()
    if CJK.search(name) or len(words_) < 3:
        return []
    found: list[Passage] = []
    for cut in range(1, len(words_)):
        for row, group in ((words_[:cut], words_[cut:]), (words_[cut:], words_[:cut])):
            if not any(len(w) >= 4 for w in row):
                continue
            heading = re.compile(rf"(?m)^[^\S\n]*{flexible(' '.join(group)).pattern}[^\S\n]*:?[^\S\n]*$", re.I)
            for p in evidence:
                text = simplified_in_place(p.text)
                span = part_row_span(text, flexible(" ".join(row)), labels, kind)
                if span is None:
                    continue
                if heading.search(text, span[0], span[1]) and (quote := span_passage(p, *span)).text not in {
                        q.text for q in found}:
                    found.append(quote)
            if found:
                return found[:PARTS_EACH]
    return []
