"""Resource limits: every bound the project puts on what it reads and on the work it does for one request.

Each limit is a named :class:`Limit` with its reason and how its value was chosen. Where an operator may
need another value, an environment variable overrides it; the variable is read when the limit is used,
so a worker process or a test sees the value of its own environment. An exceeded limit is one line that
names the file (or the statement) and the limit: :meth:`Limit.exceeded` builds the ``ParseError`` for a
file, :meth:`Limit.describe` the words for any other message.

``python -m schema.limits`` prints every limit with its value.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from schema.errors import ConfigError, LimitExceeded

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?i?b?)?\s*$", re.I)
_FACTORS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


@dataclass(frozen=True)
class Limit:
    name: str
    default: int
    unit: str  # bytes, characters, pixels, seconds, rows, pages, facts, dpi, hits
    what: str  # what one unit of the limit counts: "per PDF page", "per document"
    env: str | None = None  # environment variable that overrides the default
    reason: str = ""

    def value(self) -> int:
        """The limit in force: the environment's value when set (sizes may say 512M, 4GiB), else the default."""
        raw = os.environ.get(self.env) if self.env else None
        if raw is None or not raw.strip():
            return self.default
        m = _SIZE.match(raw)
        factor = _FACTORS.get((m.group(2) or "").lower().rstrip("b").rstrip("i")) if m else None
        if m is None or factor is None or (factor != 1 and self.unit != "bytes"):
            raise ConfigError(f"{self.env}={raw!r} is not a valid {self.unit} count for the {self.name} limit")
        value = int(float(m.group(1)) * factor)
        if value <= 0:
            raise ConfigError(f"{self.env}={raw!r}: the {self.name} limit must be positive")
        return value

    def describe(self, value: int | None = None) -> str:
        """'the limit of 20,000 characters per PDF page (FILINGS_MAX_PDF_PAGE_CHARS)'."""
        v = self.value() if value is None else value
        amount = _bytes(v) if self.unit == "bytes" else f"{v:,} {self.unit}"
        where = f" ({self.env})" if self.env else ""
        return f"the limit of {amount} {self.what}{where}"

    def exceeded(self, path: str, found: str) -> LimitExceeded:
        """The error for a file over this limit: 'PATH: FOUND, over the limit of ... (ENV)'."""
        return LimitExceeded(str(path), f"{found}, over {self.describe()}")


def _bytes(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return human_bytes(n)


def human_bytes(n: int) -> str:
    """A byte count for a message: '184.0 KiB', '6.2 MiB'."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:,} bytes"


# ------------------------------------------------------------------------------------------ file sizes
PDF_BYTES = Limit(
    "pdf_bytes", 512 << 20, "bytes", "per PDF file", "FILINGS_MAX_PDF_BYTES",
    "the largest annual reports here are ~4 MiB (FinanceBench 10-Ks up to ~11 MiB); real scanned reports reach "
    "~200 MiB: 512 MiB leaves room and stops a disk-filling file before pdfium maps it")
XBRL_BYTES = Limit(
    "xbrl_bytes", 256 << 20, "bytes", "per XBRL / iXBRL file", "FILINGS_MAX_XBRL_BYTES",
    "the corpus iXBRL 10-Ks are 0.9-2.3 MiB; the largest SEC primary documents are ~50 MiB; arelle holds the whole "
    "document tree in memory (~60x the file size)")
TRANSCRIPT_BYTES = Limit(
    "transcript_bytes", 32 << 20, "bytes", "per transcript file", "FILINGS_MAX_TRANSCRIPT_BYTES",
    "a two-hour call is ~100 KiB of text; 32 MiB keeps a 10 MiB scaling bench possible and bounds the JSON tree")
COMPANYFACTS_BYTES = Limit(
    "companyfacts_bytes", 64 << 20, "bytes", "per SEC companyfacts JSON file", "FILINGS_MAX_COMPANYFACTS_BYTES",
    "the corpus files are 0.3-3.9 MiB (Apple's 24,579 values in 3.5 MiB, ~150 bytes a value), so the facts limit is "
    "reached near 15 MiB; the whole JSON tree is held in memory (measured: 22 MiB peak for Nvidia's 3.9 MiB)")
MANIFEST_BYTES = Limit(
    "manifest_bytes", 16 << 20, "bytes", "per documents.jsonl", "FILINGS_MAX_MANIFEST_BYTES",
    "FinanceBench's manifest for 368 documents is ~60 KiB; a manifest is read whole into memory")

# ----------------------------------------------------------------------------------- text and counts
PDF_PAGE_CHARS = Limit(
    "pdf_page_chars", 20_000, "characters", "per PDF page", "FILINGS_MAX_PDF_PAGE_CHARS",
    "real report pages are 1-6k characters (dense bilingual statements ~9k); longer text is a hidden-text dump")
PDF_TEXT_LAYER_CHARS = Limit(
    "pdf_text_layer_chars", 200_000, "characters", "read from one PDF page's text layer",
    "FILINGS_MAX_PDF_TEXT_LAYER_CHARS",
    "ten times the page cap: characters past it are not read at all, so a page with millions of glyphs costs "
    "no more than a dense real page")
PDF_PAGES = Limit(
    "pdf_pages", 10_000, "pages", "per PDF", "FILINGS_MAX_PDF_PAGES",
    "the longest reports here have ~500 pages (FinanceBench 10-Ks up to ~400); a page tree of a million shared "
    "pages is a few KiB of PDF")
HTML_PAGE_CHARS = Limit(
    "html_page_chars", 50_000, "characters", "per iXBRL page", "FILINGS_MAX_HTML_PAGE_CHARS",
    "corpus iXBRL pages (split at CSS page breaks) are at most 7.6k characters; a filing without page breaks "
    "would otherwise be one multi-million-character page")
TRANSCRIPT_TURN_CHARS = Limit(
    "transcript_turn_chars", 100_000, "characters", "per transcript turn", "FILINGS_MAX_TRANSCRIPT_TURN_CHARS",
    "the longest speaker turn in the corpus calls is 25k characters (a CEO's prepared remarks)")
DOCUMENT_FACTS = Limit(
    "document_facts", 100_000, "facts", "per document", "FILINGS_MAX_FACTS",
    "corpus 10-Ks carry 1-3k facts and the largest SEC filings ~30k; every fact becomes a warehouse row")

# --------------------------------------------------------------------------------------------- OCR
OCR_RENDER_PIXELS = Limit(
    "ocr_render_pixels", 8_000_000, "pixels", "per OCR page render", "FILINGS_MAX_OCR_PIXELS",
    "an A4 page at the OCR's 170 dpi is 2.8 Mpx and A3 5.6 Mpx (1.1 GB peak RSS in rapidocr, measured); larger "
    "pages are rendered at a lower resolution so that the render stays under this many pixels")
OCR_MIN_DPI = Limit(
    "ocr_min_dpi", 50, "dpi", "for an OCR render", "FILINGS_MIN_OCR_DPI",
    "below ~50 dpi body text is under 8 px high and not readable by OCR: a page that would need a lower "
    "resolution to fit the pixel limit (e.g. a 14,400 x 14,400 pt page) is not OCR'd at all")
IMAGE_PIXELS = Limit(
    "image_pixels", 150_000_000, "pixels", "per image on a page sent to OCR", "FILINGS_MAX_IMAGE_PIXELS",
    "a 600 dpi A3 scan is 70 Mpx; pdfium decodes an image whole before scaling it, so a page showing a larger "
    "image is not rendered")

# ------------------------------------------------------------------------------------------ parsing
PARSE_MEMORY_BYTES = Limit(
    "parse_memory_bytes", 4 << 30, "bytes", "of address space per parsing process", "FILINGS_PARSE_MEMORY",
    "measured peaks: a 2.3 MiB iXBRL 10-K 0.25 GiB, a 400-page PDF 0.07 GiB, an OCR'd A3 page 1.9 GiB of "
    "address space (rapidocr + onnxruntime); a parse over this limit fails that file only")
PARSE_SECONDS = Limit(
    "parse_seconds", 3600, "seconds", "per document parse", "FILINGS_PARSE_TIMEOUT",
    "the slowest real case is a fully scanned 500-page report at ~3-6 s per OCR'd page; a parse still running "
    "after an hour is stopped and that file fails")

# ------------------------------------------------------------------------------------------- SQL
SQL_SECONDS = Limit(
    "sql_seconds", 30, "seconds", "per SQL statement", "FILINGS_SQL_TIMEOUT",
    "warehouse queries over the whole corpus take well under a second; an unbounded recursive CTE or a cross "
    "join of the largest tables is interrupted at this point")
SQL_DISPLAY_ROWS = Limit(
    "sql_display_rows", 1_000, "rows", "shown by `filings sql`", "FILINGS_SQL_DISPLAY_ROWS",
    "a terminal table of more rows is not read by anyone; only this many (plus one, to know there are more) "
    "are fetched")
SQL_MAX_ROWS = Limit(
    "sql_max_rows", 100_000, "rows", "fetched by one statement for --json, the facade, viewer and MCP",
    "FILINGS_SQL_MAX_ROWS",
    "the whole corpus has ~16k metric rows and ~15k pages; more rows than this are cut, with a note")
SQL_MEMORY_BYTES = Limit(
    "sql_memory_bytes", 1 << 30, "bytes", "of DuckDB memory on a read connection", "FILINGS_SQL_MEMORY",
    "the warehouse of the whole corpus is ~0.3 GiB on disk; joins and sorts over it need far less; nothing "
    "spills to disk on a read connection")
SQL_CHARS = Limit(
    "sql_chars", 100_000, "characters", "per SQL statement", None,
    "a hand-written analyst query is well under 10k characters; the parsers' work grows with the text")

# ------------------------------------------------------------------------------------------ search
SEARCH_K = Limit(
    "search_k", 200, "hits", "per search", None,
    "ten pages of a terminal; the search pipeline fetches 3 x k candidates per list")

# --------------------------------------------------------------------------------------- manifests
MANIFEST_FIELD_CHARS = Limit(
    "manifest_field_chars", 300, "characters", "per manifest field", None,
    "the longest company name in SEC's ticker file is under 150 characters; longer values are ignored")

ALL: tuple[Limit, ...] = tuple(v for v in globals().values() if isinstance(v, Limit))


def table() -> list[dict]:
    """Every limit with its value in force: name, value, unit, environment variable, reason."""
    return [{"name": lim.name, "value": lim.value(), "unit": lim.unit, "what": lim.what, "env": lim.env,
             "reason": lim.reason} for lim in ALL]


if __name__ == "__main__":  # pragma: no cover - a listing for people
    for row in table():
        amount = _bytes(row["value"]) if row["unit"] == "bytes" else f"{row['value']:,} {row['unit']}"
        print(f"{row['name']:<24} {amount:>16}  {row['what']}" + (f"  [{row['env']}]" if row["env"] else ""))
