"""parsers.us_xbrl against the real SEC corpus and small generated bad inputs.

Expected values come from the source documents themselves, from SEC companyfacts
(us/companyfacts/CIK*.json) or from accounting identities; nothing is copied from the parser's output.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections import defaultdict
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

import pytest

from parsers import us_xbrl, xbrl_facts
from parsers.xbrl_transforms import durwordsen, duryear, numwordsen
from schema.errors import ParseError
from schema.models import ParsedDocument

D = dt.date


# ----------------------------------------------------------------------------- corpus location


def corpus_root() -> Path | None:
    """$FILINGS_CORPUS, else ../shared/corpus beside the repo. None when absent."""
    env = os.environ.get("FILINGS_CORPUS")
    root = Path(env) if env else Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
    return root if root.is_dir() else None


def need_corpus() -> Path:
    root = corpus_root()
    if root is None:
        msg = "corpus not found (set FILINGS_CORPUS or place it at ../shared/corpus)"
        if os.environ.get("CI") == "true":
            pytest.fail(msg)
        pytest.skip(msg)
    return root


IXBRL = {
    "aapl-10k": "us/ixbrl/aapl-10k-fy2024/aapl-20240928.htm",
    "aapl-10q": "us/ixbrl/aapl-10q-fy2025q2/aapl-20250329.htm",
    "nvda-10k-2024": "us/ixbrl/nvda-10k-fy2024/nvda-20240128.htm",
    "nvda-10k-2025": "us/ixbrl/nvda-10k-fy2025/nvda-20250126.htm",
    "nvda-10q": "us/ixbrl/nvda-10q-fy2026q2/nvda-20250727.htm",
    "wmt-10k": "us/ixbrl/wmt-10k-fy2025/wmt-20250131.htm",
    "hd-10k": "us/ixbrl/hd-10k-fy2024/hd-20250202.htm",
    "wfc-10k": "us/ixbrl/wfc-10k-fy2024/wfc-20241231.htm",
    "ibm-10k": "us/ixbrl/ibm-10k-fy2024/ibm-20241231.htm",
}
INSTANCES = {
    "aapl-2010": "us/xbrl/aapl-10k-fy2010/aapl-20100925.xml",
    "aapl-2023": "us/xbrl/aapl-10k-fy2023/aapl-20230930_htm.xml",
    "msft-2015": "us/xbrl/msft-10k-fy2015/msft-20150630.xml",
    "nflx-2009": "us/xbrl/nflx-10k-fy2009/nflx-20091231.xml",
    "nflx-2010q3": "us/xbrl/nflx-10q-2010q3/nflx-20100930.xml",
}
ALL = {**IXBRL, **INSTANCES}
# (ticker, form, period_end, fiscal_year, fiscal_period, fye month, min facts): read off each cover page
EXPECTED_INFO = {
    "aapl-10k": ("AAPL", "10-K", D(2024, 9, 28), 2024, "FY", 9, 900),
    "aapl-10q": ("AAPL", "10-Q", D(2025, 3, 29), 2025, "Q2", 9, 500),
    "nvda-10k-2024": ("NVDA", "10-K", D(2024, 1, 28), 2024, "FY", 1, 900),
    "nvda-10k-2025": ("NVDA", "10-K", D(2025, 1, 26), 2025, "FY", 1, 900),
    "nvda-10q": ("NVDA", "10-Q", D(2025, 7, 27), 2026, "Q2", 1, 700),
    "wmt-10k": ("WMT", "10-K", D(2025, 1, 31), 2025, "FY", 1, 900),
    # Home Depot calls the year ended 2025-02-02 "fiscal 2024" (DocumentFiscalYearFocus 2024); the
    # project convention is the calendar year in which the fiscal year ends, and the nominal year-end
    # month of a 52/53-week year ending in the first days of February is January.
    "hd-10k": ("HD", "10-K", D(2025, 2, 2), 2025, "FY", 1, 900),
    "wfc-10k": ("WFC", "10-K", D(2024, 12, 31), 2024, "FY", 12, 50),
    "ibm-10k": ("IBM", "10-K", D(2024, 12, 31), 2024, "FY", 12, 100),
    "aapl-2010": ("AAPL", "10-K", D(2010, 9, 25), 2010, "FY", 9, 900),
    "aapl-2023": ("AAPL", "10-K", D(2023, 9, 30), 2023, "FY", 9, 1000),
    "msft-2015": ("MSFT", "10-K", D(2015, 6, 30), 2015, "FY", 6, 1900),
    "nflx-2009": ("NFLX", "10-K", D(2009, 12, 31), 2009, "FY", 12, 300),
    "nflx-2010q3": ("NFLX", "10-Q", D(2010, 9, 30), 2010, "Q3", 12, 250),
}


@lru_cache(maxsize=None)
def doc(key: str) -> ParsedDocument:
    return us_xbrl.parse(need_corpus() / ALL[key])


@lru_cache(maxsize=None)
def companyfacts(cik: str) -> dict:
    with open(need_corpus() / "us" / "companyfacts" / f"CIK{cik}.json", encoding="utf-8") as fh:
        return json.load(fh)


def facts_of(d: ParsedDocument, concept: str, start=None, end=None, dims: dict | None = None):
    return [
        f for f in d.facts
        if f.concept == concept and f.period_start == start and f.period_end == end
        and f.dimensions == (dims or {})
    ]


def one_value(d: ParsedDocument, concept: str, start=None, end=None) -> Decimal:
    vals = {f.value for f in facts_of(d, concept, start, end)}
    assert len(vals) == 1, (concept, start, end, vals)
    return vals.pop()


# ----------------------------------------------------------------------------- every filing parses


@pytest.mark.parametrize("key", list(ALL))
def test_every_corpus_filing_parses(key):
    d = doc(key)
    ticker, form, period_end, fy, fp, fye, min_facts = EXPECTED_INFO[key]
    i = d.info
    assert d.parser == "us_xbrl/1"
    assert len(d.facts) >= min_facts
    assert i.market == "US" and i.language == "en" and i.pages is None
    assert i.currency == "USD" and i.accounting_standard == "US_GAAP"
    assert i.stock_code == ticker
    assert i.form == form
    assert i.period_end == period_end
    assert i.fiscal_year == fy
    assert i.fiscal_period == fp
    assert i.fiscal_year_end_month == fye
    assert i.company_name and i.cik and len(i.cik) == 10 and i.cik.isdigit()
    assert i.file_name == Path(ALL[key]).name
    # every numeric fact with a unit has a value unless nil; locators are unique
    locs = [f.locator for f in d.facts]
    assert len(set(locs)) == len(locs)
    numeric = [f for f in d.facts if f.unit]
    assert numeric and sum(f.value is not None for f in numeric) >= 0.97 * len(numeric)
    for f in d.facts:
        assert f.period_type in ("duration", "instant")
        assert f.period_end is not None
        if f.period_type == "instant":
            assert f.period_start is None
        else:
            assert f.period_start is not None and f.period_start <= f.period_end
        assert f.consolidated is True and f.statement is None and f.page is None
        assert f.value_text is None or len(f.value_text) <= xbrl_facts.TEXT_CAP


def test_cik_and_names():
    assert doc("aapl-10k").info.cik == "0000320193"
    assert doc("aapl-10k").info.company_name == "Apple Inc."
    assert doc("nvda-10k-2025").info.cik == "0001045810"
    assert doc("nflx-2009").info.cik == "0001065280"


# ----------------------------------------------------------------------------- values vs companyfacts


def test_aapl_fy2024_revenue_equals_companyfacts():
    d = doc("aapl-10k")
    start, end = D(2023, 10, 1), D(2024, 9, 28)
    ours = one_value(d, "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", start, end)
    cf = companyfacts("0000320193")["facts"]["us-gaap"]["RevenueFromContractWithCustomerExcludingAssessedTax"]
    sec = {e["val"] for e in cf["units"]["USD"]
           if e["form"] == "10-K" and e.get("start") == start.isoformat() and e["end"] == end.isoformat()}
    assert sec == {391035000000}
    assert ours == Decimal(391035000000)
    fact = facts_of(d, "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", start, end)[0]
    assert fact.unit == "USD" and fact.scale == 6 and fact.decimals == -6 and fact.original_unit == "millions"
    assert fact.value_text == "391,035"
    assert fact.label == "Total net sales"  # printed row label (no label linkbase in this folder)


def test_nvda_fy2025_revenue_equals_companyfacts():
    d = doc("nvda-10k-2025")
    assert d.info.fiscal_year == 2025 and d.info.period_end == D(2025, 1, 26)
    start, end = D(2024, 1, 29), D(2025, 1, 26)
    ours = one_value(d, "us-gaap:Revenues", start, end)
    cf = companyfacts("0001045810")["facts"]["us-gaap"]["Revenues"]["units"]["USD"]
    sec = {e["val"] for e in cf if e["form"] == "10-K" and e.get("start") == start.isoformat()
           and e["end"] == end.isoformat()}
    assert sec == {130497000000}
    assert ours == Decimal(130497000000)


def _companyfacts_index(cik: str, fy: int) -> dict[tuple, set[Decimal]]:
    """(concept, start, end) -> values SEC holds for the 10-K of fiscal year ``fy`` (the same filing)."""
    out: dict[tuple, set[Decimal]] = defaultdict(set)
    for concept, body in companyfacts(cik)["facts"].get("us-gaap", {}).items():
        for e in body["units"].get("USD", []):
            if e.get("form") == "10-K" and e.get("fy") == fy:
                start = D.fromisoformat(e["start"]) if e.get("start") else None
                out[(f"us-gaap:{concept}", start, D.fromisoformat(e["end"]))].add(Decimal(str(e["val"])))
    return out


@pytest.mark.parametrize("key,cik,min_matched", [
    ("aapl-10k", "0000320193", 150),
    ("nvda-10k-2024", "0001045810", 150),
    ("nvda-10k-2025", "0001045810", 150),
])
def test_every_nondimensional_usd_fact_matches_companyfacts(key, cik, min_matched):
    d = doc(key)
    index = _companyfacts_index(cik, d.info.fiscal_year)
    matched, wrong = 0, []
    for f in d.facts:
        if f.unit != "USD" or f.dimensions or f.value is None or not f.concept.startswith("us-gaap:"):
            continue
        sec = index.get((f.concept, f.period_start, f.period_end))
        if sec is None:
            continue
        matched += 1
        # the same concept/period can be tagged twice at different precision ("$22.0 billion" in the
        # text, 22,038 in the table); SEC keeps the precise one, so compare at the fact's own decimals
        q = Decimal(1).scaleb(-f.decimals) if f.decimals is not None else None
        if not any(f.value == v if q is None else f.value.quantize(q) == v.quantize(q) for v in sec):
            wrong.append((f.concept, f.period_start, f.period_end, f.value, sorted(sec), f.locator))
    assert not wrong, wrong[:10]
    assert matched >= min_matched


def test_balance_sheet_identity():
    for key in ("aapl-10k", "nvda-10k-2025", "wmt-10k", "nflx-2009", "msft-2015", "aapl-2010"):
        d = doc(key)
        assets = {f.period_end: f.value for f in d.facts if f.concept == "us-gaap:Assets" and not f.dimensions}
        le = {f.period_end: f.value for f in d.facts
              if f.concept == "us-gaap:LiabilitiesAndStockholdersEquity" and not f.dimensions}
        common = set(assets) & set(le)
        assert common, key
        for end in common:
            assert assets[end] == le[end], (key, end)


# ----------------------------------------------------------------------------- periods


def test_period_end_dates_as_written_not_next_midnight():
    d = doc("aapl-10k")
    # the balance sheet instant is written as 2024-09-28 in the context XML (arelle says 2024-09-29 00:00)
    cash = facts_of(d, "us-gaap:CashAndCashEquivalentsAtCarryingValue", None, D(2024, 9, 28))
    assert cash and all(f.period_type == "instant" for f in cash)
    assert not facts_of(d, "us-gaap:CashAndCashEquivalentsAtCarryingValue", None, D(2024, 9, 29))
    # comparatives are kept
    assert facts_of(d, "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", D(2021, 9, 26), D(2022, 9, 24))


def test_dimensions_are_kept():
    d = doc("aapl-10k")
    iphone = facts_of(d, "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", D(2023, 10, 1),
                      D(2024, 9, 28), {"srt:ProductOrServiceAxis": "aapl:IPhoneMember"})
    assert iphone and iphone[0].value == Decimal(201183000000) and iphone[0].label == "iPhone"  # f-363 "201,183"


# ----------------------------------------------------------------------------- ix features


def test_negative_sign():
    # <ix:nonFraction ... sign="-" name="us-gaap:NonoperatingIncomeExpense" scale="6" id="f-94">565
    d = doc("aapl-10k")
    f = next(x for x in d.facts if x.locator == "f-94")
    assert f.concept == "us-gaap:NonoperatingIncomeExpense"
    assert f.value == Decimal(-565000000)
    assert f.value_text == "565"
    assert (f.period_start, f.period_end) == (D(2022, 9, 25), D(2023, 9, 30))


def test_sec_transforms_get_values():
    d = doc("aapl-10k")
    # <ix:nonFraction ... name="aapl:NumberOfSignificantVendors" format="ixt-sec:numwordsen" id="f-639">two
    f = next(x for x in d.facts if x.locator == "f-639")
    assert f.value == Decimal(2) and f.value_text == "two"
    # nested durwordsen facts f-911 / f-912 "nine months"
    terms = [x for x in d.facts if x.locator in ("f-911", "f-912")]
    assert [t.value_text for t in terms] == ["P9M", "P9M"]
    by_concept = {x.concept: x.value_text for x in d.facts if not x.dimensions}
    assert by_concept["dei:EntityIncorporationStateCountryCode"] == "CA"  # ixt-sec:stateprovnameen "California"
    exchanges = {x.value_text for x in d.facts if x.concept == "dei:SecurityExchangeName"}
    assert exchanges == {"NASDAQ"}  # ixt-sec:exchnameen "The Nasdaq Stock Market LLC"
    assert by_concept["dei:DocumentAnnualReport"] == "true"  # ixt-sec:boolballotbox ☒
    assert not [w for w in d.warnings if "untransformed" in w]


def test_transform_functions():
    assert numwordsen("no") == "0" and numwordsen("none") == "0" and numwordsen("three") == "3"
    assert numwordsen("twenty-five") == "25" and numwordsen("one hundred and six") == "106"
    assert duryear("2.5") == "P2Y6M" and duryear("3") == "P3Y"
    assert durwordsen("three-year") == "P3Y" and durwordsen("one year and six months") == "P1Y6M"


def test_fixed_zero_and_undeclared_prefixes():
    d = doc("ibm-10k")  # fixture with dei/ixt prefixes not declared: concepts kept as written
    assert any("undeclared" in w for w in d.warnings)
    assert d.info.company_name == "INTERNATIONAL BUSINESS MACHINES CORPORATION"
    zero = [f for f in d.facts if f.value == 0]
    assert zero  # ixt:fixed-zero


def test_labels_from_linkbase_and_rows():
    q = doc("aapl-10q")  # carries aapl-20250329_lab.xml
    rev = [f for f in q.facts if f.concept == "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"]
    # aapl-20250329_lab.xml line 776: the standard-role label wins over the terse "Net sales"
    assert rev and all(f.label == "Revenue from Contract with Customer, Excluding Assessed Tax" for f in rev)
    assert all(f.label for f in q.facts if f.concept.startswith(("us-gaap:", "aapl:")))
    n = doc("nvda-10k-2025")  # no linkbase: printed row labels
    rev = facts_of(n, "us-gaap:Revenues", D(2024, 1, 29), D(2025, 1, 26))
    assert rev[0].label == "Revenue"


def test_old_instance_nflx_2009():
    d = doc("nflx-2009")
    gaap = [f for f in d.facts if f.concept.startswith("us-gaap:")]
    assert len(gaap) >= 300
    assert sum(f.value is not None for f in gaap) >= 280
    # <us-gaap:CashAndCashEquivalentsAtCarryingValue contextRef="..._20061231_0" decimals="-3">400430000
    cash = facts_of(d, "us-gaap:CashAndCashEquivalentsAtCarryingValue", None, D(2006, 12, 31))
    assert cash and cash[0].value == Decimal(400430000)
    assert cash[0].decimals == -3 and cash[0].original_unit == "thousands" and cash[0].unit == "USD"
    # nflx-20091231_lab.xml: standard label "Cash and cash equivalents"
    assert cash[0].label == "Cash and cash equivalents"
    assert all(f.label for f in gaap)
    eps = [f for f in d.facts if f.unit == "USD/shares"]
    assert eps


# ----------------------------------------------------------------------------- sniffing


def test_is_xbrl_sniff():
    root = need_corpus()
    assert us_xbrl.is_xbrl(root / IXBRL["aapl-10k"])
    assert us_xbrl.is_xbrl(root / INSTANCES["nflx-2009"])
    folder = (root / INSTANCES["nflx-2009"]).parent
    others = [p for p in folder.iterdir() if p.name != "nflx-20091231.xml"]
    assert len(others) == 5 and not any(us_xbrl.is_xbrl(p) for p in others)
    assert not us_xbrl.is_xbrl(root / "us" / "companyfacts" / "CIK0000320193.json")


# ----------------------------------------------------------------------------- bad input


def _raises(path: Path, fragment: str):
    with pytest.raises(ParseError) as info:
        us_xbrl.parse(path)
    assert path.name in str(info.value)
    assert fragment in info.value.reason.lower()
    return info.value


MINIMAL_IXBRL = """<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"
 xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:link="http://www.xbrl.org/2003/linkbase"
 xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:iso4217="http://www.xbrl.org/2003/iso4217"
 xmlns:dei="http://xbrl.sec.gov/dei/2024" xmlns:us-gaap="http://fasb.org/us-gaap/2024"
 xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12"
 xmlns:ixt-sec="http://www.sec.gov/inlineXBRL/transformation/2015-08-31">
<head><title>t</title></head><body>
<div style="display:none"><ix:header><ix:references><link:schemaRef xlink:type="simple" xlink:href="tst-20241231.xsd"/></ix:references>
<ix:resources>
<xbrli:context id="c1"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
</ix:resources></ix:header></div>
<p><ix:nonNumeric name="dei:DocumentType" contextRef="c1" id="d1">10-K</ix:nonNumeric>
<ix:nonNumeric name="dei:EntityRegistrantName" contextRef="c1" id="d2">Test Co</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentPeriodEndDate" contextRef="c1" id="d3" format="ixt:date-monthname-day-year-en">December 31, 2024</ix:nonNumeric></p>
<table><tr><td>Net loss</td><td>(<ix:nonFraction name="us-gaap:NetIncomeLoss" contextRef="c1" unitRef="usd" decimals="-3" scale="3" sign="-" format="ixt:num-dot-decimal" id="n1">1,234.5</ix:nonFraction>)</td></tr>
<tr><td>Segments</td><td><ix:nonFraction name="us-gaap:NumberOfOperatingSegments" contextRef="c1" unitRef="usd" decimals="INF" format="ixt-sec:numwordsen" id="n2">none</ix:nonFraction></td></tr></table>
</body></html>
"""


def test_minimal_generated_ixbrl(tmp_path):
    p = tmp_path / "tst-20241231.htm"
    p.write_text(MINIMAL_IXBRL, encoding="utf-8")
    assert us_xbrl.is_xbrl(p)
    d = us_xbrl.parse(p)
    assert d.info.form == "10-K" and d.info.period_end == D(2024, 12, 31) and d.info.fiscal_year == 2024
    assert d.info.stock_code == "TST" and d.info.company_name == "Test Co" and d.info.fiscal_period == "FY"
    n1 = next(f for f in d.facts if f.locator == "n1")
    assert n1.value == Decimal("-1234500") and n1.label == "Net loss" and n1.original_unit == "thousands"
    n2 = next(f for f in d.facts if f.locator == "n2")
    assert n2.value == 0 and n2.decimals is None and n2.label == "Segments"


def test_missing_file(tmp_path):
    _raises(tmp_path / "nope-20240101.htm", "not found")


def test_empty_file(tmp_path):
    p = tmp_path / "empty-20241231.htm"
    p.write_bytes(b"")
    _raises(p, "empty")


def test_truncated_xml(tmp_path):
    p = tmp_path / "tst-20241231.htm"
    p.write_text(MINIMAL_IXBRL[: len(MINIMAL_IXBRL) * 2 // 3], encoding="utf-8")
    _raises(p, "malformed")


def test_truncated_corpus_instance(tmp_path):
    src = need_corpus() / INSTANCES["nflx-2009"]
    p = tmp_path / "nflx-20091231.xml"
    p.write_bytes(src.read_bytes()[:200_000])
    _raises(p, "malformed")


def test_html_without_xbrl(tmp_path):
    p = tmp_path / "page.htm"
    p.write_text("<html><body><table><tr><td>Revenue</td><td>1</td></tr></table></body></html>")
    assert not us_xbrl.is_xbrl(p)
    _raises(p, "no inline xbrl")


def test_html_with_ix_namespace_but_no_facts(tmp_path):
    p = tmp_path / "hollow.htm"
    p.write_text('<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL">'
                 "<body><p>nothing tagged</p></body></html>")
    _raises(p, "no xbrl facts")


def test_pdf(tmp_path):
    p = tmp_path / "report.pdf"
    p.write_bytes(b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")
    _raises(p, "pdf")


def test_xml_that_is_a_linkbase(tmp_path):
    p = tmp_path / "x_lab.xml"
    p.write_text('<?xml version="1.0"?><link:linkbase xmlns:link="http://www.xbrl.org/2003/linkbase"/>')
    _raises(p, "not an xbrl instance")


def test_no_output_leaks(tmp_path, capfd):
    p = tmp_path / "bad-20241231.htm"
    p.write_text(MINIMAL_IXBRL[:900], encoding="utf-8")
    with pytest.raises(ParseError):
        us_xbrl.parse(p)
    p2 = tmp_path / "tst-20241231.htm"
    p2.write_text(MINIMAL_IXBRL, encoding="utf-8")
    us_xbrl.parse(p2)
    out, err = capfd.readouterr()
    assert out == "" and err == ""
