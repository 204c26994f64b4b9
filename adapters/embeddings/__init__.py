"""Embedding adapters (domain.beliefs.embedding.Embedder): the bundled WordLlama model and any
OpenAI-compatible embeddings endpoint, chosen by settings (factory.embedder_for)."""
