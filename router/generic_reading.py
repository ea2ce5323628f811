"""Generic words ("profit", 利润) name a metric with the reading stated (``mappings/analysis.yaml``): "What was
Apple's profit in 2024?" is answered from SQL with the metric the vocabulary reads "profit" as, and says so."""

from __future__ import annotations

from mappings.analysis import analysis
from mappings.metrics import display_name
from schema.models import QueryPlan


def generic_reading(plan: QueryPlan) -> tuple[QueryPlan, str | None]:
    """A question that asks for an amount with a generic word ("What was Apple's profit in 2024?") names the
    metric the vocabulary reads it as; the plan goes to SQL and the reading is stated."""
    if plan.metrics or not plan.companies or plan.non_gaap or plan.set_aside:  # a measure kept apart: not read
        return plan, None
    hit = analysis().generic_metric(plan.question)
    if hit is None:
        return plan, None
    word, metric = hit
    intent = "comparison" if len(plan.companies) > 1 else (
        "trend" if plan.last_n_years or len({p.fiscal_year for p in plan.periods}) > 1 else "metric")
    reading = f"“{word}” read as {display_name(metric)} ({metric})"
    return plan.model_copy(update={"metrics": [metric], "intent": intent, "route": "sql", "sections": [],
                                   "notes": [*plan.notes, reading]}), reading
