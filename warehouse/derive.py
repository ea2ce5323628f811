"""Values a report does not print, derived from values it and other reports do print.

Derived values are stored with ``source_kind = 'derived'``, the formula and every input (period, value,
document, page) in ``derivation``, and no page of their own: they are never shown as printed. A derived value
never replaces a printed one: a key gets one only when no report prints it.

- Single quarters of flows (A-share and HK reports print year-to-date): Q2 = H1 - Q1, Q3 = 9M - H1,
  Q4 = FY - 9M, from the values of the same basis. Money flows only: per-share figures do not subtract
  (share counts change within a year), and instants are never derived by subtraction across periods.
- Balance totals from one report's own balance sheet when no total is printed (``BALANCE_RULES``): total
  assets = non-current + current assets, or total liabilities + total equity; total liabilities = non-current
  + current liabilities, or total assets - total equity.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import replace
from decimal import Decimal

from mappings.metrics import metrics as metric_catalogue
from warehouse.basis import Candidate, order_key

# (derived period, minuend period, subtrahend period): a single quarter as the difference of two
# year-to-date flows that end where it ends and where it starts.
QUARTER_RULES = (("Q2", "H1", "Q1"), ("Q3", "9M", "H1"), ("Q4", "FY", "9M"))

# (derived metric, sign per input metric): balance-sheet totals from one report's own figures, in order of
# preference; the first rule whose inputs one report prints for the date wins. HK balance sheets print section
# subtotals ("Non-current assets", "Current assets", "Current liabilities", "Non-current liabilities") and no
# total assets or total liabilities line; a total derived by one rule is an input of the next
# (total liabilities = total assets - total equity where no non-current liabilities are printed).
BALANCE_RULES = (
    ("total_assets", (("non_current_assets", 1), ("current_assets", 1))),
    ("total_assets", (("assets_less_current_liabilities", 1), ("current_liabilities", 1))),
    ("total_assets", (("total_liabilities", 1), ("total_equity", 1))),
    ("total_liabilities", (("non_current_liabilities", 1), ("current_liabilities", 1))),
    ("total_liabilities", (("total_assets", 1), ("total_equity", -1))),
)


def _input(c: Candidate) -> dict:
    return {"fiscal_year": c.fiscal_year, "fiscal_period": c.fiscal_period, "period_end": c.period_end.isoformat(),
            "metric": c.metric_name, "value": format(c.metric_value, "f"), "document_id": c.document_id,
            "page": c.page, "source_kind": c.source_kind}


def _derived(base: Candidate, metric: str, period: str, value: Decimal, formula: str,
             inputs: list[Candidate]) -> Candidate:
    return replace(
        base, metric_name=metric, fiscal_period=period, metric_value=value, page=None, source_kind="derived",
        original_label=formula, concept=None, statement=None,
        rounding=max((c.rounding for c in inputs if c.rounding is not None), default=None),
        restated=any(c.restated for c in inputs),
        derivation={"formula": formula, "inputs": [_input(c) for c in inputs]},
    )


def derive_quarters(chosen: dict[tuple, Candidate]) -> list[Candidate]:
    """Single quarters of money flows from the year-to-date values chosen on one basis."""
    catalogue = metric_catalogue()
    out = []
    for (code, year, period, metric), minuend in chosen.items():
        spec = catalogue.get(metric)
        if spec is None or spec.kind != "money" or spec.period != "duration" or minuend.source_kind == "derived":
            continue
        for target, whole, part in QUARTER_RULES:
            if period != whole or (code, year, target, metric) in chosen:
                continue
            sub = chosen.get((code, year, part, metric))
            if sub is None or sub.source_kind == "derived" or sub.currency != minuend.currency:
                continue
            if sub.period_end >= minuend.period_end:
                continue
            formula = f"{target} = {whole} - {part}"
            out.append(_derived(minuend, metric, target, minuend.metric_value - sub.metric_value, formula,
                                [minuend, sub]))
    return out


def derive_balance(groups: dict[tuple, list[Candidate]], chosen: dict[tuple, Candidate],
                   basis: str) -> list[Candidate]:
    """Balance totals a report does not print, from other figures of the same report and date."""
    out = []
    periods = {(code, year, period) for code, year, period, _ in groups}
    for code, year, period in sorted(periods):
        made: dict[str, Candidate] = {}  # target -> derived here (an input of a later rule)
        for target, terms in BALANCE_RULES:
            if (code, year, period, target) in chosen or target in made:
                continue
            by_doc: dict[tuple, dict[str, Candidate]] = defaultdict(dict)  # report -> metric -> its value
            for metric, _sign in terms:
                for c in [*groups.get((code, year, period, metric), []),
                          *([made[metric]] if metric in made else [])]:
                    by_doc[c.report][metric] = c
            complete = [d for d in by_doc.values() if len(d) == len(terms)]
            if not complete:
                continue
            best = min(complete, key=lambda d: order_key(basis)(d[terms[0][0]]))
            inputs = [best[m] for m, _ in terms]
            if len({c.period_end for c in inputs}) != 1 or len({c.currency for c in inputs}) != 1:
                continue
            value = sum((c.metric_value * sign for c, (_, sign) in zip(inputs, terms)), Decimal(0))
            formula = f"{target} = " + " ".join(
                (("+ " if sign > 0 else "- ") if i else ("" if sign > 0 else "- ")) + m
                for i, (m, sign) in enumerate(terms))
            made[target] = _derived(inputs[0], target, period, value, formula, inputs)
        out += made.values()
    return out


def derive(groups: dict[tuple, list[Candidate]], chosen: dict[tuple, Candidate], basis: str) -> Iterable[Candidate]:
    """Every derived value for the listings in ``groups`` on one basis (printed keys are never touched)."""
    balance = derive_balance(groups, chosen, basis)
    return [*balance, *derive_quarters(chosen)]
