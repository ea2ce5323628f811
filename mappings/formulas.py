"""The formula language of ``ratios.yaml``, parsed and checked on load (evaluation is the router's).

A formula is arithmetic (+ - * / and parentheses, numeric constants) over canonical metric ids of one
listing and period, plus two functions an analyst's definitions need:
- ``prev(m)``: the metric at the same period of the prior fiscal year (a change in inventory:
  ``inventory - prev(inventory)``);
- ``avg(m)``: the mean of the metric at this period and at the same period of the prior fiscal year (the
  "average total assets between FY2016 and FY2017" of turnover and return ratios).
Formulas are parsed with Python's ``ast``; only these nodes are accepted and nothing is ever executed."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache

OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.Div)
FUNCTIONS = {"prev": (1,), "avg": (0, 1)}  # function -> the years back it reads
UNITS = {"percent", "ratio", "money", "days"}


@dataclass(frozen=True)
class Input:
    """One stored value a formula reads: the metric and how many years back (0 this period, 1 the prior year)."""

    metric: str
    years_back: int


@lru_cache(maxsize=512)
def parse(formula: str) -> ast.Expression:
    """The checked syntax tree of a formula; ValueError names what is not allowed."""
    try:
        tree = ast.parse(formula, mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"{formula!r}: not a formula ({exc.msg})") from None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if not (isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS and len(node.args) == 1
                    and isinstance(node.args[0], ast.Name) and not node.keywords):
                raise ValueError(f"{formula!r}: only {' and '.join(f'{f}(metric)' for f in FUNCTIONS)} may be called")
        elif isinstance(node, ast.Constant):
            if not isinstance(node.value, (int, float)) or isinstance(node.value, bool):
                raise ValueError(f"{formula!r}: only numeric constants")
        elif not isinstance(node, (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Name, ast.Load, ast.USub,
                                   *OPERATORS)):
            raise ValueError(f"{formula!r}: unsupported expression {type(node).__name__}")
    return tree


def inputs(formula: str) -> list[Input]:
    """The stored values a formula reads, in the order they appear."""
    out: list[Input] = []

    def walk(node: ast.AST) -> None:
        if isinstance(node, ast.Call):
            out.extend(Input(node.args[0].id, y) for y in FUNCTIONS[node.func.id])
        elif isinstance(node, ast.Name):
            out.append(Input(node.id, 0))
        else:
            for child in ast.iter_child_nodes(node):
                walk(child)

    walk(parse(formula))
    return list(dict.fromkeys(out))


def metrics_of(formula: str) -> list[str]:
    return list(dict.fromkeys(i.metric for i in inputs(formula)))


def check(ratios: dict, known_metrics: set[str]) -> list[str]:
    """Problems in ratios.yaml: a missing name, unit or formula, unsupported syntax, unknown metric ids."""
    problems = []
    for rid, spec in ratios.items():
        if not isinstance(spec, dict):
            problems.append(f"{rid}: expected a mapping")
            continue
        for key in ("name_en", "name_zh", "formula", "unit"):
            if not spec.get(key):
                problems.append(f"{rid}: no {key}")
        if spec.get("unit") and spec["unit"] not in UNITS:
            problems.append(f"{rid}: unit must be one of {', '.join(sorted(UNITS))}")
        if rid in known_metrics:
            problems.append(f"{rid}: a ratio id may not be a metric id")
        for formula in [spec.get("formula"), *(spec.get("fallbacks") or [])]:
            if not formula:
                continue
            try:
                unknown = [m for m in metrics_of(formula) if m not in known_metrics]
            except ValueError as exc:
                problems.append(f"{rid}: {exc}")
                continue
            if unknown:
                problems.append(f"{rid}: unknown metric(s) {', '.join(unknown)} in {formula!r}")
    return problems
