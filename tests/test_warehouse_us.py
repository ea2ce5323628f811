"""The warehouse over the US XBRL corpus: exact metrics with provenance, equal to SEC companyfacts,
idempotent ingest, rebuild after deleting the DuckDB file, atomic failures."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import subprocess
import sys
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import pytest

from conftest import require_corpus
from filings import Filings
from mappings.metrics import concept_index, metrics
from schema.errors import FilingsError
from warehouse import store

TABLES = ["documents", "pages", "facts", "document_metrics", "financial_metrics", "financial_metrics_as_reported",
          "companies", "securities", "aliases"]


def _us_paths() -> list[Path]:
    return [require_corpus("us", "ixbrl"), require_corpus("us", "xbrl")]


@pytest.fixture(scope="module")
def us_home(tmp_path_factory):
    home = tmp_path_factory.mktemp("us_home")
    with Filings(home) as f:
        report = f.ingest(*_us_paths(), index=False)
    assert report.failed == [], [r.reason for r in report.failed]
    assert report.count("added") == 14
    return home


def _snapshot(home: Path) -> dict[str, list]:
    con = store.connect(home, read_only=True)
    try:
        snap = {}
        for t in TABLES:
            cols = [c[0] for c in con.execute(f"DESCRIBE {t}").fetchall() if c[0] not in {"ingested_at", "path"}]
            snap[t] = con.execute(f"SELECT {', '.join(cols)} FROM {t} ORDER BY ALL").fetchall()
        return snap
    finally:
        con.close()


def _companyfacts(cik: str) -> dict:
    return json.loads(require_corpus("us", "companyfacts", f"CIK{cik}.json").read_text())["facts"]


def test_every_filing_ingested_with_identity(us_home):
    con = store.connect(us_home, read_only=True)
    docs = {r[0]: r[1:] for r in con.execute(
        "SELECT stock_code || ' ' || form || ' ' || fiscal_year || ' ' || fiscal_period, market, company_id, currency,"
        " accounting_standard FROM documents").fetchall()}
    # identities typed from the corpus README (us/README.md) and the filings' cover pages
    for key in ["AAPL 10-K 2024 FY", "AAPL 10-Q 2025 Q2", "NVDA 10-K 2024 FY", "NVDA 10-K 2025 FY",
                "NVDA 10-Q 2026 Q2", "WMT 10-K 2025 FY", "HD 10-K 2025 FY", "WFC 10-K 2024 FY", "IBM 10-K 2024 FY",
                "AAPL 10-K 2010 FY", "AAPL 10-K 2023 FY", "MSFT 10-K 2015 FY", "NFLX 10-K 2009 FY",
                "NFLX 10-Q 2010 Q3"]:
        assert key in docs, f"{key} missing; have {sorted(docs)}"
        market, company_id, currency, standard = docs[key]
        assert (market, currency, standard) == ("US", "USD", "US_GAAP")
        assert company_id
    assert docs["NVDA 10-K 2025 FY"][1] == "nvidia"


def test_every_tagged_canonical_metric_is_in_financial_metrics(us_home):
    """For each filing, every canonical concept it tags without dimensions for its own period shows up as a
    metric row for that period."""
    con = store.connect(us_home, read_only=True)
    index = concept_index()
    docs = con.execute("SELECT document_id, stock_code, fiscal_year, fiscal_period, period_end FROM documents").fetchall()
    for document_id, code, fy, fp, period_end in docs:
        tagged = con.execute(
            """SELECT DISTINCT concept, unit, period_type FROM facts WHERE document_id = ? AND dimensions IS NULL
               AND value IS NOT NULL AND period_end = ?""", [document_id, period_end]).fetchall()
        expected = set()
        for concept, unit, ptype in tagged:
            for mid, _ in index.get(concept, []):
                m = metrics()[mid]
                unit_ok = {"money": unit == "USD", "per_share": "/" in (unit or ""), "shares": unit == "shares"}[m.kind]
                if unit_ok and m.period == ptype:
                    expected.add(mid)
        have = {r[0] for r in con.execute(
            "SELECT DISTINCT metric_name FROM financial_metrics WHERE stock_code = ? AND fiscal_year = ?",
            [code, fy]).fetchall()}
        assert expected <= have, f"{code} {fy} {fp}: missing {expected - have}"


def test_balance_sheet_identity_from_facts(us_home):
    con = store.connect(us_home, read_only=True)
    rows = con.execute(
        """SELECT a.document_id, a.period_end, a.value, le.value FROM facts a JOIN facts le
           ON a.document_id = le.document_id AND a.period_end = le.period_end
           WHERE a.concept = 'us-gaap:Assets' AND le.concept = 'us-gaap:LiabilitiesAndStockholdersEquity'
             AND a.dimensions IS NULL AND le.dimensions IS NULL""").fetchall()
    assert len(rows) >= 10
    for _doc, _end, assets, total in rows:
        assert assets == total


def test_fiscal_years_end_in_their_calendar_year(us_home):
    con = store.connect(us_home, read_only=True)
    got = dict(con.execute(
        """SELECT stock_code || ' ' || fiscal_year || ' ' || fiscal_period, period_end FROM financial_metrics
           WHERE metric_name = 'revenue' AND stock_code IN ('NVDA', 'WMT', 'HD', 'AAPL')""").fetchall())
    # period ends typed from the filings' cover pages
    assert str(got["NVDA 2024 FY"]) == "2024-01-28"
    assert str(got["NVDA 2025 FY"]) == "2025-01-26"
    assert str(got["WMT 2025 FY"]) == "2025-01-31"
    assert str(got["HD 2025 FY"]) == "2025-02-02"
    assert str(got["AAPL 2024 FY"]) == "2024-09-28"
    assert str(got["NVDA 2026 Q2"]) == "2025-07-27"


def test_comparatives_answer_for_earlier_years(us_home):
    """A FY2024 10-K alone answers for FY2023 and FY2022 (comparatives, marked as such)."""
    con = store.connect(us_home, read_only=True)
    rows = con.execute(
        """SELECT fiscal_year, source_kind, metric_value FROM financial_metrics
           WHERE stock_code = 'WMT' AND metric_name = 'revenue' AND fiscal_period = 'FY' ORDER BY fiscal_year""").fetchall()
    kinds = {fy: kind for fy, kind, _ in rows}
    assert kinds[2025] == "own_report" and kinds[2024] == "comparative" and kinds[2023] == "comparative"
    # Apple FY2023: the default basis is the latest report that prints it (the FY2024 10-K's comparative);
    # the value as first reported (its own FY2023 10-K) stays in financial_metrics_as_reported
    query = """SELECT source_kind, metric_value FROM {} WHERE stock_code = 'AAPL'
               AND fiscal_year = 2023 AND fiscal_period = 'FY' AND metric_name = 'revenue'"""
    assert con.execute(query.format("financial_metrics")).fetchone() == ("comparative", Decimal("383285000000"))
    assert con.execute(query.format("financial_metrics_as_reported")).fetchone() == (
        "own_report", Decimal("383285000000"))  # Apple FY2023 total net sales, $383,285 million


def test_second_ingest_changes_nothing(us_home):
    before = _snapshot(us_home)
    with Filings(us_home) as f:
        report = f.ingest(*_us_paths(), index=False)
    assert report.count("unchanged") == 14 and report.count("added") == 0 and not report.failed
    assert _snapshot(us_home) == before


def test_rebuild_after_deleting_the_database(us_home, tmp_path):
    before = _snapshot(us_home)
    home = tmp_path / "rebuilt"
    with Filings(home) as f:
        assert not f.ingest(*_us_paths(), index=False).failed
    after = _snapshot(home)
    assert after["financial_metrics"] == before["financial_metrics"]
    assert after["facts"] == before["facts"]


def test_bad_input_fails_alone_and_stores_nothing(tmp_path):
    good = require_corpus("us", "ixbrl", "aapl-10k-fy2024", "aapl-20240928.htm")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "empty.htm").write_bytes(b"")
    text = good.read_text(encoding="utf-8")
    (bad / "truncated-20240928.htm").write_text(text[: len(text) // 3], encoding="utf-8")
    (bad / "page.html").write_text("<html><body><p>Quarterly results</p></body></html>")
    (bad / "report.htm").write_bytes(require_corpus("cn", "600080_jinhuagufen_2025_q1.pdf").read_bytes()[:4096])
    files = [bad / "empty.htm", bad / "truncated-20240928.htm", bad / "page.html", bad / "missing.htm", good]
    with Filings(tmp_path / "home") as f:
        report = f.ingest(*files, index=False)
        by_name = {Path(r.path).name: r for r in report.results}
        assert by_name["aapl-20240928.htm"].status == "added"
        for name in ["empty.htm", "truncated-20240928.htm", "page.html", "missing.htm"]:
            r = by_name[name]
            assert r.status == "failed", name
            assert name in r.reason and "Traceback" not in r.reason and "\n" not in r.reason.strip()
        n_docs = f.sql("SELECT count(*) AS n FROM documents")["n"][0]
        assert n_docs == 1
        orphans = f.sql("SELECT count(*) AS n FROM facts WHERE document_id NOT IN (SELECT document_id FROM documents)")
        assert orphans["n"][0] == 0


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "filings.cli", *args, "--home", str(home)], capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("query", [
    "DELETE FROM financial_metrics",
    "ATTACH 'other.duckdb'",
    "COPY facts TO 'out.csv'",
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM '/etc/passwd'",
    "DROP TABLE facts",
    "SELECT 1; DELETE FROM facts",
])
def test_sql_refuses_anything_but_reading_the_warehouse(us_home, query):
    res = _cli(us_home, "sql", query)
    assert res.returncode == 2
    assert "refused" in res.stderr and "Traceback" not in res.stderr


def test_cli_sql_and_metrics(us_home):
    res = _cli(us_home, "sql", "SELECT metric_value FROM financial_metrics WHERE stock_code = 'AAPL' "
               "AND fiscal_year = 2024 AND fiscal_period = 'FY' AND metric_name = 'revenue'", "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == [{"metric_value": "391035000000.000000"}]  # $391,035 million, AAPL 10-K
    res = _cli(us_home, "metrics", "AAPL", "--years", "2022-2024", "--metric", "revenue,eps_diluted", "--json")
    assert res.returncode == 0, res.stderr
    rows = json.loads(res.stdout)["rows"]
    assert {(r["metric"], r["fiscal_year"]) for r in rows if r["fiscal_period"] == "FY"} >= {
        ("revenue", 2022), ("revenue", 2023), ("revenue", 2024), ("eps_diluted", 2024)}
    eps = next(r for r in rows if r["metric"] == "eps_diluted" and r["fiscal_year"] == 2024 and r["fiscal_period"] == "FY")
    assert Decimal(eps["value"]) == Decimal("6.08") and eps["currency"] == "USD"  # diluted EPS $6.08
    assert all(r["accounting_standard"] == "US_GAAP" and r["doc_name"] for r in rows)
    res = _cli(us_home, "metrics", "NoSuchCompany")
    assert res.returncode == 1 and "unknown company" in res.stderr
    res = _cli(us_home, "companies", "--market", "US", "--json")
    assert res.returncode == 0 and any(r["company_id"] == "apple" and r["documents"] >= 3 for r in json.loads(res.stdout))


def test_facts_keep_exact_decimals(us_home):
    with Filings(us_home) as f:
        frame = f.metrics("NVDA", years=2025, metrics="eps_basic", periods="FY")
    assert len(frame) == 1
    value = frame["value"][0]
    assert isinstance(value, Decimal) and value == Decimal("2.97")  # NVDA FY2025 basic EPS $2.97


def _dei_focus(con) -> set[tuple[str, str, int, str]]:
    """(ticker, form, DocumentFiscalYearFocus, DocumentFiscalPeriodFocus) of every filing in the warehouse:
    the keys companyfacts gives each filing's entries (its fy / fp / form)."""
    return {tuple(r) for r in con.execute(
        """SELECT d.stock_code, d.form, CAST(left(y.value_text, 4) AS INTEGER), p.value_text FROM documents d
           JOIN facts y ON y.document_id = d.document_id AND y.concept = 'dei:DocumentFiscalYearFocus'
           JOIN facts p ON p.document_id = d.document_id AND p.concept = 'dei:DocumentFiscalPeriodFocus'""").fetchall()}


@pytest.mark.parametrize("cik,code", [("0000320193", "AAPL"), ("0001045810", "NVDA")])
def test_metrics_equal_sec_companyfacts(us_home, cik, code):
    """Every FY and quarterly value of Apple and Nvidia, on both bases, equals SEC companyfacts for the same
    concept, unit and period: ``financial_metrics`` (default basis) the latest-filed value among the filings
    in the warehouse, ``financial_metrics_as_reported`` the value of the filing it comes from (each 10-K's /
    10-Q's own). Derived values (Q4 = FY - 9M) are checked as the difference of the two companyfacts values.
    Prints the counts compared, and how many default-basis values also equal companyfacts' latest-filed value
    over every filing SEC holds (a later filing the warehouse does not hold may restate a period)."""
    facts = _companyfacts(cik)
    con = store.connect(us_home, read_only=True)
    held = _dei_focus(con)
    counts: dict[str, int] = defaultdict(int)

    def entries_of(concept, unit, start, end, only_held=True):
        prefix, local = concept.split(":")
        return [e for e in facts.get(prefix, {}).get(local, {}).get("units", {}).get(unit, [])
                if e["end"] == end.isoformat() and e.get("start") == (start.isoformat() if start else None)
                and (not only_held or (code, e["form"], e["fy"], e["fp"]) in held)]

    def latest(entries):
        last = max(e["filed"] for e in entries)
        return {Decimal(str(e["val"])) for e in entries if e["filed"] == last}

    for table in ("financial_metrics", "financial_metrics_as_reported"):
        rows = con.execute(
            f"""SELECT fm.metric_name, fm.metric_value, fm.fiscal_year, fm.fiscal_period, f.concept, f.unit,
                       f.period_start, f.period_end, d.form, y.value_text, p.value_text
                FROM {table} fm JOIN facts f ON f.document_id = fm.document_id AND f.locator = fm.page
                JOIN documents d ON d.document_id = fm.document_id
                JOIN facts y ON y.document_id = d.document_id AND y.concept = 'dei:DocumentFiscalYearFocus'
                JOIN facts p ON p.document_id = d.document_id AND p.concept = 'dei:DocumentFiscalPeriodFocus'
                WHERE fm.stock_code = ? AND fm.source_kind <> 'derived' AND f.dimensions IS NULL""", [code]).fetchall()
        assert len(rows) > 100
        for metric, value, fy, fp, concept, unit, start, end, form, dfy, dfp in rows:
            entries = entries_of(concept, unit, start, end)
            assert entries, f"{code} {metric} {concept} {start}..{end}: no companyfacts entry of a held filing"
            if table == "financial_metrics":
                want = latest(entries)
                counts["default: equal to SEC latest-filed of all filings"] += value in latest(
                    entries_of(concept, unit, start, end, only_held=False))
            else:
                want = {Decimal(str(e["val"])) for e in entries if (e["form"], e["fy"], e["fp"]) == (form, int(dfy[:4]), dfp)}
            assert value in want, f"{table} {code} {metric} {fy} {fp}: {value}, companyfacts {want}"
            counts[f"{table} {fp if fp == 'FY' else 'quarter/YTD'}"] += 1
        # derived values: each input is a stored value of the same basis, so the formula over companyfacts'
        # values of the inputs' periods gives the same figure
        derived = con.execute(f"""SELECT metric_name, fiscal_year, fiscal_period, metric_value, derivation FROM {table}
                                  WHERE stock_code = ? AND source_kind = 'derived'""", [code]).fetchall()
        for metric, fy, fp, value, derivation in derived:
            spec = json.loads(derivation) if isinstance(derivation, str) else derivation
            total, sign = Decimal(0), 1
            for token in spec["formula"].split("=")[1].split():
                if token in "+-":
                    sign = 1 if token == "+" else -1
                    continue
                term = next(i for i in spec["inputs"] if token in (i["fiscal_period"], i["metric"]))
                total += sign * Decimal(term["value"])
                if token == term["fiscal_period"]:  # a quarter from two year-to-date values of this basis
                    got = con.execute(f"SELECT metric_value FROM {table} WHERE stock_code = ? AND fiscal_year = ? "
                                      "AND fiscal_period = ? AND metric_name = ?",
                                      [code, term["fiscal_year"], token, term["metric"]]).fetchone()
                    assert got and got[0] == Decimal(term["value"]), (table, code, metric, fy, fp, term, got)
            assert value == total, (table, code, metric, fy, fp, spec["formula"], value, total)
            counts[f"{table} derived (from compared inputs)"] += 1
    print(f"\n{code} values compared with SEC companyfacts:", dict(sorted(counts.items())))
    assert counts["financial_metrics FY"] > 50 and counts["financial_metrics_as_reported FY"] > 50
    assert counts["financial_metrics quarter/YTD"] > 10 and counts["financial_metrics_as_reported quarter/YTD"] > 10


def test_nvidia_eps_series_has_one_basis(us_home):
    """Nvidia's 10-for-1 split (June 2024): the FY2025 10-K prints FY2024 basic EPS as $1.21 and FY2023 as
    $0.18; the FY2024 10-K printed them as $12.05 and $1.76 (each 10-K's income statement)."""
    con = store.connect(us_home, read_only=True)
    query = """SELECT fiscal_year, metric_value, other_basis_value, restated FROM {} WHERE stock_code = 'NVDA'
               AND metric_name = 'eps_basic' AND fiscal_period = 'FY' AND fiscal_year BETWEEN 2023 AND 2025"""
    latest = {r[0]: r[1:] for r in con.execute(query.format("financial_metrics")).fetchall()}
    first = {r[0]: r[1:] for r in con.execute(query.format("financial_metrics_as_reported")).fetchall()}
    assert {y: v[0] for y, v in latest.items()} == {2023: Decimal("0.18"), 2024: Decimal("1.21"), 2025: Decimal("2.97")}
    assert {y: v[0] for y, v in first.items()} == {2023: Decimal("1.76"), 2024: Decimal("12.05"), 2025: Decimal("2.97")}
    assert latest[2024][1] == Decimal("12.05") and first[2024][1] == Decimal("1.21")  # the other basis, both ways
    assert latest[2024][2] and latest[2023][2] and not latest[2025][2]  # restated: its reports disagree
    with Filings(us_home, read_only=True) as f:
        frame = f.metrics("NVDA", years=2024, metrics="eps_basic", periods="FY", basis="as_reported")
        assert list(frame["value"]) == [Decimal("12.05")] and list(frame["basis"]) == ["as_reported"]
        with pytest.raises(FilingsError, match="unknown basis"):
            f.metrics("NVDA", basis="restated")


def test_fiscal_year_labels_follow_each_company(us_home):
    """fiscal_year is the year the fiscal year ends; fiscal_year_label is the company's own name for it, as its
    10-K's dei:DocumentFiscalYearFocus gives it (Home Depot: the year ended 2025-02-02 is "fiscal 2024")."""
    con = store.connect(us_home, read_only=True)
    rows = con.execute(
        """SELECT DISTINCT d.stock_code, d.fiscal_year, y.value_text FROM documents d JOIN facts y
           ON y.document_id = d.document_id AND y.concept = 'dei:DocumentFiscalYearFocus'""").fetchall()
    pairs = 0
    for code, fiscal_year, focus in rows:
        labels = {r[0] for r in con.execute(
            """SELECT DISTINCT fiscal_year_label FROM financial_metrics WHERE stock_code = ? AND fiscal_year = ?""",
            [code, fiscal_year]).fetchall()}
        assert labels in (set(), {int(focus[:4])}), (code, fiscal_year, focus, labels)
        pairs += bool(labels)
    assert pairs >= 10
    hd = con.execute("""SELECT fiscal_year, fiscal_year_label, period_end FROM financial_metrics WHERE stock_code = 'HD'
                        AND metric_name = 'revenue' AND fiscal_period = 'FY' ORDER BY 1 DESC LIMIT 1""").fetchone()
    assert hd == (2025, 2024, dt.date(2025, 2, 2))
    nvda = con.execute("""SELECT DISTINCT fiscal_year - fiscal_year_label FROM financial_metrics
                          WHERE stock_code IN ('NVDA', 'WMT', 'AAPL')""").fetchall()
    assert nvda == [(0,)]


def test_an_older_warehouse_is_upgraded_from_its_stored_facts(us_home, tmp_path):
    """A warehouse whose metric tables predate the basis columns gets them rebuilt from its own facts on the
    first read-write open: same rows as a fresh ingest."""
    home = tmp_path / "old"
    shutil.copytree(us_home, home)
    con = store.connect(home)
    con.execute("DROP TABLE financial_metrics_as_reported")
    con.execute("ALTER TABLE financial_metrics DROP COLUMN derivation")
    con.execute("ALTER TABLE document_metrics DROP COLUMN rounding")
    con.close()
    con = store.connect(home)
    con.close()
    before, after = _snapshot(us_home), _snapshot(home)
    for table in ("document_metrics", "financial_metrics", "financial_metrics_as_reported"):
        assert after.get(table) == before.get(table), table


def test_restatements_and_basis_breaks_are_listed(us_home):
    """The FY2025 10-K restates FY2024 EPS for the split (12.05 -> 1.21, both 10-Ks' income statements); FY2022
    EPS (3.91, FY2024 10-K) is printed by no later report, so the default series mixes bases there: both are
    findings of `filings coverage`, with the pages of each side."""
    with Filings(us_home, read_only=True) as f:
        result = f.coverage(company="NVDA")
    findings = {(x["identity"], x["fiscal_year"], x["fiscal_period"], x["metric"]): x for x in result["findings"]}
    split = findings[("restated", 2024, "FY", "eps_basic")]
    assert (split["expected"], split["actual"]) == (Decimal("12.05"), Decimal("1.21"))
    assert [s["doc_name"] for s in split["sources"]] == ["nvda-20240128", "nvda-20250126"]
    old = findings[("basis_break", 2022, "FY", "eps_basic")]
    assert old["actual"] == Decimal("3.91") and old["sources"][1]["doc_name"] == "nvda-20250126"
    assert not [x for x in result["findings"] if x["identity"] in ("balance", "gross_profit", "flows", "eps")]
    checked = result["identities_checked"]
    assert checked["balance"] >= 3 and checked["gross_profit"] >= 3 and checked["eps"] >= 3
    present = [r for r in result["rows"] if r["status"] == "present"]
    assert len(present) >= 40 and not [r for r in result["rows"] if r["status"] == "missing" and r["own_period"]]
