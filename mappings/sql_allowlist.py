"""The SQL allow-list (``sql_allowlist.yaml``): the functions, table functions and extra relations that
read-only SQL over the warehouse may name. Checked on load: every name is a string, lower case, listed once."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from mappings.metrics import load_yaml
from schema.errors import ConfigError

FILE = "sql_allowlist.yaml"
FUNCTION_GROUPS = ("operators", "aggregates", "window", "numeric", "string", "date_time", "list_struct_map", "json",
                   "conditional_and_types", "special_forms")


@dataclass(frozen=True)
class AllowList:
    functions: frozenset[str]  # scalar, aggregate and window functions and operators
    table_functions: frozenset[str]
    relations: frozenset[tuple[str, str]]  # (schema, name) beyond the warehouse's own tables
    groups: dict[str, tuple[str, ...]]  # group -> names, for listings


def _names(data: dict, key: str) -> list[str]:
    raw = data.get(key) or []
    if not isinstance(raw, list) or not all(isinstance(n, str) and n.strip() for n in raw):
        raise ConfigError(f"mappings/{FILE}: '{key}' must be a list of names")
    bad = [n for n in raw if n != n.strip().lower()]
    if bad:
        raise ConfigError(f"mappings/{FILE}: names must be lower case without spaces ({', '.join(bad)})")
    return raw


@lru_cache(maxsize=1)
def allowlist() -> AllowList:
    data = load_yaml(FILE)
    if not data:
        raise ConfigError(f"mappings/{FILE} is missing or empty: no SQL would be admitted")
    unknown = set(data) - {"relations", "table_functions", *FUNCTION_GROUPS}
    if unknown:
        raise ConfigError(f"mappings/{FILE}: unknown groups {', '.join(sorted(unknown))}")
    groups: dict[str, tuple[str, ...]] = {}
    seen: dict[str, str] = {}
    for group in FUNCTION_GROUPS:
        names = _names(data, group)
        for n in names:
            if n in seen:
                raise ConfigError(f"mappings/{FILE}: {n!r} is listed twice ({seen[n]} and {group})")
            seen[n] = group
        groups[group] = tuple(names)
    table_functions = _names(data, "table_functions")
    if len(set(table_functions)) != len(table_functions):
        raise ConfigError(f"mappings/{FILE}: a table function is listed twice")
    relations = set()
    rel = data.get("relations") or {}
    if not isinstance(rel, dict):
        raise ConfigError(f"mappings/{FILE}: 'relations' must map a schema to a list of names")
    for schema_name, names in rel.items():
        for n in _names({"x": names}, "x"):
            relations.add((str(schema_name).lower(), n))
    groups["table_functions"] = tuple(table_functions)
    return AllowList(functions=frozenset(seen), table_functions=frozenset(table_functions),
                     relations=frozenset(relations), groups=groups)
