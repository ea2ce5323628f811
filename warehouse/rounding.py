"""How precisely a figure is printed, and how far two printings of the same amount may differ.

A printed figure is rounded to a unit: "1,234" in HK$'000 to 10^3, "1,234.56" in 元 to 10^-2, an XBRL fact
with decimals=-6 to 10^6. Each printing is within half a unit of the true amount, so a sum of n printed
terms is within n half-units, and two printings of one amount are within the two half-units. Identities and
the ``restated`` flag use these tolerances and nothing looser.
"""

from __future__ import annotations

import re
from decimal import Decimal

from schema.models import Fact

# A printed figure is within half a unit of its last printed digit of the true amount (round half-up or even).
HALF_UNIT = Decimal("0.5")
# Rounding assumed for a figure whose precision is unknown (a value with neither decimals nor printed text):
# whole units of the currency, the coarsest precision any statement in the corpus prints without a scale word.
UNKNOWN_ROUNDING = 0


def rounding_of(fact: Fact) -> int | None:
    """The power of ten a fact's value is rounded to; None for an exact XBRL value (decimals="INF")."""
    if fact.concept is not None:
        if fact.decimals is not None:
            return -fact.decimals
        return None if fact.value_text is None else _printed_rounding(fact.value_text, 0)
    scale = fact.scale or 0
    if fact.value_text:
        return _printed_rounding(fact.value_text, scale)
    return scale


def _printed_rounding(text: str, scale: int) -> int:
    """"1,234.56" at scale 0 -> -2; "52,329" in 百万元 (scale 6) -> 6."""
    match = re.search(r"\.(\d+)", text.replace(",", ""))
    return scale - (len(match.group(1)) if match else 0)


def half_unit(rounding: int | None) -> Decimal:
    """Half a unit of the printed precision (0 for exact values)."""
    if rounding is None:
        return Decimal(0)
    return HALF_UNIT * Decimal(10) ** rounding


def tolerance(*roundings: int | None) -> Decimal:
    """How far a sum or difference of printed figures may be from the exact result: one half-unit per term."""
    return sum((half_unit(r) for r in roundings), Decimal(0))


def agree(a: Decimal, b: Decimal, rounding_a: int | None, rounding_b: int | None) -> bool:
    """Two printings of what should be one amount agree within their rounding."""
    return abs(a - b) <= tolerance(rounding_a, rounding_b)
