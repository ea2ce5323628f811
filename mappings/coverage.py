"""What `filings coverage` expects each report to print (``coverage.yaml``), checked on load."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from mappings.metrics import HERE, label_index, load_yaml, metrics
from schema.errors import ConfigError

STATEMENTS = ("income", "balance", "cashflow")


@dataclass(frozen=True)
class CoverageSpec:
    kinds: dict[str, dict[str, tuple[str, ...]]]  # market -> report kind -> core metric ids
    statement: dict[str, str]  # metric id -> default statement

    def core(self, market: str | None, form: str | None) -> tuple[str, ...]:
        return self.kinds.get(market or "", {}).get(form or "", ())

    def statements_of(self, market: str, metric: str) -> frozenset[str]:
        """The primary statements a market prints a metric in (its label file, else the default)."""
        found = {st for (st, _label), (mid, _rank) in label_index(market).items() if mid == metric and st in STATEMENTS}
        return frozenset(found or {self.statement[metric]})

    def in_key_figures(self, market: str, metric: str) -> bool:
        return any(st == "key_figures" and mid == metric for (st, _l), (mid, _r) in label_index(market).items())


@lru_cache(maxsize=1)
def coverage_spec() -> CoverageSpec:
    data = load_yaml("coverage.yaml")
    path = HERE / "coverage.yaml"
    known = metrics()
    sets = {name: tuple(ids) for name, ids in (data.get("sets") or {}).items()}
    for name, ids in sets.items():
        unknown = [m for m in ids if m not in known]
        if unknown:
            raise ConfigError(f"{path}: set {name!r} names unknown metric ids {unknown}")
        if len(set(ids)) != len(ids):
            raise ConfigError(f"{path}: set {name!r} lists a metric twice")
    kinds: dict[str, dict[str, tuple[str, ...]]] = {}
    for market, forms in (data.get("kinds") or {}).items():
        if market not in ("A", "HK", "US"):
            raise ConfigError(f"{path}: unknown market {market!r}")
        for form, set_name in (forms or {}).items():
            if set_name not in sets:
                raise ConfigError(f"{path}: {market} {form} uses unknown set {set_name!r}")
            kinds.setdefault(market, {})[str(form)] = sets[set_name]
    statement = {str(m): str(s) for m, s in (data.get("statement") or {}).items()}
    for m, s in statement.items():
        if m not in known or s not in STATEMENTS:
            raise ConfigError(f"{path}: statement of {m!r} must be a known metric and one of {STATEMENTS}")
    missing = {m for ids in sets.values() for m in ids} - set(statement)
    if missing:
        raise ConfigError(f"{path}: no default statement for {sorted(missing)}")
    return CoverageSpec(kinds=kinds, statement=statement)
