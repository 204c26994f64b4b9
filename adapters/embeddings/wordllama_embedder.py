"""The bundled default: WordLlama's l2_supercat 256-dimension static embeddings, read from the files its wheel
ships (about 16 MB), with downloads disabled, so nothing reaches the network at run time.

WordLlama.load() looks for the tokenizer in a folder its wheel does not have (`tokenizer/`) before its cache
folder's `tokenizers/`, which is the wheel's own folder name: naming the package's directory as the cache
finds both files where the wheel put them.
"""

import logging
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

import numpy as np


def _import_wordllama() -> ModuleType:
    # wordllama calls logging.basicConfig(level=INFO) at import, which would print every library's INFO
    # records on the console of whatever process embeds; keep the root logger as the process configured it.
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    import wordllama

    root.handlers[:] = handlers
    root.setLevel(level)
    return wordllama


wordllama = _import_wordllama()

MODEL: Final = "wordllama/l2_supercat_256"
DIMENSION: Final = 256


class WordLlamaEmbedder:
    def __init__(self) -> None:
        self._model = wordllama.WordLlama.load(
            "l2_supercat",
            cache_dir=Path(str(wordllama.__file__)).parent,
            dim=DIMENSION,
            disable_download=True,
        )

    @property
    def model(self) -> str:
        return MODEL

    @property
    def dimension(self) -> int:
        return DIMENSION

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = np.asarray(self._model.embed(list(texts), norm=True), dtype=np.float32)
        return [[float(x) for x in row] for row in vectors]
