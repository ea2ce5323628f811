"""The project's own packages resolve inside the repo, data flows one way, and the mapping data is sound."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from mappings.companies import check_master, company_for_code, master, normalise_code
from mappings.metrics import concept_index, label_index, metric_for_label, metrics, normalise_label, ratios
from schema.models import Company, Security

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ["schema", "mappings", "parsers", "warehouse", "vectorstore", "router", "filings"]
# What each package may import of the project (DESIGN.md section 2).
ALLOWED = {
    "schema": {"schema"},  # its own modules only
    "mappings": {"schema", "mappings"},
    "parsers": {"schema", "mappings", "parsers"},
    "warehouse": {"schema", "mappings", "parsers", "warehouse"},
    "vectorstore": {"schema", "mappings", "vectorstore"},
    "router": {"schema", "mappings", "warehouse", "vectorstore", "router"},
    "filings": set(PACKAGES),
}

# The canonical ids outside checks read (DESIGN.md section 3).
CONTRACT_IDS = """revenue cost_of_revenue gross_profit operating_income net_income net_income_parent
net_income_excl_nonrecurring eps_basic eps_diluted total_assets total_liabilities total_equity equity_parent
current_assets current_liabilities cash_and_equivalents inventory accounts_receivable operating_cash_flow
investing_cash_flow financing_cash_flow capex rd_expense selling_expense admin_expense interest_expense
income_tax shares_outstanding""".split()


@pytest.mark.parametrize("name", PACKAGES)
def test_packages_resolve_inside_the_repo(name):
    module = importlib.import_module(name)
    assert Path(module.__file__).resolve().parent == REPO / name


@pytest.mark.parametrize("name", PACKAGES)
def test_data_flows_one_way(name):
    for file in (REPO / name).rglob("*.py"):
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            mods = []
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                mods = [node.module]
            for mod in mods:
                top = mod.split(".")[0]
                if top in PACKAGES:
                    assert top in ALLOWED[name], f"{file.relative_to(REPO)} imports {mod}"


def test_every_contract_metric_is_mapped():
    catalogue = metrics()
    assert set(CONTRACT_IDS) <= set(catalogue)
    for mid in CONTRACT_IDS:
        m = catalogue[mid]
        assert m.name_en and m.name_zh and m.aliases, mid
    # every us-gaap concept names at most one metric at each priority rank
    assert concept_index()["us-gaap:Assets"] == [("total_assets", 0)]


def test_labels_normalise_like_printed_statements():
    assert normalise_label("减：营业成本") == "营业成本"
    assert normalise_label("其中：营业收入") == "营业收入"
    assert normalise_label("一、营业总收入") == normalise_label("营业总收入")
    assert normalise_label("（一）基本每股收益（元/股）") == "基本每股收益(元/股)"
    assert normalise_label("Less:  Cost of Sales") == "cost of sales"
    assert normalise_label("五、净利润（净亏损以“－”号填列）") == "净利润"


def test_label_maps_reference_known_metrics():
    for market in ("A", "HK"):
        for (statement, _label), (mid, _rank) in label_index(market).items():
            assert mid in metrics()
            assert statement in {"income", "balance", "cashflow", "key_figures"}


def test_ratio_formulas_use_known_metrics():
    from mappings.formulas import check, metrics_of

    assert check(ratios(), set(metrics())) == []
    for rid, spec in ratios().items():
        for formula in [spec["formula"], *spec.get("fallbacks", [])]:
            for name in metrics_of(formula):
                assert name in metrics(), f"{rid}: {name}"
    # the loader refuses what the language does not allow
    bad = {"x": {"name_en": "x", "name_zh": "x", "unit": "ratio", "formula": "__import__('os')"},
           "y": {"name_en": "y", "name_zh": "y", "unit": "ratio", "formula": "revenue / no_such_metric"}}
    problems = check(bad, set(metrics()))
    assert any(p.startswith("x:") for p in problems) and any("no_such_metric" in p for p in problems)


def test_company_master_has_no_collisions_and_links_listings():
    companies, securities = master()
    assert check_master(companies, securities) == []
    # one company, several listings
    assert company_for_code("603259").company_id == company_for_code("2359.HK").company_id == "wuxi_apptec"
    assert company_for_code("02359").company_id == "wuxi_apptec"
    assert company_for_code("6821").company_id == company_for_code("002821").company_id


def test_alias_collision_check_reports_problems():
    a = Company(company_id="a_co", name_en="Alpha Holdings", aliases=["Alpha"])
    b = Company(company_id="b_co", name_en="Beta", aliases=["alpha", "Technology", "700"])
    problems = check_master([a, b], [Security(stock_code="AAA", company_id="a_co", market="US", listing="US"),
                                     Security(stock_code="AAA", company_id="b_co", market="US", listing="US")])
    text = "\n".join(problems)
    assert "alias 'alpha' names both a_co and b_co" in text
    assert "generic word" in text and "bare number" in text
    assert "listing AAA belongs to both" in text


@pytest.mark.parametrize("raw,code", [("700", "0700.HK"), ("00700", "0700.HK"), ("0700.HK", "0700.HK"),
                                      ("hk0700", "0700.HK"), ("600519", "600519"), ("600519.SH", "600519"),
                                      ("aapl", "AAPL"), ("BRK-B", "BRK-B")])
def test_listing_codes_have_one_spelling(raw, code):
    assert normalise_code(raw) == code


def test_metric_for_label_uses_statement_context():
    hit = metric_for_label("A", "balance", "资产总计")
    assert hit is not None and hit[0] == "total_assets"
    assert metric_for_label("A", "income", "资产总计") is None
