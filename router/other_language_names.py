"""A part's name as a filing prints it in the other language: a question asks for the "notebook computer products"
segment of an HK issuer whose report is printed in Chinese only (筆記型電腦產品), or for 大中华区 in a 10-Q that prints
"Greater China". The labels printed on the asked filings' pages (rows' heads, headings) are read against the asked
name word by word through a Chinese-English dictionary (:mod:`mappings.glossary`), and a label is taken only when it
says every word of the name and the name most of its own, and no other label comes close: a segment read from a
guess is a wrong figure, worse than no answer. ``bench/other_language_names.py`` measures it on the names the
corpus's reports print in both languages (precision 0.98 / 0.99 on its two halves).

:func:`name_score` gives how well two names in different languages say the same thing (0..1); :func:`printed_name`
picks the one label of a page's that is the asked part, or None; :func:`row_labels` lists the labels a text prints
at the head of its rows and as headings."""

from __future__ import annotations

import re

from mappings.glossary import chinese_words, english_words, stem
from mappings.metrics import CJK
from warehouse import lookup

MIN_SCORE = 0.75  # a label is the part when its words and the name's cover each other at least this much (mean)
MIN_EACH = 0.6  # a Chinese label's words an English name says: at least this share (all of them when asked)
MARGIN = 0.2  # and no other label comes within this much of it
# words that say a part is a part, not which one: they count on neither side
_GENERIC = frozenset(stem(w) for w in """segment business division unit line sector operation activity product
    category group total region area""".split())
# a name that says what a part is not ("non-current", 非流动) is no name without it
_NOT_ENGLISH = frozenset({"non", "un", "not", "without", "excluding"})
_NOT_CHINESE = frozenset("非不无無未")
# words that say a part is a part, or join two names, in Chinese: they count on neither side
_PART_NOUNS_CHINESE = frozenset("分部 板块 板塊 业务 業務 分类 分類 部门 部門 类 類 区 區 地区 地區 与 與 和 及 以及 或 之 的 并 並".split())
_PART_NOUN_END = re.compile(r"(?:业务|業務|板块|板塊|分部|部门|部門)$")
PREFIX = 5  # a word and a longer one it begins are the same word from this many letters on
LABEL_WORDS = 8  # a label is at most this many English words (more is running text)
_BOTH = re.compile(r"^([A-Za-z][^\u3400-\u9fff]*?)\s+([\u3400-\u9fff][^A-Za-z]*)$")
_LABEL = re.compile(r"^[^\S\n]*([A-Za-z\u3400-\u9fff][^\n\d$¥￥]{1,80}?)[^\S\n]*(?:[（(]?[\d$¥￥-]|$)", re.M)


def name_score(asked: str, label: str) -> float:
    """How well an English and a Chinese name (either way round) cover each other through the dictionary's glosses:
    the mean of the share of the English name's content words some Chinese word glosses (all of them) and the share of
    the Chinese words one of whose glosses the English name says whole (MIN_EACH, or all when the Chinese is asked);
    0 when both are in the same language, either has no content words, or one says what the other's part is not."""
    english, chinese = (asked, label) if not CJK.search(asked) else (label, asked)
    if CJK.search(english) or not CJK.search(chinese):
        return 0.0
    # (a part noun at the end is cut off first, so the dictionary does not join it to the name: 零售金融 业务, not
    # 零售 金融业 务)
    bare = _PART_NOUN_END.sub("", chinese)
    every_word, every_piece = english_words(english), chinese_words(bare if len(bare) >= 2 else chinese)
    if bool(_NOT_ENGLISH & set(every_word)) != any(word in _NOT_CHINESE for word, _ in every_piece):
        return 0.0
    words = [w for w in every_word if w not in _GENERIC | _NOT_ENGLISH]
    pieces = [(word, glosses) for word, glosses in every_piece if glosses
              and word not in _NOT_CHINESE | _PART_NOUNS_CHINESE and not any(g <= _GENERIC for g in glosses)]
    if not words or not pieces:
        return 0.0
    glossed = set().union(*(g for _, glosses in pieces for g in glosses))
    if not all(_said(w, glossed) for w in words):
        return 0.0  # every word of the English name is said, or the label is another ("net current assets" / 流动资产)
    # a Chinese word is said by the English name when one of its glosses is there whole (流动负债 "current
    # liabilities" is not said by "current assets")
    asked_words = set(every_word)
    said = [any(all(_said(g, asked_words) for g in gloss) for gloss in glosses) for _, glosses in pieces]
    # a character the dictionary did not join to the word before it is that word's ending (等价 物: "equivalents")
    said = [s for i, s in enumerate(said) if s or len(pieces[i][0]) > 1 or i == 0 or not said[i - 1]]
    chinese_covered = sum(said) / len(said)
    # every word asked is said too (流动资产净值 is not "current assets"); a Chinese label may say more than an English
    # question (its part noun, its unit)
    if chinese_covered < (1 if chinese == asked else MIN_EACH):
        return 0.0
    return (1 + chinese_covered) / 2


def _said(word: str, words: set[str] | frozenset[str]) -> bool:
    """Is a word among others in one of its forms: the same stem, or one a prefix of the other of at least PREFIX
    letters ("broker" and "brokerage")?"""
    return word in words or (len(word) >= PREFIX and any(
        len(w) >= PREFIX and (w.startswith(word) or word.startswith(w)) for w in words))


def printed_name(asked: str, labels: list[str]) -> str | None:
    """The one label that is the asked part in the other language, or None (none good enough, or two close)."""
    scored = sorted(((name_score(asked, label), label) for label in dict.fromkeys(labels)), reverse=True)
    if not scored or scored[0][0] < MIN_SCORE:
        return None
    best = scored[0][1]
    # a fuller label that holds the best one and is as good a name is the row's whole label ("分部業績" for "業績")
    best = max((label for score, label in scored if score >= MIN_SCORE and best in label), key=len)
    # (a label that says every word of the name and whose words the name says every one of is not in doubt beside
    # labels that say less: only another such label is close)
    margin = 0.0 if scored[0][0] >= 1.0 else MARGIN
    close = [label for score, label in scored[1:] if score >= scored[0][0] - margin and label not in best]
    return None if close else best


def row_labels(text: str) -> list[str]:
    """The labels a text prints at the head of its lines (a table's rows, a heading), in the other script's words
    too: "筆記型電腦產品 (42,868)", "Foundation and site formation works 70,441", "化学业务（WuXi Chemistry）"."""
    out = []
    for m in _LABEL.finditer(text):
        label = re.sub(r"^(?:其中|包括)[：:]", "", m.group(1).strip(" ：:（(.·…–—-_"))  # ("其中：零售金融业务": of which)
        # a Chinese label is cut at its spaces too (a cell beside it: "筆記型電腦產品 設計及銷售商業筆記型電腦"), a row
        # printed in both languages into its two names ("Share capital 股本")
        pieces = re.split(r"[（()）]|(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])", _BOTH.sub(r"\1(\2", label))
        out += [piece.strip() for piece in pieces if len(piece.strip()) >= 2 and len(piece.split()) <= LABEL_WORDS]
    return list(dict.fromkeys(out))


# a part named in running text by the noun that makes it one ("revenue of water supply plant business was ...",
# 来自欧洲市场客户收入5.48亿元): the words before the noun, at most PROSE_WORDS of them in English
PROSE_WORDS = 5
_PROSE_EN = re.compile(r"((?:[A-Za-z][\w&'’-]*\s+){1,%d})(business|segment|division|customers|clients|market|region)\b" % PROSE_WORDS,
                       re.I)
_PROSE_ZH = re.compile(r"([\u4e00-\u9fff]{2,10}?)((?:业务|業務|客户|客戶|板块|板塊|分部|地区|地區|市场|市場)+)")
_LEAD_ZH = re.compile(r"^(?:来自于?|來自於?|其中|以及|报告期内|報告期內|公司|本集团|本集團|集团|集團|的|及|和|与|與)+")


def prose_names(text: str) -> list[str]:
    """The parts a text names in running text, each with every shorter run of its words before the noun ("revenue of
    water supply plant business" -> "water supply plant business", "supply plant business" ...): candidates beside
    :func:`row_labels` for a part's name in the other language."""
    out = []
    for m in _PROSE_EN.finditer(text):
        words = m.group(1).split()
        out += [" ".join([*words[i:], m.group(2)]) for i in range(len(words)) if words[i].casefold() not in _PROSE_STOP]
    for m in _PROSE_ZH.finditer(text):
        head = _LEAD_ZH.sub("", m.group(1))
        out += [head[i:] + m.group(2) for i in range(len(head) - 1)]
    return list(dict.fromkeys(n for n in out if len(n) >= 3))


_PROSE_STOP = frozenset("a an the of in on at for by to from and or its our their this that which was were is are with as".split())


def printed_labels(con, filters: dict, prose: bool = False) -> list[str]:
    """The labels printed on the pages of the documents a search's filters scope (companies, years, report periods):
    the words a part may be printed with in the filings asked about (for a fund without filings of its own, its
    siblings' that print its name: ``warehouse.lookup.filings_printing``); ``prose``: the parts named in running
    text too (:func:`prose_names`)."""
    filters = lookup.filings_printing(con, filters)
    where, params = ["TRUE"], []
    for column in ("company_id", "document_id", "fiscal_year", "fiscal_period"):
        if filters.get(column):
            where.append(f"d.{column} IN (SELECT unnest(?))")
            params.append(list(filters[column]))
    if len(where) == 1:
        return []  # no scope: every filing's words are no one filing's names
    texts = con.execute(f"SELECT p.text FROM pages p JOIN documents d USING (document_id) WHERE {' AND '.join(where)}",
                        params).fetchall()
    return list(dict.fromkeys(label for (text,) in texts for label in [*row_labels(text or ""),
                                                                        *(prose_names(text or "") if prose else [])]))


def other_language_name(names: list[str], labels: list[str]) -> str | None:
    """The first of a part's names (as asked) that one printed label says in the other language: that label."""
    for name in names:
        wanted = [label for label in labels if bool(CJK.search(label)) != bool(CJK.search(name))]
        if (found := printed_name(name, wanted)) is not None:
            return found
    return None
