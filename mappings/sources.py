"""Fetch vocabulary (``sources.yaml``): the report kinds each market's source lists, the words users give to
``--forms``, and the title / category words that classify an announcement. Checked on load: every alias
and default names a known kind, no word is listed twice, every pattern compiles."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from mappings.metrics import load_yaml
from schema.errors import ConfigError

MARKETS = ("US", "A", "HK")
FILE = "sources.yaml"


@dataclass(frozen=True)
class SecForm:
    form: str
    exhibits: tuple[str, ...]
    items: tuple[str, ...]  # 8-K items that make a filing a results filing; empty: every filing of the form


@dataclass(frozen=True)
class Vocabulary:
    kinds: dict[str, tuple[str, ...]]  # market -> every kind its source can list
    aliases: dict[str, dict[str, tuple[str, ...]]]  # word -> market -> kinds
    defaults: dict[str, tuple[str, ...]]
    languages: dict[str, tuple[str, ...]]
    sec_forms: dict[str, SecForm]
    sec_amendment_suffix: str
    sec_support: tuple[str, ...]
    cninfo_categories: dict[str, str]
    cninfo_kinds: tuple[tuple[str, re.Pattern], ...]
    cninfo_year: re.Pattern
    cninfo_english: tuple[str, ...]
    cninfo_corrected: tuple[str, ...]
    cninfo_not_reports: tuple[str, ...]
    hkex_queries: dict[str, dict[str, int]]
    hkex_categories: dict[str, tuple[str, ...]]
    hkex_corrected: tuple[str, ...]

    def kinds_for(self, words: list[str] | tuple[str, ...] | None, market: str) -> tuple[str, ...]:
        """The kinds of ``market`` that ``--forms`` words mean (defaults when none are given)."""
        if not words:
            return self.defaults[market]
        out: list[str] = []
        for word in words:
            key = word.strip()
            found = self.aliases.get(key.lower(), {}).get(market) or (
                (key.upper(),) if key.upper() in self.kinds[market] else
                (key.lower(),) if key.lower() in self.kinds[market] else ())
            out += [k for k in found if k not in out]
        return tuple(out)

    def unknown_forms(self, words: list[str] | tuple[str, ...]) -> list[str]:
        """Words that mean nothing in any market."""
        known = {k.lower() for ks in self.kinds.values() for k in ks} | set(self.aliases)
        return [w for w in words if w.strip().lower() not in known]

    def all_form_words(self) -> list[str]:
        return sorted(set(self.aliases) | {k for ks in self.kinds.values() for k in ks})


def _strings(value, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, (str, int)) for v in value):
        raise ConfigError(f"{FILE}: {where} must be a list of words")
    words = tuple(str(v) for v in value)
    dupes = sorted({w for w in words if words.count(w) > 1})
    if dupes:
        raise ConfigError(f"{FILE}: {where} lists {', '.join(dupes)} twice")
    return words


def _pattern(text: str, where: str) -> re.Pattern:
    try:
        return re.compile(text)
    except re.error as exc:
        raise ConfigError(f"{FILE}: {where}: invalid pattern {text!r} ({exc})") from None


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    data = load_yaml(FILE)
    try:
        sec, cninfo, hkex = data["sec"], data["cninfo"], data["hkex"]
        sec_forms = {str(form): SecForm(str(form), _strings(spec.get("exhibits") or [], f"sec.forms.{form}.exhibits"),
                                        _strings(spec.get("items") or [], f"sec.forms.{form}.items"))
                     for form, spec in sec["forms"].items()}
        cn_kinds = tuple((str(e["kind"]), _pattern(str(e["pattern"]), f"cninfo.kinds.{e['kind']}")) for e in cninfo["kinds"])
        kinds = {
            "US": tuple(sec_forms),
            "A": tuple(dict.fromkeys(k for k, _ in cn_kinds)),
            "HK": tuple(str(k) for k in hkex["queries"]),
        }
        vocab = Vocabulary(
            kinds=kinds,
            aliases={str(w).lower(): {m: _strings(ks, f"aliases.{w}.{m}") for m, ks in per.items()}
                     for w, per in data["aliases"].items()},
            defaults={m: _strings(data["defaults"][m], f"defaults.{m}") for m in MARKETS},
            languages={m: _strings(v, f"languages.{m}") for m, v in data["languages"].items()},
            sec_forms=sec_forms,
            sec_amendment_suffix=str(sec["amendment_suffix"]),
            sec_support=_strings(sec.get("support") or [], "sec.support"),
            cninfo_categories={str(k): str(v) for k, v in cninfo["categories"].items()},
            cninfo_kinds=cn_kinds,
            cninfo_year=_pattern(str(cninfo["year"]), "cninfo.year"),
            cninfo_english=_strings(cninfo["english"], "cninfo.english"),
            cninfo_corrected=_strings(cninfo["corrected"], "cninfo.corrected"),
            cninfo_not_reports=_strings(cninfo["not_reports"], "cninfo.not_reports"),
            hkex_queries={str(k): {p: int(v) for p, v in q.items()} for k, q in hkex["queries"].items()},
            hkex_categories={str(k): _strings(v, f"hkex.categories.{k}") for k, v in hkex["categories"].items()},
            hkex_corrected=_strings(hkex["corrected"], "hkex.corrected"),
        )
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise ConfigError(f"{FILE}: missing or malformed entry ({type(exc).__name__}: {exc})") from None
    problems = check(vocab)
    if problems:
        raise ConfigError(f"{FILE}: " + "; ".join(problems))
    return vocab


def check(v: Vocabulary) -> list[str]:
    """Every alias, default, category and query names a kind its market's source lists; no word does two jobs."""
    problems = []
    for word, per in v.aliases.items():
        for market, kinds in per.items():
            if market not in MARKETS:
                problems.append(f"alias {word!r}: unknown market {market!r}")
                continue
            problems += [f"alias {word!r} ({market}): unknown kind {k!r}" for k in kinds if k not in v.kinds[market]]
    for market, kinds in v.defaults.items():
        problems += [f"defaults.{market}: unknown kind {k!r}" for k in kinds if k not in v.kinds[market]]
    problems += [f"cninfo.categories: unknown kind {k!r}" for k in v.cninfo_categories if k not in v.kinds["A"]]
    problems += [f"cninfo kind {k!r} has no category" for k in v.kinds["A"] if k not in v.cninfo_categories]
    problems += [f"hkex.categories: unknown kind {k!r}" for k in v.hkex_categories if k not in v.kinds["HK"]]
    problems += [f"hkex kind {k!r} has no category words" for k in v.kinds["HK"] if k not in v.hkex_categories]
    owners: dict[str, str] = {}
    for kind, words in v.hkex_categories.items():
        for w in words:
            other = owners.setdefault(w.casefold(), kind)
            if other != kind:
                problems.append(f"hkex category {w!r} names both {other} and {kind}")
    overlap = set(v.cninfo_corrected) & set(v.cninfo_not_reports)
    problems += [f"cninfo word {w!r} is both a correction marker and a not-a-report marker" for w in sorted(overlap)]
    for market, langs in v.languages.items():
        problems += [f"languages.{market}: unknown language {lang!r}" for lang in langs if lang not in ("zh", "en")]
    return problems
