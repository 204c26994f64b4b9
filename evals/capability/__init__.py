"""The authored corpora as package data: corpus v3, its frozen holdout and digest, the formation corpus."""
