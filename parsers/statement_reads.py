"""The per-document record of which primary statements a PDF parser found, on which pages, and which it could
not read and why (``schema.models.StatementRead``). Every market's reader reports through one ``ReadLog``."""

from __future__ import annotations

from dataclasses import dataclass, field

from schema.models import Fact, Page, StatementRead

PRIMARY = ("income", "balance", "cashflow")
MIN_ROWS = 3  # a statement with fewer value rows read than this is "unreadable" (a real one prints dozens)


@dataclass
class StatementResult:
    """What a market reader returns: the facts and the read record."""

    facts: list[Fact]
    reads: list[StatementRead]


@dataclass
class ReadLog:
    """Attempts per (statement, consolidated): pages tried, rows read, and the reason when nothing was."""

    pages_ocr: set[int] = field(default_factory=set)
    _tries: dict[tuple[str, bool], StatementRead] = field(default_factory=dict)

    @classmethod
    def for_pages(cls, pages: list[Page]) -> "ReadLog":
        return cls(pages_ocr={p.page for p in pages if p.ocr})

    def attempt(self, statement: str, consolidated: bool, pages: list[int], rows: int, reason: str = "") -> None:
        """Record one attempt; a read attempt replaces an earlier failed one, never the other way round."""
        if statement not in PRIMARY:
            return
        key = (statement, consolidated)
        old = self._tries.get(key)
        if old is not None and old.status == "read":
            if rows >= MIN_ROWS:
                old.rows += rows
                old.pages = sorted(set(old.pages) | set(pages))
            return
        if rows >= MIN_ROWS:
            rec = StatementRead(statement=statement, consolidated=consolidated, status="read", page=min(pages),
                                pages=sorted(set(pages)), rows=rows)
        else:
            why = reason or f"{rows} value rows matched the printed columns (a statement needs {MIN_ROWS})"
            if self.pages_ocr & set(pages):
                why = f"OCR text: {why}"
            rec = StatementRead(statement=statement, consolidated=consolidated, status="unreadable",
                                page=min(pages) if pages else None, pages=sorted(set(pages)), rows=rows, reason=why)
        self._tries[key] = rec

    def records(self) -> list[StatementRead]:
        """Every attempt, plus a ``not_found`` record for each consolidated primary statement never seen."""
        out = list(self._tries.values())
        for st in PRIMARY:
            if (st, True) not in self._tries:
                out.append(StatementRead(statement=st, consolidated=True, status="not_found",
                                         reason="no title of this statement in the page text"))
        order = {s: i for i, s in enumerate(PRIMARY)}
        return sorted(out, key=lambda r: (not r.consolidated, order[r.statement]))


def warnings_of(reads: list[StatementRead]) -> list[str]:
    """One warning line per statement found but not read."""
    return [f"{r.statement} statement{'' if r.consolidated else ' (parent company)'} on page {r.page} not read: {r.reason}"
            for r in reads if r.status == "unreadable"]
