"""The real OpenAI SDK, through the embeddings adapter, against the local server speaking /v1/embeddings."""

import math

import pytest

from adapters.embeddings.openai_embedder import OpenAIEmbedder
from domain.errors import EmbeddingFailed
from tests.providers.wire_server import EmbeddingsReply, JsonReply, Slow, WireServer, openai_error


def embedder(wire: WireServer, dimension: int = 8, **kwargs: object) -> OpenAIEmbedder:
    return OpenAIEmbedder(
        "text-embedding-3-small",
        dimension,
        api_key="test-key",
        base_url=f"{wire.base_url}/v1",
        **kwargs,  # type: ignore[arg-type]
    )


def test_texts_are_sent_with_the_dimension_and_come_back_as_unit_vectors_in_order(wire: WireServer) -> None:
    wire.script(EmbeddingsReply(dimension=8))
    vectors = embedder(wire).embed(["User has a dog.", "any pets?"])
    sent = wire.last
    assert sent.path == "/v1/embeddings"
    assert sent.headers["authorization"] == "Bearer test-key"
    assert sent.body == {
        "model": "text-embedding-3-small",
        "input": ["User has a dog.", "any pets?"],
        "encoding_format": "float",
        "dimensions": 8,
    }
    assert [len(v) for v in vectors] == [8, 8]
    assert all(math.isclose(sum(x * x for x in v), 1.0) for v in vectors)
    # the server answered in reverse order; the adapter puts each vector back at its text
    raw = b"User has a dog."
    first = [float(raw[i] + i % 7 + 1) for i in range(8)]
    norm = math.sqrt(sum(x * x for x in first))
    assert vectors[0] == pytest.approx([x / norm for x in first])


def test_the_model_identity_names_the_endpoint_model_and_dimension(wire: WireServer) -> None:
    assert embedder(wire, 256).model == "openai/text-embedding-3-small@256"
    assert embedder(wire, 256).dimension == 256


def test_a_server_without_dimensions_is_not_sent_them(wire: WireServer) -> None:
    wire.script(EmbeddingsReply(dimension=8))
    embedder(wire, send_dimensions=False).embed(["x"])
    assert "dimensions" not in wire.last.body


@pytest.mark.parametrize(
    "reply",
    [
        openai_error(400, "invalid_request"),
        JsonReply({"object": "list", "data": [], "model": "m", "usage": {}}),
    ],
)
def test_a_refusal_or_a_missing_vector_is_a_content_free_failure(wire: WireServer, reply: JsonReply) -> None:
    wire.script(reply)
    with pytest.raises(EmbeddingFailed) as failed:
        embedder(wire, max_retries=0).embed(["secret user text"])
    assert "secret" not in str(failed.value)


def test_a_vector_of_the_wrong_dimension_is_refused(wire: WireServer) -> None:
    wire.script(EmbeddingsReply(dimension=4))
    with pytest.raises(EmbeddingFailed, match="wrong_shape"):
        embedder(wire, 8).embed(["x"])


def test_a_stalled_server_times_out_as_a_failure(wire: WireServer) -> None:
    wire.script(Slow(delay_s=2.0, then=EmbeddingsReply(dimension=8)))
    with pytest.raises(EmbeddingFailed, match="APITimeoutError"):
        embedder(wire, timeout=0.3, max_retries=0).embed(["x"])
