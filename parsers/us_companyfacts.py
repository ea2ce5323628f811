"""SEC companyfacts JSON (``data.sec.gov/api/xbrl/companyfacts/CIK##########.json``) -> ParsedDocument.

A pure function module: ``parse(path)`` reads one file and returns a :class:`schema.models.ParsedDocument`.

The shape SEC serves::

    {"cik": 320193, "entityName": "Apple Inc.",
     "facts": {"us-gaap": {"Revenues": {"label": ..., "description": ...,
                                        "units": {"USD": [{"start", "end", "val", "accn", "fy", "fp",
                                                           "form", "filed", "frame"}, ...]}}}}}

Every entry is one value as one filing tagged it: a period appears once per filing that printed it (its own
10-K / 10-Q and later ones as comparatives). Each entry becomes one :class:`Fact` (concept ``taxonomy:name``,
exact ``Decimal`` value, unit as SEC names it, period), and its ``locator`` names the filing it came from::

    SEC companyfacts, from 10-K filed 2025-10-31 (accession 0000320193-25-000079; fy 2025 FY; frame CY2025) #1234

(:func:`source_of` reads it back). The document has no pages: it is a database of filed figures, not a report.
Its fiscal year and period are those of the latest annual report in the data (a 10-K / 20-F / 40-F). Two facts
are added for that report only: ``dei:DocumentFiscalYearFocus`` / ``dei:DocumentFiscalPeriodFocus`` from its
``fy`` / ``fp`` fields (SEC's copy of the filing's own cover tags), so that the company's own fiscal-year names
are known when no filing of it is in the warehouse.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from schema import limits
from schema.errors import ParseError
from schema.fiscal import fiscal_year_of, nominal_end
from schema.models import DocumentInfo, Fact, IssuerName, ParsedDocument

PARSER = "us_companyfacts/1"
FORM = "companyfacts"  # documents.form of a companyfacts file
SNIFF_BYTES = 4096
# The three top-level keys that make a JSON object companyfacts (SEC writes them first, in this order).
_SHAPE = (re.compile(rb'"cik"\s*:'), re.compile(rb'"entityName"\s*:'), re.compile(rb'"facts"\s*:\s*\{'))
# Forms whose figures are a company's annual report: the latest one gives the document its fiscal year.
ANNUAL_FORMS = ("10-K", "10-KT", "20-F", "40-F")
_LOCATOR = re.compile(
    r"^SEC companyfacts, from (?P<form>.+?) filed (?P<filed>\d{4}-\d{2}-\d{2}) \(accession (?P<accn>[\w-]+)"
    r"(?:; fy (?P<fy>\d{4}) (?P<fp>\w+))?(?:; frame (?P<frame>\w+))?\) #(?P<n>\w+)$")


@dataclass(frozen=True)
class SourceFiling:
    """The filing a companyfacts value was tagged in."""

    accn: str
    form: str
    filed: dt.date
    fy: int | None = None
    fp: str | None = None

    def citation(self) -> str:
        return f"SEC companyfacts, from {self.form} filed {self.filed} (accession {self.accn})"


def locator(src: SourceFiling, frame: str | None, n: int | str) -> str:
    fy = f"; fy {src.fy} {src.fp}" if src.fy is not None and src.fp else ""
    return f"{src.citation()[:-1]}{fy}{f'; frame {frame}' if frame else ''}) #{n}"


def source_of(loc: str | None) -> SourceFiling | None:
    """The filing a companyfacts fact's locator names (None for any other locator)."""
    m = _LOCATOR.match(loc or "")
    if m is None:
        return None
    return SourceFiling(m["accn"], m["form"], dt.date.fromisoformat(m["filed"]),
                        int(m["fy"]) if m["fy"] else None, m["fp"])


def is_companyfacts(path: str | Path) -> bool:
    """Cheap sniff: a JSON object whose first keys are SEC companyfacts' cik, entityName and facts."""
    try:
        with Path(path).open("rb") as fh:
            head = fh.read(SNIFF_BYTES)
    except OSError:
        return False
    head = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"{") and all(rx.search(head) for rx in _SHAPE)


# ------------------------------------------------------------------------------------------- reading


class _Bad(Exception):
    """A malformed part of the file: becomes one ParseError naming the file and the place."""


def _date(entry: dict, key: str, where: str, required: bool = True) -> dt.date | None:
    raw = entry.get(key)
    if raw is None and not required:
        return None
    if not isinstance(raw, str):
        raise _Bad(f"{where}: {key!r} is {_kind(raw)}, expected a date string (YYYY-MM-DD)")
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise _Bad(f"{where}: {key!r} is {raw[:40]!r}, not a date (YYYY-MM-DD)") from None


def _text(entry: dict, key: str, where: str, required: bool = True) -> str | None:
    raw = entry.get(key)
    if raw is None and not required:
        return None
    if not isinstance(raw, str) or not raw.strip():
        raise _Bad(f"{where}: {key!r} is {_kind(raw)}, expected a non-empty string")
    return raw.strip()


def _kind(value) -> str:
    if value is None:
        return "missing or null"
    return f"a {type(value).__name__} ({str(value)[:40]!r})"


def _value(entry: dict, where: str) -> Decimal:
    raw = entry.get("val")
    if isinstance(raw, bool) or not isinstance(raw, (int, Decimal)):
        raise _Bad(f"{where}: 'val' is {_kind(raw)}, expected a number")
    value = Decimal(raw)
    if not value.is_finite():
        raise _Bad(f"{where}: 'val' is {raw}, not a finite number")
    return value


def _object(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise _Bad(f"{where} is {_kind(value)}, expected an object")
    return value


def _load(path: Path) -> dict:
    try:
        data = json.loads(path.read_bytes().decode("utf-8-sig"), parse_float=Decimal)
    except UnicodeDecodeError as exc:
        raise ParseError(str(path), f"SEC companyfacts JSON is not UTF-8 text ({exc.reason} at byte {exc.start})") \
            from None
    except json.JSONDecodeError as exc:
        raise ParseError(str(path), f"SEC companyfacts JSON is not valid (truncated or corrupt): {exc.msg} at line "
                                    f"{exc.lineno} column {exc.colno}") from None
    return data


def _entries(data: dict):
    """(concept, label, unit, entry, where) for every value, checked for shape on the way."""
    facts = _object(data.get("facts"), "'facts'")
    for taxonomy, concepts in facts.items():
        for name, body in _object(concepts, f"'facts.{taxonomy}'").items():
            body = _object(body, f"{taxonomy}:{name}")
            label = body.get("label")
            units = _object(body.get("units"), f"{taxonomy}:{name} 'units'")
            for unit, entries in units.items():
                if not isinstance(entries, list):
                    raise _Bad(f"{taxonomy}:{name} [{unit}] is {_kind(entries)}, expected a list of values")
                for i, entry in enumerate(entries):
                    where = f"{taxonomy}:{name} [{unit}] value {i + 1}"
                    yield f"{taxonomy}:{name}", label if isinstance(label, str) and label.strip() else None, unit, \
                        _object(entry, where), where


def _fact(concept: str, label: str | None, unit: str, entry: dict, where: str, n: int,
          sources: dict[tuple, SourceFiling]) -> Fact:
    end = _date(entry, "end", where)
    start = _date(entry, "start", where, required=False)
    if start is not None and start > end:
        raise _Bad(f"{where}: starts {start} after it ends {end}")
    value = _value(entry, where)
    fy = entry.get("fy")
    if fy is not None and (isinstance(fy, bool) or not isinstance(fy, int)):
        raise _Bad(f"{where}: 'fy' is {_kind(fy)}, expected a year or null")
    key = (_text(entry, "accn", where), _text(entry, "form", where), _date(entry, "filed", where), fy,
           _text(entry, "fp", where, required=False))
    src = sources.get(key)
    if src is None:
        src = sources[key] = SourceFiling(*key)
    return Fact(concept=concept, label=label, value=value, value_text=format(value, "f"), unit=unit,
                period_start=start, period_end=end, period_type="duration" if start else "instant",
                locator=locator(src, _text(entry, "frame", where, required=False), n))


def filing_period_end(facts: list[Fact], filed: dt.date) -> dt.date | None:
    """The period a filing reports on, from the values it tagged: the latest end of a duration it reports (a
    filing also tags outlook periods and subsequent events that end after it was filed: not its own period),
    else of an instant; cover (dei) facts are left out (shares outstanding at the cover date)."""
    own = [f for f in facts if f.period_end and f.period_end <= filed and not (f.concept or "").startswith("dei:")]
    durations = [f.period_end for f in own if f.period_type == "duration"]
    ends = durations or [f.period_end for f in own]
    return max(ends) if ends else None


def _latest_annual(facts: list[Fact]) -> tuple[SourceFiling, dt.date] | None:
    by_filing: dict[SourceFiling, list[Fact]] = {}
    for f in facts:
        src = source_of(f.locator)
        if src is not None and src.form.split("/")[0] in ANNUAL_FORMS:
            by_filing.setdefault(src, []).append(f)
    best = None
    for src, group in by_filing.items():
        end = filing_period_end(group, src.filed)
        if end is not None and (best is None or (end, src.filed) > (best[1], best[0].filed)):
            best = (src, end)
    return best


def _listing(cik: str) -> tuple[str | None, str | None]:
    """(company_id, US listing code) of the CIK in the company master."""
    from mappings.companies import company_for_cik, master

    company = company_for_cik(cik)
    if company is None:
        return None, None
    codes = [s.stock_code for s in master()[1] if s.company_id == company.company_id and s.market == "US"]
    return company.company_id, (codes[0] if codes else None)


def _info(path: Path, cik: str, name: str, facts: list[Fact], warnings: list[str]) -> tuple[DocumentInfo, list[Fact]]:
    currencies: Counter[str] = Counter(f.unit for f in facts if f.unit and re.fullmatch(r"[A-Z]{3}", f.unit))
    taxonomies: Counter[str] = Counter((f.concept or "").split(":", 1)[0] for f in facts)
    standard = "IFRS" if taxonomies["ifrs-full"] > taxonomies["us-gaap"] else "US_GAAP"
    company_id, code = _listing(cik)
    if code is None:
        warnings.append(f"CIK {cik} ({name}) has no US listing in the company master (mappings/companies.yaml): "
                        "its figures are stored as facts, not as metrics of a listing")
    info = DocumentInfo(file_name=path.name, market="US", company_name=name, company_id=company_id, stock_code=code,
                        cik=cik, form=FORM, language="en", currency=currencies.most_common(1)[0][0] if currencies else None,
                        accounting_standard=standard, pages=0,
                        names=[IssuerName(kind="name_en", text=name), IssuerName(kind="cik", text=cik)])
    extra: list[Fact] = []
    latest = _latest_annual(facts)
    if latest is None:
        warnings.append("no annual report (10-K, 20-F, 40-F) in the data: fiscal year and period unknown")
        return info, extra
    src, end = latest
    info.fiscal_period, info.period_end = "FY", end
    info.fiscal_year, info.fiscal_year_end_month = fiscal_year_of(end), nominal_end(end).month
    if src.fy is not None and src.fp:
        for concept, text in (("dei:DocumentFiscalYearFocus", str(src.fy)), ("dei:DocumentFiscalPeriodFocus", src.fp)):
            extra.append(Fact(concept=concept, label=f"{src.form} filed {src.filed}: SEC's {concept[4:]}",
                              value_text=text, period_end=end, locator=locator(src, None, concept[4:])))
    return info, extra


def parse(path: str | Path) -> ParsedDocument:
    """Parse one companyfacts file. Raises ParseError naming the file for anything that is not a well-formed
    companyfacts object (invalid or truncated JSON, a missing key, a value of the wrong type)."""
    path = Path(path)
    data = _load(path)
    try:
        data = _object(data, "the top level")
        cik_raw = data.get("cik")
        if isinstance(cik_raw, bool) or not (isinstance(cik_raw, int) or
                                             (isinstance(cik_raw, str) and cik_raw.strip().isdigit())):
            raise _Bad(f"'cik' is {_kind(cik_raw)}, expected a number")
        cik = str(cik_raw).strip().zfill(10)
        name = _text(data, "entityName", "the top level")
        count = sum(len(v) for c in _object(data.get("facts"), "'facts'").values() if isinstance(c, dict)
                    for b in c.values() if isinstance(b, dict) and isinstance(b.get("units"), dict)
                    for v in b["units"].values() if isinstance(v, list))
        if count > limits.DOCUMENT_FACTS.value():
            raise limits.DOCUMENT_FACTS.exceeded(str(path), f"{count:,} companyfacts values")
        sources: dict[tuple, SourceFiling] = {}
        facts = [_fact(*entry, n, sources) for n, entry in enumerate(_entries(data), start=1)]
    except _Bad as exc:
        raise ParseError(str(path), f"not well-formed SEC companyfacts: {exc}") from None
    if not facts:
        raise ParseError(str(path), "SEC companyfacts with no values")
    warnings: list[str] = []
    info, extra = _info(path, cik, name, facts, warnings)
    return ParsedDocument(info=info, facts=[*facts, *extra], parser=PARSER, warnings=warnings)
