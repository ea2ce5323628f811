"""A statement row asked by its Chinese label where the warehouse stored its English one: a bilingual HK statement
prints both on the row ("Accounts receivable 應收賬款 23 1,391,469 4,338,635"), or the Chinese label on the line
under a long English one ("Other debtors, deposits and prepayments 9,107 6,933" / "其他應收賬款、按金及預付款項"), and
the parser keeps the English label. The page says which English label a Chinese one stands beside; nothing is
translated."""

from __future__ import annotations

import re

import duckdb

from mappings.metrics import CJK
from mappings.vocabulary import fold, simplified_in_place


def _cell(label: str) -> re.Pattern:
    """The Chinese label as a whole cell of a row: after a space or the line's start, before a space, a figure or
    the line's end (应收账款 is not the tail of 其他应收账款)."""
    return re.compile(r"(?:^|(?<=\s))" + re.escape(label) + r"(?=\s|\d|$)")


def labels_printed_beside(con: duckdb.DuckDBPyConnection, company_id: str, labels: list[str],
                          statements: tuple[str, ...]) -> list[str]:
    """The English labels of the company's stored statement rows that their pages print beside one of the Chinese
    ``labels``, on the same line or with the Chinese label alone on the next line."""
    cells = [_cell(fold(w)) for w in labels if CJK.search(w)]
    if not cells:
        return []
    rows = con.execute(
        "SELECT DISTINCT f.document_id, f.page, f.label, p.text FROM facts f JOIN documents d USING (document_id) "
        "JOIN pages p ON p.document_id = f.document_id AND p.page = f.page WHERE d.company_id = ? AND "
        "f.statement IN (SELECT unnest(?)) AND f.label IS NOT NULL", [company_id, list(statements)]).fetchall()
    pages: dict[tuple, tuple[str, set[str]]] = {}
    for doc, page, label, text in rows:
        pages.setdefault((doc, page), (text or "", set()))[1].add(label)
    found: list[str] = []
    for text, english in pages.values():
        lines = simplified_in_place(text).split("\n")
        for i, line in enumerate(lines):
            for cell in cells:
                m = cell.search(line)
                if m is None:
                    continue
                head = line[: m.start()].strip() or (lines[i - 1] if i and not line[m.end():].strip(" \t0-9,.()-–") else "")
                head = re.sub(r"(?:\s+[\d,.()\-–]+)+$", "", head).strip().casefold()  # its figures and note off
                found += [w for w in english if head == w.casefold().strip() and w not in found]
    return found
