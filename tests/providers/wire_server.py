"""A local HTTP server that speaks the OpenAI chat-completions and embeddings and the Anthropic messages wire
protocols.

It answers from a script of actions, one per request in order, so tests drive the real SDK clients
through real sockets: JSON and SSE answers, streams cut mid-way (abruptly or by a clean close before the
final event), error statuses with headers, stalls for timeouts, refusals and malformed content.
"""

import contextlib
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

Cut = Literal["abort", "eof"]


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class Action:
    def respond(self, handler: "_Handler") -> None:
        raise NotImplementedError


@dataclass
class JsonReply(Action):
    body: Any
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)

    def respond(self, handler: "_Handler") -> None:
        handler.send_body(self.status, json.dumps(self.body).encode(), self.headers)


@dataclass
class StreamReply(Action):
    """SSE events; with cut set, the stream ends after `keep` events without the rest."""

    events: Sequence[tuple[str | None, str]]
    keep: int | None = None
    cut: Cut = "abort"
    stall_after: int | None = None
    stall_s: float = 0.0

    def respond(self, handler: "_Handler") -> None:
        chunked = self.keep is None or self.cut == "abort"
        handler.start_stream(chunked=chunked)
        for index, (name, data) in enumerate(self.events):
            if self.keep is not None and index >= self.keep:
                break
            if self.stall_after is not None and index == self.stall_after:
                handler.server_ref.pause(self.stall_s)
            prefix = f"event: {name}\n" if name else ""
            handler.write_stream(f"{prefix}data: {data}\n\n".encode(), chunked=chunked)
        if self.keep is not None:
            if self.cut == "abort":
                handler.abort()
            else:
                handler.close_cleanly()
            return
        handler.end_stream(chunked=chunked)


@dataclass
class Slow(Action):
    """Says nothing for `delay_s`, then answers with `then` (usually too late for the client)."""

    delay_s: float
    then: Action

    def respond(self, handler: "_Handler") -> None:
        handler.server_ref.pause(self.delay_s)
        self.then.respond(handler)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_ref: "WireServer"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass  # keep test output clean; the server records requests instead

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else {}
        except ValueError:
            body = {"_unparsed": raw.decode(errors="replace")}
        self.server_ref.record(
            Recorded("POST", self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        )
        action = self.server_ref.next_action()
        # The client giving up first is what a timeout test wants.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            action.respond(self)

    def send_body(self, status: int, payload: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)
        self.wfile.flush()

    def start_stream(self, *, chunked: bool) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        if chunked:
            self.send_header("transfer-encoding", "chunked")
        else:
            # A close-delimited body: ending it early looks like a complete response to HTTP.
            self.send_header("connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.flush()

    def write_stream(self, data: bytes, *, chunked: bool) -> None:
        if chunked:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        else:
            self.wfile.write(data)
        self.wfile.flush()

    def end_stream(self, *, chunked: bool) -> None:
        if chunked:
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()

    def abort(self) -> None:
        """Drop the connection inside a chunked body, as a crashed upstream or proxy does."""
        self.wfile.flush()
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)

    def close_cleanly(self) -> None:
        self.wfile.flush()
        self.close_connection = True


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # cut and abandoned connections are the point of most scripts


class WireServer:
    """Runs on 127.0.0.1 on a free port in a daemon thread; `base_url` is where SDK clients point."""

    def __init__(self) -> None:
        self._actions: deque[Action] = deque()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.requests: list[Recorded] = []
        handler = type("BoundHandler", (_Handler,), {"server_ref": self})
        self._httpd = _QuietServer(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, name="wire-server", daemon=True
        )

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "WireServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def script(self, *actions: Action) -> None:
        with self._lock:
            self._actions.extend(actions)

    def next_action(self) -> Action:
        with self._lock:
            if self._actions:
                return self._actions.popleft()
        return JsonReply({"error": {"type": "test_error", "message": "script exhausted"}}, status=599)

    def record(self, recorded: Recorded) -> None:
        with self._lock:
            self.requests.append(recorded)

    def pause(self, seconds: float) -> None:
        # Interruptible, so stopping the server never waits out a slow answer.
        self._stop.wait(seconds)

    @property
    def last(self) -> Recorded:
        return self.requests[-1]


# --- OpenAI chat completions ---------------------------------------------------------------------


def openai_usage(
    prompt: int, completion: int, *, cached: int = 0, reasoning: int = 0, cache_write: int | None = None
) -> dict[str, Any]:
    prompt_details: dict[str, Any] = {"cached_tokens": cached}
    if cache_write is not None:
        prompt_details["cache_write_tokens"] = cache_write
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "prompt_tokens_details": prompt_details,
        "completion_tokens_details": {"reasoning_tokens": reasoning},
    }


def openai_completion(
    content: str | None,
    *,
    usage: dict[str, Any] | None = None,
    finish_reason: str = "stop",
    refusal: str | None = None,
    model: str = "gpt-5.6-sol-2026-08-01",
) -> JsonReply:
    return JsonReply(
        {
            "id": "chatcmpl-wire",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content, "refusal": refusal},
                    "finish_reason": finish_reason,
                    "logprobs": None,
                }
            ],
            "usage": usage or openai_usage(10, 5),
        }
    )


def _openai_chunk(model: str, delta: dict[str, Any], finish_reason: str | None) -> str:
    return json.dumps(
        {
            "id": "chatcmpl-wire",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}],
        }
    )


def openai_stream_events(
    content: str,
    *,
    usage: dict[str, Any] | None = None,
    finish_reason: str = "stop",
    refusal: str | None = None,
    model: str = "gpt-5.6-sol-2026-08-01",
    pieces: int = 4,
) -> list[tuple[str | None, str]]:
    events: list[tuple[str | None, str]] = [
        (None, _openai_chunk(model, {"role": "assistant", "content": ""}, None))
    ]
    if refusal is not None:
        events.append((None, _openai_chunk(model, {"refusal": refusal}, None)))
    else:
        for piece in _split(content, pieces):
            events.append((None, _openai_chunk(model, {"content": piece}, None)))
    events.append((None, _openai_chunk(model, {}, finish_reason)))
    usage_chunk = {
        "id": "chatcmpl-wire",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": model,
        "choices": [],
        "usage": usage or openai_usage(10, 5),
    }
    events.append((None, json.dumps(usage_chunk)))
    events.append((None, "[DONE]"))
    return events


def openai_stream(content: str, **kwargs: Any) -> StreamReply:
    keep = kwargs.pop("keep", None)
    cut = kwargs.pop("cut", "abort")
    stall_after = kwargs.pop("stall_after", None)
    stall_s = kwargs.pop("stall_s", 0.0)
    return StreamReply(
        openai_stream_events(content, **kwargs), keep=keep, cut=cut, stall_after=stall_after, stall_s=stall_s
    )


def openai_error(status: int, code: str, *, headers: dict[str, str] | None = None) -> JsonReply:
    return JsonReply(
        {"error": {"message": "echoed: secret user text", "type": "invalid_request_error", "code": code}},
        status=status,
        headers=headers or {},
    )


# --- OpenAI embeddings (POST /v1/embeddings) ------------------------------------------------------


@dataclass
class EmbeddingsReply(Action):
    """Answers an embeddings request for its own inputs: per text a vector of `dimension` floats made from
    the text's bytes (not unit length, as some compatible servers answer), in reverse index order (the
    protocol carries each item's index; a client must not rely on the order)."""

    dimension: int
    model: str = "text-embedding-3-small"

    def respond(self, handler: "_Handler") -> None:
        body = handler.server_ref.last.body
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        data = [
            {"object": "embedding", "index": index, "embedding": _vector_of(text, self.dimension)}
            for index, text in enumerate(texts)
        ]
        usage = {
            "prompt_tokens": sum(len(t.split()) for t in texts),
            "total_tokens": sum(len(t.split()) for t in texts),
        }
        reply = {"object": "list", "data": list(reversed(data)), "model": self.model, "usage": usage}
        handler.send_body(200, json.dumps(reply).encode(), {})


def _vector_of(text: str, dimension: int) -> list[float]:
    raw = text.encode()
    return [float((raw[i % len(raw)] if raw else 0) + i % 7 + 1) for i in range(dimension)]


# --- Anthropic messages --------------------------------------------------------------------------


def anthropic_usage(
    input_tokens: int,
    output_tokens: int,
    *,
    cache_read: int = 0,
    cache_write: int = 0,
    thinking: int | None = None,
) -> dict[str, Any]:
    usage: dict[str, Any] = {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_read_input_tokens": cache_read,
        "cache_creation_input_tokens": cache_write,
    }
    if thinking is not None:
        usage["output_tokens_details"] = {"thinking_tokens": thinking}
    return usage


def anthropic_message(
    text: str,
    *,
    usage: dict[str, Any] | None = None,
    stop_reason: str = "end_turn",
    model: str = "claude-sonnet-5-20260801",
) -> JsonReply:
    return JsonReply(
        {
            "id": "msg_wire",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": text}] if text else [],
            "stop_reason": stop_reason,
            "stop_sequence": None,
            "usage": usage or anthropic_usage(10, 5),
        }
    )


def anthropic_stream_events(
    text: str,
    *,
    usage: dict[str, Any] | None = None,
    stop_reason: str = "end_turn",
    model: str = "claude-sonnet-5-20260801",
    pieces: int = 4,
) -> list[tuple[str | None, str]]:
    full = usage or anthropic_usage(10, 5)
    start_usage = {**{k: v for k, v in full.items() if k != "output_tokens_details"}, "output_tokens": 1}
    delta_usage: dict[str, Any] = {"output_tokens": full["output_tokens"]}
    if "output_tokens_details" in full:
        delta_usage["output_tokens_details"] = full["output_tokens_details"]
    message: dict[str, Any] = {
        "id": "msg_wire",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": start_usage,
    }
    events: list[tuple[str | None, str]] = [
        ("message_start", json.dumps({"type": "message_start", "message": message})),
        (
            "content_block_start",
            json.dumps(
                {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}
            ),
        ),
        ("ping", json.dumps({"type": "ping"})),
    ]
    for piece in _split(text, pieces):
        delta = {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece}}
        events.append(("content_block_delta", json.dumps(delta)))
    events.append(("content_block_stop", json.dumps({"type": "content_block_stop", "index": 0})))
    events.append(
        (
            "message_delta",
            json.dumps(
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                    "usage": delta_usage,
                }
            ),
        )
    )
    events.append(("message_stop", json.dumps({"type": "message_stop"})))
    return events


def anthropic_stream(text: str, **kwargs: Any) -> StreamReply:
    keep = kwargs.pop("keep", None)
    cut = kwargs.pop("cut", "abort")
    stall_after = kwargs.pop("stall_after", None)
    stall_s = kwargs.pop("stall_s", 0.0)
    return StreamReply(
        anthropic_stream_events(text, **kwargs), keep=keep, cut=cut, stall_after=stall_after, stall_s=stall_s
    )


def anthropic_stream_error(error_type: str, *, after: int = 1) -> StreamReply:
    """A stream that starts normally and then reports an error event, as an overloaded API does."""
    events = anthropic_stream_events("{}")[:after]
    error = {"type": "error", "error": {"type": error_type, "message": "echoed: secret user text"}}
    return StreamReply([*events, ("error", json.dumps(error))])


def anthropic_error(status: int, error_type: str, *, headers: dict[str, str] | None = None) -> JsonReply:
    return JsonReply(
        {"type": "error", "error": {"type": error_type, "message": "echoed: secret user text"}},
        status=status,
        headers=headers or {},
    )


def _split(text: str, pieces: int) -> Iterator[str]:
    if not text:
        return
    size = max(1, -(-len(text) // pieces))
    for start in range(0, len(text), size):
        yield text[start : start + size]
