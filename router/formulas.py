"""Exact evaluation of the ratio formulas of ``mappings/ratios.yaml`` (language: ``mappings.formulas``)."""

from __future__ import annotations

import ast
import operator
from decimal import Decimal, DivisionByZero, InvalidOperation

from mappings.formulas import Input, parse
from mappings.metrics import ratios

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def formulas_of(rid: str) -> list[str]:
    """The formula of a ratio and its fallbacks, in the order they are tried."""
    spec = ratios()[rid]
    return [spec["formula"], *(spec.get("fallbacks") or [])]


def evaluate(formula: str, values: dict[Input, Decimal]) -> Decimal | None:
    """Exact value of the formula; None when an input is missing or a division is by zero."""

    def ev(node: ast.AST) -> Decimal:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.BinOp):
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp):
            return -ev(node.operand)
        if isinstance(node, ast.Call):
            name = node.args[0].id
            if node.func.id == "prev":
                return values[Input(name, 1)]
            return (values[Input(name, 0)] + values[Input(name, 1)]) / 2
        if isinstance(node, ast.Name):
            return values[Input(node.id, 0)]
        return Decimal(str(node.value))  # a numeric constant (parse() admits nothing else)

    try:
        return ev(parse(formula))
    except (KeyError, DivisionByZero, InvalidOperation, ZeroDivisionError):
        return None
