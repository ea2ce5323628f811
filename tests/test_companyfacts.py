"""SEC companyfacts as a source of exact figures (parsers/us_companyfacts.py, warehouse/companyfacts_metrics.py).

Expected values are read from the companyfacts JSON files by this module with plain ``json`` (the entry of the
filing that printed the value: its form, fy, fp, dates), from the iXBRL filings' own tags, or are identities;
nothing is copied from the parser's output. One warehouse for the module: the US XBRL corpus (us/ixbrl,
us/xbrl) and the three companyfacts files, without a search index.
"""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import parsers
from conftest import ingested_home, require_corpus
from filings import Filings
from filings.web.app import create_app
from schema.errors import LimitExceeded, ParseError
from warehouse import store
from warehouse.lookup import stored_facts, stored_info
from warehouse.metrics import reported_metric_rows

APPLE, NVIDIA, LPA = "0000320193", "0001045810", "0001997711"
ANNUAL_DAYS = range(350, 381)  # a fiscal year of 52 or 53 weeks
QUARTER_DAYS = range(80, 101)


def _file(cik: str) -> Path:
    return require_corpus("us", "companyfacts", f"CIK{cik}.json")


def _json(cik: str) -> dict:
    return json.loads(_file(cik).read_text(encoding="utf-8"))


def _entries(cik: str, concept: str, unit: str = "USD") -> list[dict]:
    taxonomy, name = concept.split(":")
    return _json(cik)["facts"][taxonomy][name]["units"][unit]


def _days(e: dict) -> int:
    return (dt.date.fromisoformat(e["end"]) - dt.date.fromisoformat(e["start"])).days + 1


def _own_annual(cik: str, concept: str, fy: int, unit: str = "USD") -> dict:
    """The entry of the annual report tagged fy ``fy`` for its own year (its latest one-year period)."""
    own = [e for e in _entries(cik, concept, unit) if e["fp"] == "FY" and e["fy"] == fy and e["form"] in ("10-K", "20-F")
           and "start" in e and _days(e) in ANNUAL_DAYS]
    return max(own, key=lambda e: e["end"])


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    return ingested_home(tmp_path_factory, "companyfacts", [("us", "ixbrl"), ("us", "xbrl"), ("us", "companyfacts")])


@pytest.fixture(scope="module")
def con(home):
    c = store.connect(home, read_only=True)
    yield c
    c.close()


def _row(con, code: str, year: int, period: str, metric: str, table: str = "financial_metrics") -> dict:
    cur = con.execute(f"""SELECT fm.*, d.doc_name, d.form AS document_form FROM {table} fm JOIN documents d USING (document_id)
                          WHERE fm.stock_code = ? AND fm.fiscal_year = ? AND fm.fiscal_period = ? AND fm.metric_name = ?""",
                      [code, year, period, metric])
    row = cur.fetchone()
    assert row is not None, (table, code, year, period, metric)
    return dict(zip([d[0] for d in cur.description], row))


def _from_filing(row: dict, entry: dict) -> None:
    """The row is the companyfacts copy of the entry's filing, and its locator says which filing that is."""
    assert row["document_form"] == "companyfacts" and row["doc_name"] == f"CIK{_cik_of(row)}"
    assert f"SEC companyfacts, from {entry['form']} filed {entry['filed']} (accession {entry['accn']}" in row["page"]


def _cik_of(row: dict) -> str:
    return {"AAPL": APPLE, "NVDA": NVIDIA, "LPA": LPA}[row["stock_code"]]


# --------------------------------------------------------------------------------------------- parser


def test_each_file_is_recognised_and_every_value_is_a_fact():
    for cik in (APPLE, NVIDIA, LPA):
        path, data = _file(cik), _json(cik)
        assert parsers.detect(path) == "companyfacts"
        doc = parsers.parse(path)
        values = [(f"{tax}:{name}", unit, e) for tax, concepts in data["facts"].items()
                  for name, body in concepts.items() for unit, entries in body["units"].items() for e in entries]
        facts = [f for f in doc.facts if f.value is not None]
        assert len(facts) == len(values) and not doc.pages
        for fact, (concept, unit, e) in zip(facts, values):
            assert (fact.concept, fact.unit, fact.value) == (concept, unit, Decimal(str(e["val"])))
            assert fact.period_end == dt.date.fromisoformat(e["end"])
            assert fact.period_start == (dt.date.fromisoformat(e["start"]) if "start" in e else None)
            assert f"from {e['form']} filed {e['filed']} (accession {e['accn']}" in fact.locator
        assert len({f.locator for f in doc.facts}) == len(doc.facts)  # a fact's locator finds that fact
        assert doc.info.cik == cik and doc.info.company_name == data["entityName"] and doc.info.market == "US"


def test_document_identity_is_the_latest_annual_report():
    apple = parsers.parse(_file(APPLE)).info
    latest = _own_annual(APPLE, "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", 2025)
    assert (apple.stock_code, apple.form, apple.fiscal_period, apple.accounting_standard, apple.currency) == \
        ("AAPL", "companyfacts", "FY", "US_GAAP", "USD")
    assert apple.period_end == dt.date.fromisoformat(latest["end"]) and apple.fiscal_year == 2025
    assert apple.fiscal_year_end_month == 9  # Apple's year ends on the last Saturday of September
    nvidia = parsers.parse(_file(NVIDIA)).info
    latest = _own_annual(NVIDIA, "us-gaap:Revenues", 2026)
    assert nvidia.period_end == dt.date.fromisoformat(latest["end"]) and nvidia.fiscal_year == 2026
    assert nvidia.fiscal_year_end_month == 1
    lpa = parsers.parse(_file(LPA)).info
    assert (lpa.stock_code, lpa.accounting_standard, lpa.fiscal_year, lpa.fiscal_year_end_month) == \
        ("LPA", "IFRS", 2024, 12)


def test_bad_companyfacts_gives_one_clear_error_naming_the_file(tmp_path):
    good = _file(LPA).read_bytes()
    truncated = tmp_path / "CIK0001997711.json"
    truncated.write_bytes(good[: len(good) // 2])
    assert parsers.detect(truncated) == "companyfacts"  # recognised by its shape, then refused whole
    with pytest.raises(ParseError) as err:
        parsers.parse(truncated)
    assert str(err.value).startswith(f"{truncated}: ") and "not valid (truncated or corrupt)" in str(err.value)
    assert "\n" not in str(err.value)

    data = json.loads(good)
    data["facts"]["ifrs-full"]["Revenue"]["units"]["USD"][0]["val"] = "2,650,535"
    wrong = tmp_path / "wrong_type.json"
    wrong.write_text(json.dumps(data))
    with pytest.raises(ParseError) as err:
        parsers.parse(wrong)
    assert str(err.value) == (f"{wrong}: not well-formed SEC companyfacts: ifrs-full:Revenue [USD] value 1: 'val' is a "
                              "str ('2,650,535'), expected a number")
    data = json.loads(good)
    data["facts"]["ifrs-full"]["Revenue"]["units"] = [1, 2]
    wrong.write_text(json.dumps(data))
    with pytest.raises(ParseError, match=r"ifrs-full:Revenue 'units' is a list .*expected an object"):
        parsers.parse(wrong)

    other = tmp_path / "other.json"
    other.write_text(json.dumps({"cik": 1, "name": "not companyfacts", "data": []}))
    assert parsers.detect(other) is None
    with pytest.raises(ParseError) as err:
        parsers.parse(other)
    assert "neither an earnings-call transcript" in str(err.value) and "nor SEC companyfacts" in str(err.value)


def test_size_limit(monkeypatch):
    monkeypatch.setenv("FILINGS_MAX_COMPANYFACTS_BYTES", "100K")
    with pytest.raises(LimitExceeded, match=r"over the limit of 100 KiB per SEC companyfacts JSON file "
                                            r"\(FILINGS_MAX_COMPANYFACTS_BYTES\)"):
        parsers.parse(_file(APPLE))


# ------------------------------------------------------------------------------------------ warehouse


def test_apple_fiscal_2025_revenue(con):
    entry = _own_annual(APPLE, "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", 2025)
    row = _row(con, "AAPL", 2025, "FY", "revenue")
    assert row["metric_value"] == Decimal(entry["val"]) and row["period_end"] == dt.date.fromisoformat(entry["end"])
    assert (row["source_kind"], row["report_type"], row["currency"], row["fiscal_year_label"]) == \
        ("own_report", "10-K", "USD", entry["fy"])
    _from_filing(row, entry)


def test_a_quarter_and_its_year_to_date_land_where_the_10q_puts_them(con):
    """The 10-Q that first printed a quarter tags its own fiscal year and period (fy / fp): the three-month value
    and the year to date of its own period are stored under them, as the iXBRL 10-Q of the same company does."""
    for cik, code, concept, end in ((APPLE, "AAPL", "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax",
                                     "2025-06-28"), (NVIDIA, "NVDA", "us-gaap:Revenues", "2026-04-26")):
        own = [e for e in _entries(cik, concept) if e["end"] == end and e["form"] == "10-Q"]
        first = min(own, key=lambda e: e["filed"])
        quarter = next(e for e in own if e["accn"] == first["accn"] and _days(e) in QUARTER_DAYS)
        row = _row(con, code, first["fy"], first["fp"], "revenue")
        assert row["metric_value"] == Decimal(quarter["val"]) and row["source_kind"] == "own_report"
        _from_filing(row, quarter)
        ytd = [e for e in own if e["accn"] == first["accn"] and _days(e) > 100]
        if first["fp"] == "Q3":
            assert _row(con, code, first["fy"], "9M", "revenue")["metric_value"] == Decimal(ytd[0]["val"])


def test_every_ixbrl_value_has_its_companyfacts_copy_on_the_same_fiscal_year_and_period(con):
    rows = con.execute("""
        SELECT x.stock_code, x.metric_name, x.concept, x.period_end, x.fiscal_year, x.fiscal_period, x.metric_value,
               list(struct_pack(y := c.fiscal_year, v := c.metric_value))
        FROM document_metrics x JOIN documents d ON d.document_id = x.document_id AND d.file_name LIKE '%.htm'
        LEFT JOIN document_metrics c ON c.filed IS NOT NULL AND c.stock_code = x.stock_code
          AND c.metric_name = x.metric_name AND c.concept = x.concept AND c.period_end = x.period_end
          AND c.fiscal_period = x.fiscal_period
        WHERE x.stock_code IN ('AAPL', 'NVDA') GROUP BY ALL""").fetchall()
    assert len(rows) > 300
    for code, metric, concept, end, year, period, value, copies in rows:
        years = {c["y"] for c in copies if c["y"] is not None}
        assert years == {year}, (code, metric, concept, end, period, year, copies)
        assert value in {c["v"] for c in copies}, (code, metric, end, period, value)


def test_nvidia_fiscal_2026(con):
    for metric, concept, unit in (("revenue", "us-gaap:Revenues", "USD"),
                                  ("net_income_parent", "us-gaap:NetIncomeLoss", "USD"),
                                  ("eps_diluted", "us-gaap:EarningsPerShareDiluted", "USD/shares")):
        entry = _own_annual(NVIDIA, concept, 2026, unit)
        row = _row(con, "NVDA", 2026, "FY", metric)
        assert row["metric_value"] == Decimal(str(entry["val"])), metric
        assert row["period_end"] == dt.date.fromisoformat(entry["end"]) == dt.date(2026, 1, 25)
        assert row["fiscal_year_label"] == entry["fy"] == 2026
        _from_filing(row, entry)
    # the year ending 2025-01-26 stays fiscal 2025 and is cited from the FY2025 10-K itself
    fy2025 = _row(con, "NVDA", 2025, "FY", "revenue")
    assert fy2025["doc_name"] == "nvda-20250126" and fy2025["source_kind"] == "own_report"
    assert fy2025["metric_value"] == Decimal(_own_annual(NVIDIA, "us-gaap:Revenues", 2025)["val"])


def test_lpa_ifrs_revenue_and_currency(con):
    entry = _own_annual(LPA, "ifrs-full:Revenue", 2024)
    row = _row(con, "LPA", 2024, "FY", "revenue")
    assert (row["metric_value"], row["currency"], row["accounting_standard"]) == (Decimal(entry["val"]), "USD", "IFRS")
    assert row["original_label"] == "ifrs-full:Revenue"  # the JSON's labels are null: the concept is shown
    _from_filing(row, entry)


@pytest.mark.parametrize("cik,code,concept,unit,metric,period", [
    (APPLE, "AAPL", "us-gaap:Assets", "USD", "total_assets", (None, "2009-09-26")),
    (LPA, "LPA", "ifrs-full:BasicEarningsLossPerShare", "USD/shares", "eps_basic", ("2023-01-01", "2023-12-31")),
])
def test_first_reported_and_restated_values(con, cik, code, concept, unit, metric, period):
    """A period companyfacts shows with two values: the first filed is the as-reported basis, the one of the
    latest report the default basis; the period is flagged restated and each basis shows the other's value."""
    entries = [e for e in _entries(cik, concept, unit) if (e.get("start"), e["end"]) == period]
    first, last = min(entries, key=lambda e: e["filed"]), max(entries, key=lambda e: e["filed"])
    assert first["val"] != last["val"]
    year = dt.date.fromisoformat(period[1]).year
    latest, reported = _row(con, code, year, "FY", metric), _row(con, code, year, "FY", metric,
                                                                  "financial_metrics_as_reported")
    assert latest["metric_value"] == Decimal(str(last["val"])) and reported["metric_value"] == Decimal(str(first["val"]))
    assert latest["restated"] and reported["restated"]
    assert latest["other_basis_value"] == reported["metric_value"]
    _from_filing(reported, first)


def test_restated_apple_assets_are_cited_from_the_filing_in_the_warehouse(con):
    """Apple's FY2010 10-K (a classic XBRL instance in the corpus) prints FY2009 total assets as restated; later
    10-Ks in companyfacts print the same amount: the filing itself is the cited source of the default basis."""
    row = _row(con, "AAPL", 2009, "FY", "total_assets")
    assert row["doc_name"] == "aapl-20100925" and row["source_kind"] == "comparative"


def test_filings_in_the_warehouse_stay_the_cited_source(con):
    """Where a filing in the warehouse prints a period's value (same concept, same amount), no stored value of
    either basis is cited from companyfacts; companyfacts fills the periods the filings do not give."""
    for table in ("financial_metrics", "financial_metrics_as_reported"):
        cited = con.execute(f"""
            SELECT count(*) FILTER (WHERE d.form <> 'companyfacts'),
                   count(*) FILTER (WHERE d.form = 'companyfacts' AND EXISTS (
                       SELECT 1 FROM document_metrics x JOIN documents xd ON xd.document_id = x.document_id
                       WHERE xd.form <> 'companyfacts' AND x.stock_code = fm.stock_code
                         AND x.fiscal_year = fm.fiscal_year AND x.fiscal_period = fm.fiscal_period
                         AND x.metric_name = fm.metric_name AND x.metric_value = fm.metric_value
                         AND x.concept = dm.concept)),
                   count(*) FILTER (WHERE d.form = 'companyfacts')
            FROM {table} fm JOIN documents d USING (document_id)
            JOIN document_metrics dm ON dm.document_id = fm.document_id AND dm.page = fm.page
              AND dm.metric_name = fm.metric_name AND dm.fiscal_year = fm.fiscal_year
              AND dm.fiscal_period = fm.fiscal_period
            WHERE fm.stock_code IN ('AAPL', 'NVDA') AND fm.source_kind <> 'derived'""").fetchone()
        from_filings, shadowed, from_companyfacts = cited
        assert shadowed == 0, table
        assert from_filings > 300 and from_companyfacts > 1000, (table, cited)
    fy2024 = _row(con, "AAPL", 2024, "FY", "revenue")
    assert (fy2024["doc_name"], fy2024["source_kind"], fy2024["page"]) == ("aapl-20240928", "own_report", "f-66")


def test_metric_rows_rebuild_from_stored_facts(con):
    """An older warehouse refills document_metrics from its stored facts (warehouse/migrate.py): the locators
    carry each value's filing, so the rows come out the same."""
    document_id = con.execute("SELECT document_id FROM documents WHERE doc_name = ?", [f"CIK{LPA}"]).fetchone()[0]
    info = stored_info(con, document_id)[0]
    again = sorted((r.fiscal_year, r.fiscal_period, r.metric_name, r.value, r.page, rep.period_end, rep.filed)
                   for r, rep in reported_metric_rows(info, stored_facts(con, document_id)))
    stored = sorted(tuple(r) for r in con.execute(
        "SELECT fiscal_year, fiscal_period, metric_name, metric_value, page, doc_period_end, filed FROM document_metrics "
        "WHERE document_id = ?", [document_id]).fetchall())
    assert again == stored and len(stored) > 50


# ------------------------------------------------------------------------------------------- surfaces


def test_ask_answers_with_a_source_to_follow(home):
    entry = _own_annual(APPLE, "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", 2025)
    with Filings(home, read_only=True) as f:
        answer = f.ask("Apple revenue fiscal 2025")
    assert answer.status == "answered" and len(answer.rows) == 1
    row = answer.rows[0]
    assert (row.value, row.fiscal_year, row.fiscal_period) == (str(entry["val"]), 2025, "FY")
    assert row.source["doc_name"] == f"CIK{APPLE}"
    assert row.source["page"].startswith(f"SEC companyfacts, from 10-K filed {entry['filed']} "
                                         f"(accession {entry['accn']}")
    assert f"{int(entry['val']):,}" in answer.answer


def test_coverage_lists_a_companyfacts_restatement(home):
    first, last = sorted((e for e in _entries(LPA, "ifrs-full:BasicEarningsLossPerShare", "USD/shares")
                          if e["end"] == "2023-12-31"), key=lambda e: e["filed"])
    with Filings(home, read_only=True) as f:
        result = f.coverage(company="LPA")
    found = [x for x in result["findings"] if (x["identity"], x["fiscal_year"], x["metric"]) == ("restated", 2023, "eps_basic")]
    assert len(found) == 1
    assert (found[0]["expected"], found[0]["actual"]) == (Decimal(str(first["val"])), Decimal(str(last["val"])))
    assert [f"accession {e['accn']}" in s["page"] for e, s in zip((first, last), found[0]["sources"])] == [True, True]


def test_a_reader_of_a_warehouse_older_than_filing_dates_still_gets_coverage(home, tmp_path):
    """A home written before document_metrics.filed existed: readers read it as it is (they never upgrade a file)."""
    import shutil

    import duckdb

    old = tmp_path / "old"
    shutil.copytree(home, old, symlinks=True)
    db = (old / "warehouse.duckdb").resolve()
    with duckdb.connect(str(db)) as c:
        c.execute("ALTER TABLE document_metrics DROP COLUMN filed")
    with Filings(old, read_only=True) as f:
        result = f.coverage(company="AAPL")
    assert result["rows"] and result["summary"]["US"]["present"] > 0


def test_viewer_opens_a_companyfacts_source(home, con):
    document_id = con.execute("SELECT document_id FROM documents WHERE doc_name = ?", [f"CIK{APPLE}"]).fetchone()[0]
    entry = _own_annual(APPLE, "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax", 2025)
    with TestClient(create_app(home), follow_redirects=False) as client:
        api = client.get("/api/ask", params={"q": "Apple revenue fiscal 2025"}).json()
        source = api["rows"][0]["source"]
        fact = client.get(f"/doc/{source['document_id']}/fact", params={"id": source["page"]})
        assert fact.status_code == 200 and f"{int(entry['val']):,}" in fact.text and entry["accn"] in fact.text
        page = client.get(f"/doc/{document_id}/page/1")
        assert page.status_code == 404 and "has no pages" in page.text
        company = client.get("/company/AAPL")
        assert company.status_code == 200 and f"/doc/{document_id}/fact?id=SEC+companyfacts" in company.text
        ask = client.get("/ask", params={"q": "Apple revenue fiscal 2025"})
        assert ask.status_code == 200 and f"accession {entry['accn']}" in ask.text
