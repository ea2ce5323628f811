"""Hong Kong annual reports / results announcements: printed statement rows -> raw facts.

``extract(pages, info)`` is a pure function over page texts (one line per text row, cells joined by
single spaces; bilingual pages carry English and Traditional Chinese on the same row). It finds the
consolidated statement of profit or loss (and other comprehensive income), of financial position and
of cash flows, the company-level statement of financial position in the notes (``consolidated=False``)
and the simple five-year / financial summary (``statement="key_figures"``), and emits one
:class:`Fact` per printed value.

How a row is read:

* the values are the last numeric tokens of the line (``1,234``, ``(1,234)``, ``–``/``—`` for blank,
  ``HK(8.55) cents``, ``25.0 HK cents``); how many is set by the column header (``2021 2020``,
  ``31/12/2020 31/12/2019 1/1/2019``, ``二零二五年 二零二四年``); a row with fewer values is text;
* what remains is the label, with a trailing note reference (``5``, ``6(a)``, ``5,6``, ``3.1``, ``a``)
  removed; on bilingual rows the English part (before the first CJK character) is the label, the
  Chinese part is dropped; a Chinese-only report keeps the Chinese label;
* English labels wrapped over several lines are joined (a line starting in lower case, or following
  a line that ends in a connector such as "of", "and", "through" or a comma, or two all-capital lines);
  a lower-case line right after a value row is the tail of that row's label;
* a line without values that is not joined becomes the current heading. Rows whose label depends on
  it ("Owners of the Company", "Non-controlling interests", "Basic", "Diluted", "－來自持續經營業務")
  get the heading in front ("Profit for the year attributable to Owners of the Company",
  "Loss per share Basic"); an unlabelled subtotal right under a heading takes the heading as its label
  ("Current assets" for the total of the current assets block; "Revenue" for 0717's revenue total);
  further unlabelled subtotals keep ``label=None``.

Money values are scaled to base units from the statement's unit line (``HK$'000``, ``RMB'000``,
``S$'000``, ``千港元``, ``HK$``, ``HK$ million``); per-share rows are not scaled and cents are divided by
100 (``original_unit`` keeps "HK cents"). Each column becomes a period from the fiscal year end month:
year ``2021`` of a September year end is 2020-10-01..2021-09-30 (durations) or 2021-09-30 (instants).

The block's columns, unit and headings are kept in ``parsers.hk_statement_block`` and a value row becomes
facts in ``parsers.hk_statement_facts``; this module reads the lines: headers, units, labels and values.
Shared with the other markets' readers: cells of a line (``statement_lines``), column headers
(``statement_columns``), unit lines (``statement_units``), titled blocks over pages (``statement_tables``).
"""

from __future__ import annotations

import re

from mappings.statement_tables import hk_rows
from parsers.hk_statement_block import PER_SHARE, BlockState, YearEnd
from parsers.hk_statement_facts import row_facts
from parsers.statement_columns import hk_header_columns
from parsers.statement_lines import CJK, hk_values_from_right, split_languages, strip_hk_note
from parsers.statement_reads import ReadLog, StatementResult
from parsers.statement_tables import NOISE_LINE, TitledBlock, compact_text, find_titled_blocks, title_kind
from parsers.statement_units import hk_unit_line
from schema.models import DocumentInfo, Fact, Page

PARSER_VERSION = "hk_statements/1"


# ------------------------------------------------------------------------------------------- labels

_ROWS = hk_rows()  # mappings/statement_tables.yaml `hk_rows`: label joining and statement ends

_CONNECTOR_END = _ROWS.connector_end
_DEPENDENT = _ROWS.dependent
_DASH_START = re.compile(r"^[–—\-－−]")
_EPS_ROW = re.compile(r"^(?:[–—\-－−]\s*)?(?:basic|diluted|基本|攤薄)", re.IGNORECASE)


def _starts_lower(text: str) -> bool:
    return bool(text) and text[0].islower()


def _is_caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha() and c.isascii()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def _joins(prev: str, nxt: str) -> bool:
    """Is ``nxt`` the continuation of the label fragment ``prev``?"""
    if _starts_lower(nxt):
        return True
    if _CONNECTOR_END.search(prev.rstrip()):
        return True
    return _is_caps(prev) and _is_caps(nxt)


_FOOTER = _ROWS.footer
_END = _ROWS.statement_end
_PERIOD_LINE = _ROWS.period_line


# ------------------------------------------------------------------------------------------ reader


class _Reader:
    def __init__(self, info: DocumentInfo):
        self.info = info
        self.year_end = YearEnd.of(info)
        lang = (info.language or "").casefold()
        self.zh_only = lang.startswith("zh") and "en" not in lang
        self.facts: list[Fact] = []

    # ----- one statement
    def read_block(self, block: TitledBlock, pages: list[Page]) -> None:
        st = BlockState(block)
        for seg_no, (pi, start) in enumerate(block.segments):
            page = pages[pi]
            lines = page.text.split("\n")
            st.new_page()
            for li in range(start, len(lines)):
                if not self._line(st, page.page, li + 1, lines[li].strip(), seg_no == 0 and li == start):
                    break

    def _label_parts(self, text: str) -> str:
        en, zh = split_languages(text)
        if self.zh_only:
            return (en + zh).strip() if not en or CJK.search(text) else en
        return en

    def _line(self, st: BlockState, page_no: int, row: int, line: str, first: bool) -> bool:
        """Consume one line; False ends the page segment."""
        if not line or NOISE_LINE.match(line):
            return True
        if _FOOTER.search(compact_text(line)) and len(line) < 90:
            return True
        if st.in_header:
            if title_kind(line):
                return True
        if _END.search(line):
            return False
        cols = hk_header_columns(line)
        if cols:
            st.set_columns(cols, self.year_end)
            st.pending, st.heading, st.heading_used, st.last_row = [], None, True, None
            st.in_header = False
            st.after_header = True
            return True
        unit = hk_unit_line(line)
        if unit:
            if not st.unit_on_page:  # "HK$'000" then "千港元": keep the first (English) spelling
                st.unit, st.unit_on_page = unit, True
            return True
        if st.in_header or st.columns is None:
            if not _PERIOD_LINE.match(line) and not title_kind(line):
                st.superheader.append(line)
            return True
        if st.statement == "key_figures":
            self._key_section(st, line)
        if st.after_header and (_PERIOD_LINE.match(line) or re.fullmatch(r"[^\d]*(?:止年度|九月三十日|三月三十一日)+[^\d]*", line)):
            return True  # period captions between column header lines
        vals = hk_values_from_right(line)
        n = len(st.columns)
        counts = sorted({n, len(st.year_groups)}, reverse=True)
        use = next((c for c in counts if len(vals) >= c), None)
        if use is None:
            self._text(st, line)
            return True
        st.after_header = False
        label_text = line[: vals[-use][1]].strip()
        self._row(st, page_no, row, strip_hk_note(label_text), [v for v, _ in vals[-use:]])
        return True

    # ----- text lines (no values)
    def _text(self, st: BlockState, line: str) -> None:
        text = self._label_parts(strip_hk_note(line))
        if not text:  # a Chinese-only wrap line on a bilingual page
            return
        st.after_header = False
        if not st.pending and st.last_row and _starts_lower(text):
            for f in st.last_row:
                f.label = f"{f.label} {text}".strip() if f.label else text
            st.last_label = st.last_row[0].label
            return
        st.last_row = None
        if st.pending and _joins(st.pending[-1], text):
            st.pending.append(text)
        else:
            if st.pending:
                st.set_heading(" ".join(st.pending))
            st.pending = [text]
        if PER_SHARE.search(text):
            st.per_share_heading = " ".join(st.pending)

    def _key_section(self, st: BlockState, line: str) -> None:
        low = line.casefold()
        if re.search(r"results|業績|year ended|止年度", low) and not re.search(r"assets|資產", low):
            st.key_kind = "duration"
        elif re.search(r"assets|liabilities|financial position|資產|負債|as at|^at ", low):
            st.key_kind = "instant"

    # ----- value rows
    def _row(self, st: BlockState, page_no: int, row: int, label_text: str, tokens: list[str]) -> None:
        text = self._label_parts(label_text)
        dependent = False
        if not text:
            if st.pending:
                label = " ".join(st.pending)
            elif st.heading and not st.heading_used:
                label = st.heading
                st.heading_used = True
            else:
                label = None
        elif _DASH_START.match(text) or (_DEPENDENT.match(text) and not PER_SHARE.search(text)):
            if st.pending:
                st.set_heading(" ".join(st.pending))
            label, dependent = text, _depends_on(text, st.heading, st.per_share_heading)
        elif st.pending and _joins(st.pending[-1], text):
            label = " ".join(st.pending + [text])
        else:
            if st.pending:
                st.set_heading(" ".join(st.pending))
            label = text
        st.pending = []
        if label and st.heading and compact_text(label) == compact_text(st.heading):
            st.heading_used = True  # the heading's own total row
        if dependent and st.heading:
            parent = st.heading.rstrip(":：").strip()
            if _EPS_ROW.match(text) and st.per_share_heading and st.per_share_heading != st.heading:
                parent = f"{st.per_share_heading.rstrip(':：').strip()} {parent}"
            label = f"{parent} {text}"
        if label and PER_SHARE.search(label) and not _EPS_ROW.match(text or ""):
            st.per_share_heading = None if not PER_SHARE.search(st.heading or "") else st.per_share_heading
        per_share = bool(label and (PER_SHARE.search(label) or (dependent and _EPS_ROW.match(text))))
        self._emit(st, page_no, row, label, tokens, per_share)

    def _emit(self, st: BlockState, page_no: int, row: int, label: str | None, tokens: list[str], per_share: bool) -> None:
        made = row_facts(self.info, self.year_end, st, page_no, row, label, tokens, per_share)
        if made is None:  # no unit line (the scale is not guessed): no row for a label tail to join
            st.last_row, st.last_label = None, None
            return
        self.facts.extend(made)
        st.last_row = made or None
        st.last_label = label


def _depends_on(text: str, heading: str | None, per_share_heading: str | None) -> bool:
    """Does a row label only make sense with its heading in front?"""
    if not heading:
        return False
    if _DASH_START.match(text):
        return True
    if _EPS_ROW.match(text):
        return bool(PER_SHARE.search(heading) or per_share_heading)
    if re.search(r"non-controlling|非控股", text, re.IGNORECASE) and re.search(r"owners?|擁有人", heading, re.IGNORECASE):
        return False  # "Capital and reserves attributable to owners" does not head the NCI row
    return bool(re.search(r"attributable|應佔", heading, re.IGNORECASE))


def statement_pages(pages: list[Page]) -> dict[str, list[int]]:
    """statement kind ("income", "balance", "cashflow", "key_figures", "company_balance") -> 1-based
    pages where it was found (for reports and tests)."""
    out: dict[str, list[int]] = {}
    for b in find_titled_blocks(pages):
        key = b.statement if b.consolidated else f"company_{b.statement}"
        out.setdefault(key, []).extend(pages[pi].page for pi, _ in b.segments)
    return out


def extract(pages: list[Page], info: DocumentInfo) -> list[Fact]:
    """Every printed row of the HK statements as facts (base units, exact decimals, page-cited).

    Returns [] for documents that carry no company metrics (ETF fund statements, MD&A extracts)."""
    return read(pages, info).facts


def read(pages: list[Page], info: DocumentInfo) -> StatementResult:
    """Facts, and the record of which statements were found on which pages and which could not be read."""
    log = ReadLog.for_pages(pages)
    if not info.company_metrics or info.form in ("fund_fs", "mda_extract"):
        return StatementResult([], [])
    reader = _Reader(info)
    for block in find_titled_blocks(pages):
        before = len(reader.facts)
        reader.read_block(block, pages)
        made = reader.facts[before:]
        rows = len({f.locator.rsplit(" c", 1)[0] for f in made if f.locator})
        block_pages = [pages[pi].page for pi, _ in block.segments]
        reason = "" if made else "no value rows under a column header with a unit line (HK$'000, RMB'000 ...)"
        log.attempt(block.statement, block.consolidated, block_pages, rows, reason)
    return StatementResult(reader.facts, log.records())
