"""Vocabulary of the identities over printed rows (``identities.yaml``), loaded once and checked."""

from __future__ import annotations

import re
from functools import lru_cache

from mappings.metrics import HERE, load_yaml
from schema.errors import ConfigError

FILE = "identities.yaml"
ROLLFORWARD_ROLES = ("opening", "closing", "net_change", "fx")  # tried in this order on each label


@lru_cache(maxsize=1)
def cash_rollforward_rules() -> tuple[dict[str, bool], dict[str, tuple[re.Pattern, ...]]]:
    """(market -> whether the exchange-rate effect is added to the net change, role -> label patterns) of the
    cash roll-forward identity."""
    spec = load_yaml(FILE).get("cash_rollforward") or {}
    rules: dict[str, tuple[re.Pattern, ...]] = {}
    for role in ROLLFORWARD_ROLES:
        pats = spec.get(role) or []
        if not pats:
            raise ConfigError(f"{HERE / FILE}: cash_rollforward.{role}: no patterns")
        try:
            rules[role] = tuple(re.compile(p) for p in pats)
        except re.error as exc:
            raise ConfigError(f"{HERE / FILE}: cash_rollforward.{role}: bad pattern ({exc})") from None
    markets = {str(m): bool((opts or {}).get("fx_added")) for m, opts in (spec.get("markets") or {}).items()}
    if not markets:
        raise ConfigError(f"{HERE / FILE}: cash_rollforward.markets: none")
    return markets, rules
