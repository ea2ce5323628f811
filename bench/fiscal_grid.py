"""The fiscal-year grid: does "fiscal N" mean each company's own fiscal N?

    .venv/bin/python bench/fiscal_grid.py [--home DIR]

Over every US 10-K of the corpus (us/ixbrl and us/xbrl), the expected values are read straight from the
filing with the standard library's XML parser (no project code, no arelle): the filing's own
``dei:DocumentFiscalYearFocus`` names the year of its cover period end (fiscal N); its comparative columns are
the company's fiscal N-1 and N-2 (a company names consecutive years consecutively). For each (company, fiscal
N, metric) the bench asks ``<company> revenue in fiscal N`` / ``<company> net income in fiscal N`` and checks
that the answer's row for the metric has the filing's value and period end. It prints each company's naming
rule (the label's offset from the year its fiscal year ends in) and the counts of companies and pairs.

Without ``--home`` it ingests the US filings into a temporary home first (no search index)."""

from __future__ import annotations

import argparse
import datetime as dt
import re
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

try:
    from common import corpus_root, print_table
except ImportError:  # imported as bench.fiscal_grid (tests)
    from bench.common import corpus_root, print_table

# what the grid calls revenue / net income in a filing, first present wins (the plain, undimensioned fact)
CONCEPTS = {
    "revenue": ["Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax", "SalesRevenueNet",
                "SalesRevenueGoodsNet"],
    "net_income_parent": ["NetIncomeLoss"],
}
QUESTION = {"revenue": "{name} revenue in fiscal {year}", "net_income_parent": "{name} net income in fiscal {year}"}
ANNUAL_DAYS = (340, 380)  # a fiscal year of 52 or 53 weeks or 12 months
DEI = ("DocumentFiscalYearFocus", "DocumentType", "DocumentPeriodEndDate")
IX = "{http://www.xbrl.org/2013/inlineXBRL}"
XBRLI = "{http://www.xbrl.org/2003/instance}"


@dataclass
class Filing:
    path: Path
    ticker: str
    form: str
    focus: int  # dei:DocumentFiscalYearFocus
    period_end: dt.date  # the end of the cover period (the context of the focus fact)
    focus_source: str  # DocumentFiscalYearFocus, or the cover's year end when the filing does not tag it
    # metric -> period end -> value, for the undimensioned annual facts the filing tags
    annual: dict[str, dict[dt.date, Decimal]] = field(default_factory=dict)

    def fiscal_years(self) -> dict[int, dt.date]:
        """fiscal label -> period end: the cover year is ``focus``, each earlier annual column one less."""
        ends = sorted({e for by_end in self.annual.values() for e in by_end if e <= self.period_end + dt.timedelta(3)},
                      reverse=True)
        out = {}
        for end in ends:
            years_back = round((self.period_end - end).days / 365.25)
            out.setdefault(self.focus - years_back, end)
        return out


def _date(text: str) -> dt.date:
    return dt.date.fromisoformat(text.strip()[:10])


def _contexts(root: ET.Element) -> dict[str, tuple[dt.date | None, dt.date, bool]]:
    """context id -> (start or None, end, has dimensions). XBRL: an instant's and an end date's day is the
    day itself (no end-of-day shift is needed for comparing period ends)."""
    out = {}
    for ctx in root.iter(f"{XBRLI}context"):
        period = ctx.find(f"{XBRLI}period")
        start, end, instant = (period.find(f"{XBRLI}{t}") for t in ("startDate", "endDate", "instant"))
        dims = ctx.find(f"{XBRLI}entity/{XBRLI}segment") is not None or ctx.find(f"{XBRLI}scenario") is not None
        if end is not None:
            out[ctx.get("id")] = (_date(start.text), _date(end.text), dims)
        elif instant is not None:
            out[ctx.get("id")] = (None, _date(instant.text), dims)
    return out


def _ix_number(el: ET.Element) -> Decimal | None:
    text = "".join(el.itertext()).strip()
    fmt = (el.get("format") or "").lower()
    if "zero" in fmt or text in ("-", "—", "–"):
        value = Decimal(0)
    else:
        digits = re.sub(r"[^\d.]", "", text.replace(",", "") if "comma" not in fmt else text.replace(".", "").replace(",", "."))
        if not digits:
            return None
        value = Decimal(digits)
    value *= Decimal(10) ** int(el.get("scale") or 0)
    return -value if el.get("sign") == "-" else value


def read_filing(path: Path) -> Filing | None:
    """The figures of one 10-K (iXBRL .htm or XBRL instance .xml), or None for another form."""
    root = ET.parse(path).getroot()
    contexts = _contexts(root)
    inline = path.suffix == ".htm"
    facts: list[tuple[str, str, Decimal | str]] = []  # (local name, context, value)
    if inline:
        for el in root.iter():
            if el.tag in (f"{IX}nonFraction", f"{IX}nonNumeric") and el.get("name"):
                local = el.get("name").split(":")[-1]
                if el.tag == f"{IX}nonNumeric":
                    if local in DEI:
                        facts.append((local, el.get("contextRef"), "".join(el.itertext()).strip()))
                    continue
                value = _ix_number(el)
                if value is not None:
                    facts.append((local, el.get("contextRef"), value))
    else:
        for el in root:
            local = el.tag.split("}")[-1]
            if el.get("contextRef") is None or el.text is None:
                continue
            if local in DEI:
                facts.append((local, el.get("contextRef"), el.text.strip()))
            elif any(local in names for names in CONCEPTS.values()):
                facts.append((local, el.get("contextRef"), Decimal(el.text.strip())))
    dei = {name: (ctx, value) for name, ctx, value in facts if isinstance(value, str)}
    if not str(dei.get("DocumentType", ("", ""))[1]).startswith("10-K"):
        return None
    ticker = path.parent.name.split("-")[0].upper()  # the corpus folder: <ticker>-<form>-<period>
    if "DocumentFiscalYearFocus" in dei:
        focus_ctx, focus = dei["DocumentFiscalYearFocus"]
        filing = Filing(path, ticker, "10-K", int(focus[:4]), contexts[focus_ctx][1], "DocumentFiscalYearFocus")
    else:  # an older filing without the focus: a year ending in December is named by that calendar year (cover)
        ctx, _ = dei.get("DocumentPeriodEndDate", (None, None))
        end = contexts.get(ctx, (None, None, None))[1]
        if end is None or end.month != 12:
            return None
        filing = Filing(path, ticker, "10-K", end.year, end, "cover: fiscal year ended in December")
    for metric, names in CONCEPTS.items():
        for name in names:
            values = {}
            for local, ctx, value in facts:
                start, end, dims = contexts.get(ctx, (None, None, True))
                if local == name and start is not None and not dims and \
                        ANNUAL_DAYS[0] <= (end - start).days <= ANNUAL_DAYS[1]:
                    values.setdefault(end, value)
            if values:
                filing.annual[metric] = values
                break
    return filing


def us_filings(corpus: Path) -> list[Filing]:
    out = []
    for folder in sorted([*(corpus / "us" / "ixbrl").iterdir(), *(corpus / "us" / "xbrl").iterdir()]):
        docs = sorted(folder.glob("*.htm")) or [p for p in sorted(folder.glob("*.xml"))
                                                if not re.search(r"_(cal|def|lab|pre)\.xml$", p.name)]
        for doc in docs:
            filing = read_filing(doc)
            if filing is not None:
                out.append(filing)
    return out


@dataclass
class Check:
    ticker: str
    metric: str
    label: int
    expected: Decimal
    expected_end: dt.date
    got: Decimal | None
    got_end: dt.date | None
    filing: str

    @property
    def ok(self) -> bool:
        return self.got == self.expected and self.got_end == self.expected_end


def company_name(f, ticker: str) -> str | None:
    row = f.con.execute("SELECT c.name_en FROM securities s JOIN companies c USING (company_id) WHERE s.stock_code = ?",
                        [ticker]).fetchone()
    return row[0] if row else None


def grid(f, filings: list[Filing]) -> tuple[list[Check], dict[str, dict]]:
    """Every (company, fiscal N, metric) check, and each company's naming (label - year its fiscal year ends in)."""
    expected: dict[tuple[str, str, int], tuple[Decimal, dt.date, str]] = {}
    naming: dict[str, dict] = {}
    for filing in sorted(filings, key=lambda x: x.period_end):  # a later filing's figure wins (restatements)
        for label, end in filing.fiscal_years().items():
            for metric, by_end in filing.annual.items():
                if end in by_end:
                    expected[(filing.ticker, metric, label)] = (by_end[end], end, filing.path.name)
        nominal = filing.period_end - dt.timedelta(days=7) if filing.period_end.day <= 7 else filing.period_end
        naming.setdefault(filing.ticker, {})["offset"] = filing.focus - nominal.year
        naming[filing.ticker]["fye_month"] = nominal.month
        naming[filing.ticker].setdefault("filings", []).append(filing.path.name)
    checks = []
    for (ticker, metric, label), (value, end, source) in sorted(expected.items()):
        name = company_name(f, ticker)
        if name is None:
            continue
        answer = f.ask(QUESTION[metric].format(name=name, year=label))
        rows = [r for r in answer.rows if r.metric == metric and r.fiscal_period == "FY" and r.stock_code == ticker]
        got = rows[0] if rows else None
        checks.append(Check(ticker, metric, label, value, end, Decimal(got.value) if got else None,
                            got.period_end if got else None, source))
    return checks, naming


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", help="a warehouse holding the corpus's US filings (default: a fresh ingest)")
    args = ap.parse_args()
    corpus = corpus_root()
    filings = us_filings(corpus)
    from filings import Filings
    from warehouse.fiscal_labels import namings

    with tempfile.TemporaryDirectory() as tmp:
        home = args.home
        if home is None:
            home = tmp
            with Filings(home) as f:
                report = f.ingest(*[corpus / "us" / d for d in ("ixbrl", "xbrl")], index=False)
                if report.failed:
                    sys.exit(f"ingest failed: {[r.reason for r in report.failed]}")
        with Filings(home, read_only=True) as f:
            checks, naming = grid(f, filings)
            rules = namings(f.con, sorted(naming))
            rows = []
            for ticker, info in sorted(naming.items()):
                mine = [c for c in checks if c.ticker == ticker]
                rule = rules[ticker]
                rows.append([ticker, info["fye_month"], f"{info['offset']:+d}", f"{rule.rule} {rule.offset or 0:+d}"
                             if rule.rule == "dei" else rule.rule, len(info["filings"]), len(mine),
                             sum(c.ok for c in mine)])
            print_table(["company", "FY ends (month)", "filing: label - end year", "warehouse rule", "10-Ks",
                         "pairs", "equal"], rows, title="fiscal-year naming per US company")
            for c in checks:
                if not c.ok:
                    print(f"DIFFERS {c.ticker} {c.metric} fiscal {c.label}: filing {c.expected} ({c.expected_end}, "
                          f"{c.filing}) vs answer {c.got} ({c.got_end})")
            companies = {c.ticker for c in checks}
            print(f"US companies with a 10-K: {len(naming)}, with figures to check: {len(companies)} (10-Ks read: "
                  f"{len(filings)}); (company, fiscal N, metric) pairs: "
                  f"{len(checks)}, equal to the filing: {sum(c.ok for c in checks)}; "
                  f"(company, fiscal N): {len({(c.ticker, c.label) for c in checks})}")


if __name__ == "__main__":
    main()
