"""A part's figure in a table that prints the parts as columns (a segment note: "Product segment  Service segment
Elimination  Consolidated" over "2021 2020 2021 2020 ...", or "二零二五年 / 影音產品 電腦產品 抵銷 總計 ..." with the
years outside): the column is found from the headings, the years line and the units line, and the figure is read
from the metric's row only when the table's shape holds.

    span = part_column_span(text, name, labels, {2021})   # header line .. the row: quoted as one span
    reading = column_reading(text, name, labels, {2021})  # ColumnReading(heading, year, figure, unit, row)

Shape checks: every column has one cell in the row (a dash is an empty cell), the headings, years and units lines
agree on the number of columns, and where each year's group ends in a total column ("Consolidated", 總計, 合计) the
row's cells of the group add up to it. Anything else is no reading: a wrong column is a wrong figure."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from mappings.metrics import CJK
from mappings.vocabulary import simplified_in_place
from router.fallback import labels_of
from router.part_names import flexible, is_part, part_names
from router.periods import cn_numerals
from schema.models import Passage, QueryPlan

HEADER_LINES = 5  # the years and units lines are within this many lines of the headings line
ROW_LINES = 24  # the metric's row is within this many lines under the units line
HEADING_ROW = 24  # a label line without cells ("Segment revenue", 分类营业额) is at most this long
# a row printed as an amounts line and a shares line, its label's pieces round them ("营 业" / "收 入" / "金额 71,255 ..." /
# "占比% 48.6 ...", or "营业 金额 71,255 ..." / "收入 占比% 48.6 ...", or "金额 289 ..." / "净利润" / "占比% 0.6 ...")
_AMOUNT_ROW = re.compile(r"^(?P<piece>.*?)\s*(?:金额|金額|amounts?)$", re.I)
_SHARE_ROW = re.compile(r"^(?P<piece>.*?)\s*(?:占比|佔比|比重|share|% of total)\s*[(（]?[%％]?[)）]?$", re.I)
_STUB = re.compile(r"^(?:项\s*目|項\s*目|items?|particulars)$", re.I)  # the label column's heading, between headings and years
_SEGMENT_WORD = re.compile(r"segment|reportable|分类|分部|分類", re.I)  # (a plain "Revenue" heads its breakdown's rows)

_YEAR = re.compile(r"^(?:(?:19|20)\d\d|[二〇零一三四五六七八九]{4})年?度?$")
_UNIT = re.compile(r"^(?:(?:HK|US|S|RMB|NT)?\$['’]?(?:000|m|million)|(?:RMB|HKD|USD)['’]?(?:000|m)?|千港元|港元|"
                   r"(?:人民币|人民幣)?千?元|千美元|百万元|百萬元|'000|’000)$", re.I)
_CELL = re.compile(r"\(?-?\d[\d,]*(?:\.\d+)?\)?%?|[–—-]")
_NUMBERS = re.compile(r"\(?-?\d[\d,]*(?:\.\d+)?\)?%?")
_TOTALS = re.compile(r"^(?:consolidated|total|totals|group|總計|总计|合計|合计|綜合|综合|總額|总额)$", re.I)
_NOUNS = re.compile(r"^(?:segments?|business(?:es)?|divisions?|operations)$", re.I)


@dataclass(frozen=True)
class ColumnReading:
    heading: str  # the column's heading as printed
    year: int
    figure: str  # the cell as printed ("704,724", "(42,868)")
    unit: str  # the units line's token of the column ("HK$'000", 千港元), "" when there is none
    row: str  # the row's label


def _tokens(line: str) -> list[str]:
    """A line's tokens; a year and its 年 printed apart ("2024 年") are one token."""
    return re.sub(r"(?<=\d)\s+(?=年)", "", line).split()


def _year(token: str) -> int | None:
    """A years line's token as a year (2021, 2021年, 二零二一年), or None."""
    if not _YEAR.match(token):
        return None
    digits = re.sub(r"年度?$", "", cn_numerals(token if token.endswith("年") or token.endswith("度") else token + "年"))
    return int(digits) if digits.isdigit() else None


def _headings(line: str, count: int) -> list[str] | None:
    """The line's column headings, ``count`` of them, or None when it cannot be split so: Chinese headings are the
    line's words; English ones end at a part noun ("Product segment"), and the words after the last noun are one
    heading each ("Elimination Consolidated"); a line of one-word headings is its words."""
    words = _tokens(line)
    if re.search(r"[，。；：,.;:]", line) or any(len(w) > 12 for w in words if CJK.search(w)):
        return None  # running text (a description beside a segment's name), not a row of headings
    if any(_UNIT.match(w) or _year(w) or re.search(r"[$月日]|年度?$|^截至|^止", w) for w in words):
        return None  # a units, years or dates line: a table of years as columns, not of parts
    if CJK.search(line):
        return words if len(words) == count else None
    if len(words) == count:
        return words
    out: list[str] = []
    current: list[str] = []
    for w in words:
        current.append(w)
        if _NOUNS.match(w):
            out.append(" ".join(current))
            current = []
    out += current  # after the last noun: one heading per word
    return out if len(out) == count else None


def _value(cell: str) -> Decimal:
    if not _NUMBERS.fullmatch(cell):
        return Decimal(0)
    text = cell.replace(",", "").rstrip("%")
    negative = text.startswith("(") or text.startswith("-")
    try:
        number = Decimal(text.strip("()-"))
    except InvalidOperation:
        return Decimal(0)
    return -number if negative else number


# what may follow a metric's label in its row: a note, its Chinese name, a colon; revenue "from external customers"
_LABEL_TAIL = re.compile(r"(?:\s*(?:\(?note\s*\w+\)?|[（(][^()（）]{0,20}[)）]|\*+|[:：]))*\s*(?:[\u4e00-\u9fff、（）()]+)?\s*$", re.I)
_EXTERNAL = re.compile(r"^\s*(?:from|to)\s+(?:external\s+customers|contracts\s+with\s+customers)", re.I)


def _is_label(head: str, label: str) -> bool:
    """Is a row's head the metric's label ("Segment results", "Revenue 收入", "Sales to external customers"), not a
    longer line item that begins with it ("Total assets less current liabilities")?"""
    folded = head.casefold()
    if not label or not folded.startswith(label):
        return False
    rest = folded[len(label):]
    return bool(_LABEL_TAIL.fullmatch(rest) or _LABEL_TAIL.fullmatch(_EXTERNAL.sub("", rest)) and _EXTERNAL.match(rest))


def _row(line: str, labels: list[str], count: int) -> tuple[str, list[str]] | None:
    """(label, cells) of a line that starts with one of the metric's labels (any label: ``labels`` empty) and has
    exactly ``count`` cells."""
    first = _CELL.search(line)
    while first and first.start() > 0 and not line[first.start() - 1].isspace():
        first = _CELL.search(line, first.end())
    if first is None:
        return None
    head = line[: first.start()].strip()
    if not head or head[:1].islower() or labels and not any(_is_label(head, label) for label in labels):  # (lower case: the
        # rest of a label wrapped over two lines, "Amortisation of intangible / assets 1,441 ...")
        return None
    cells = _tokens(line[first.start():])
    if len(cells) != count or not all(_CELL.fullmatch(c) for c in cells):
        return None
    return head, cells


def _layout(lines: list[str], at: int, name: re.Pattern) -> tuple[list[int], list[int | None], list[str],
                                                                    tuple[int, int], list[str]] | None:
    """For the headings line ``lines[at]``: (the columns the part heads, each column's year, each column's unit, the
    first and last header lines, the headings by column), or None."""
    near = range(max(0, at - HEADER_LINES), min(len(lines), at + HEADER_LINES + 1))
    years_at = next((i for i in near if i != at and _tokens(lines[i]) and all(_year(t) for t in _tokens(lines[i]))), None)
    units_at = next((i for i in near if i != at and _tokens(lines[i]) and all(_UNIT.match(t) for t in _tokens(lines[i]))), None)
    if years_at is None or min(_apart(lines, at, i) for i in (years_at, units_at) if i is not None) > 1:
        return None  # the headings line sits right above or below the years or the units line
    years = [_year(t) for t in _tokens(lines[years_at])]
    units = _tokens(lines[units_at]) if units_at is not None else []
    columns = len(units) or None
    for count in filter(None, (columns, len(years))):
        if columns and count != columns:
            continue
        if count % len(years):
            continue
        headings = _headings(lines[at], count)
        per_heading = 1
        if headings is None:
            for groups in range(2, count):
                if count % groups == 0 and (headings := _headings(lines[at], groups)) is not None:
                    per_heading = count // groups
                    break
        if headings is None:
            continue
        by_column = [h for h in headings for _ in range(per_heading)]
        by_year = [y for y in years for _ in range(count // len(years))]
        asked = [i for i, h in enumerate(by_column) if _heads(name, h)]
        if not asked:
            continue
        shown = [i for i in (at, years_at, units_at) if i is not None]
        return asked, by_year, units or [""] * count, (min(shown), max(shown)), by_column
    return None


def _apart(lines: list[str], at: int, other: int) -> int:
    """How many lines two header lines are apart, a stub heading between them (项目, "Items") not counted."""
    between = lines[min(at, other) + 1: max(at, other)]
    return 1 + sum(1 for line in between if not _STUB.match(line.strip()))


def _grouped_row(lines: list[str], r: int, count: int, above: list[str]) -> tuple[str, list[str], int] | None:
    """(label, cells, the last line of the label) of an amounts line ``lines[r]`` printed with a shares line under
    it, the label's pieces gathered from the label lines ``above`` it, the amounts and shares lines' heads and the
    label lines between."""
    row = _row(lines[r], [], count)
    amounts = _AMOUNT_ROW.match(row[0]) if row else None
    if row is None or amounts is None:
        return None
    pieces, end = [*above, amounts["piece"]], r
    for below in lines[r + 1: r + 3]:
        share = _row(below, [], count)
        if share is not None or _NUMBERS.search(below):
            if share is not None and (m := _SHARE_ROW.match(share[0])) and m["piece"]:
                pieces.append(m["piece"])
                end += 1  # (the quote holds the label's last piece)
            break
        pieces.append(below.strip())
        end += 1
    label = re.sub(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff])", "", " ".join(p for p in pieces if p))
    return (label, row[1], end) if label else None


def _heads(name: re.Pattern, heading: str) -> bool:
    """Is the heading the part's name ("Service segment" for "service segment" or "service")?"""
    bare = " ".join(w for w in heading.split() if not _NOUNS.match(w))
    return any(name.fullmatch(h) for h in (heading, bare) if h)


def _adds_up(cells: list[str], by_column: list[str], by_year: list[int | None]) -> bool:
    """Where a year's columns end in a total column, the year's other cells add up to it."""
    for year in dict.fromkeys(by_year):
        cols = [i for i, y in enumerate(by_year) if y == year]
        if len(cols) > 1 and _TOTALS.match(by_column[cols[-1]].split()[-1]):
            if sum(_value(cells[i]) for i in cols[:-1]) != _value(cells[cols[-1]]):
                return False
    return True


def _read(text: str, name: re.Pattern, labels: list[str], years: set[int]) -> tuple[int, int, ColumnReading] | None:
    starts = [0]
    for m in re.finditer(r"\n", text):
        starts.append(m.end())
    lines = text.split("\n")
    for at, line in enumerate(lines):
        if not name.search(line) or _NUMBERS.search(re.sub(r"(?:19|20)\d\d", "", line)):
            continue
        layout = _layout(lines, at, name)
        if layout is None:
            continue
        asked, by_year, units, (top, last), by_column = layout
        heading_row = None  # a label line without cells (分类营业额, "Segment revenue"): the row under it is its figure
        above: list[str] = []  # the label lines since the last row with cells ("营 业" / "收 入")
        for r in range(last + 1, min(len(lines), last + 1 + ROW_LINES)):
            row = _row(lines[r], labels, len(by_column)) or (
                _row(lines[r], [], len(by_column)) if heading_row is not None else None)  # (any label under it)
            end = r
            if row is None and (grouped := _grouped_row(lines, r, len(by_column), above)) is not None:
                row, end = _row(f"{grouped[0]} {' '.join(grouped[1])}", labels, len(by_column)), grouped[2]
            if _NUMBERS.search(lines[r]):
                above = []
            elif lines[r].strip():
                above.append(lines[r].strip())
            if row is None:
                head = lines[r].strip().casefold().rstrip(":：")
                if not _CELL.search(head) and len(head) <= HEADING_ROW and _SEGMENT_WORD.search(head) and any(
                        head.endswith(x) for x in labels):
                    heading_row = lines[r].strip()
                continue
            if heading_row is not None and row[0][:1].islower():
                continue  # the rest of a label wrapped over two lines, not a row under a heading
            label, cells = row
            label = f"{heading_row} / {label}" if heading_row and not any(
                label.casefold().startswith(x) for x in labels) else label
            if not _adds_up(cells, by_column, by_year):
                return None
            hit = next((i for i in asked if by_year[i] in years), None)
            if hit is None:
                return None
            reading = ColumnReading(by_column[hit], by_year[hit], cells[hit], units[hit], label)
            return starts[top], starts[end] + len(lines[end]), reading
    return None


def part_column_span(text: str, name: re.Pattern, labels: list[str], years: set[int]) -> tuple[int, int] | None:
    """The span from a column table's headings line to the metric's row, when the part heads a column of an asked
    year and the table's shape holds; else None."""
    found = _read(text, name, labels, years) if years else None
    return found[:2] if found else None


def column_reading(text: str, name: re.Pattern, labels: list[str], years: set[int]) -> ColumnReading | None:
    """The part's cell read from such a table (what the quote's reader would read), or None."""
    found = _read(text, name, labels, years) if years else None
    return found[2] if found else None


def column_readings(plan: QueryPlan, passages: list[Passage]) -> list[str]:
    """What the answer's column-table quotes are read as, one line each ("Service segment, 2021, Segment results:
    257,629 HK$'000, read from the column the part heads"): the quote holds the whole table's header and row."""
    years = {p.fiscal_year for p in plan.periods if p.fiscal_year}
    out = []
    for qualifier, metric in plan.non_gaap:
        if not is_part(qualifier):
            continue
        own, other = part_names(qualifier)
        for p in passages:
            text = simplified_in_place(p.text)
            for name in dict.fromkeys([*own, *other]):
                r = column_reading(text, flexible(name), labels_of(metric), years)
                if r is not None:
                    line = (f"read from the column the part heads: {r.heading}, {r.year}, {r.row}: {r.figure}"
                            f"{' ' + r.unit if r.unit else ''} [{p.source.get('doc_name')} p{p.source.get('page')}]")
                    out.append(line)
                    break
    return list(dict.fromkeys(out))
