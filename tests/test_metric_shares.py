"""One metric as a share of another ("研发费用占营业收入的比例", "R&D as a percentage of revenue") is the ratio of the
two, computed like any ratio; a ratio ratios.yaml already defines is that ratio. Values from 四方科技's 2019 annual
report: 研发费用 48,428,964.78 (p64), 营业收入 1,175,301,034.32 (p63); p14 prints 研发投入总额占营业收入比例（%） 4.12."""

from __future__ import annotations

from decimal import Decimal

import pytest

from conftest import ingested_home
from filings import Filings
from router.plan import find_metrics, metric_mentions, shares


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    home = ingested_home(tmp_path_factory, "metric_shares", [("cn", "603339_sifangkeji_2019_annual.pdf")], dense=False)
    with Filings(home, read_only=True) as fx:
        yield fx


@pytest.mark.parametrize("question, metric", [
    ("研发费用占营业收入的比例", "rd_expense_ratio"),  # ratios.yaml names it 研发费用率
    ("销售费用占营业收入比重", "selling_expense_ratio"),
    ("R&D expense as a percentage of revenue", "rd_expense_ratio"),
    ("管理费用占营业收入的比例", "admin_expense_ratio"),
    ("所得税费用占营业收入的比例", "income_tax_share_of_revenue"),  # no named entry: made from the two
    ("the ratio of capex to revenue", "capex_to_revenue"),  # ratios.yaml has capex / revenue
    ("capex to revenue ratio", "capex_to_revenue"),
])
def test_a_share_of_another_metric_is_their_ratio(question, metric):
    assert [mid for *_, mid in shares(question, metric_mentions(question))] == [metric]


@pytest.mark.parametrize("question", ["研发费用和营业收入", "R&D expense and revenue", "revenue to 2024"])
def test_two_metrics_side_by_side_are_two(question):
    assert len([mid for *_, mid in shares(question, metric_mentions(question))]) == len(find_metrics(question))


def test_the_share_is_computed_from_the_statements(f):
    answer = f.ask("四方科技2019年研发费用占营业收入的比例")
    [row] = [r for r in answer.rows if r.metric == "rd_expense_ratio"]  # beside its two inputs
    expected = Decimal("48428964.78") / Decimal("1175301034.32")
    assert abs(Decimal(str(row.value)) - expected) < Decimal("1e-9")
    assert "4.12%" in answer.answer  # as p14 prints it, rounded


def test_a_share_of_a_metric_not_stored_is_quoted_as_printed(f):
    # 研发投入 (expensed and capitalised) is not stored: the printed share is quoted
    answer = f.ask("四方科技2019年研发投入占营业收入的比例")
    assert answer.status == "answered" and not answer.rows
    assert any("4.12" in p.text and "研发投入总额占营业收入比例" in p.text for p in answer.passages)


@pytest.mark.parametrize("question, aside", [
    ("What were staff costs as a percentage of revenue in 2019?", "revenue"),
    ("现金分红占归母净利润的比例", "net_income_parent"),
    ("企業融資收入佔總收入多少", "revenue"),
    ("What share of the company's revenue came from services?", "revenue"),
])
def test_a_share_whose_other_side_is_no_metric_is_not_answered_with_the_metric(f, question, aside):
    plan = f.plan(question)
    assert plan.metrics == [] and plan.set_aside == [aside] and plan.route == "search"
    from router.generic_reading import generic_reading
    assert generic_reading(plan)[0].metrics == []  # nor read back from a generic word ("收入")
