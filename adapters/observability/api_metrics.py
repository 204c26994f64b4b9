"""The HTTP API's metrics (prometheus-client), recorded by an ASGI middleware and served on their own port
(API_METRICS_PORT, or `agent api --metrics-port`), apart from the API's.

With several server processes (`agent api --workers`), each records into PROMETHEUS_MULTIPROC_DIR
(prometheus-client's multiprocess mode) and the parent serves all of them on the one port (serve_workers).

Requests are counted by route template, method and status, and timed by route template; recall gets its
own histogram, the one the provisioned dashboard plots. A route label is the template
(`/v1/beliefs/{belief}`), never the path a request named (belief and session ids would make every request
its own series), and no label carries a tenant, a principal, a query or any other content.
"""

import time
from pathlib import Path
from typing import Final
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, Counter, Histogram, start_http_server
from prometheus_client.multiprocess import MultiProcessCollector
from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUESTS: Final = "memory_api_requests"  # exported as memory_api_requests_total
REQUEST_LATENCY: Final = "memory_api_request_duration_seconds"
RECALL_LATENCY: Final = "memory_recall_latency_seconds"
RECALL_ROUTE: Final = "/v1/recall"
# A request no route matched (a probe of a random path): one series for all of them.
UNMATCHED: Final = "unmatched"
COUNTERS: Final = (REQUESTS,)
HISTOGRAMS: Final = (REQUEST_LATENCY, RECALL_LATENCY)
# Where each process of a multi-process server writes its series; read when prometheus-client is imported.
MULTIPROC_ENV: Final = "PROMETHEUS_MULTIPROC_DIR"

REQUEST_BUCKETS: Final = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
RECALL_BUCKETS: Final = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5)


class ApiMetrics:
    """The API's instruments on their own registry (so two apps in one process never share a series)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            REQUESTS,
            "HTTP requests by route, method and status",
            ("route", "method", "status"),
            registry=self.registry,
        )
        self.latency = Histogram(
            REQUEST_LATENCY,
            "HTTP request latency by route",
            ("route",),
            buckets=REQUEST_BUCKETS,
            registry=self.registry,
        )
        self.recall_latency = Histogram(
            RECALL_LATENCY, "latency of one recall", buckets=RECALL_BUCKETS, registry=self.registry
        )

    def record(self, route: str, method: str, status: int, seconds: float) -> None:
        self.requests.labels(route=route, method=method, status=str(status)).inc()
        self.latency.labels(route=route).observe(seconds)
        if route == RECALL_ROUTE and status < 400:  # a refused recall recalled nothing
            self.recall_latency.observe(seconds)

    def serve(self, host: str, port: int) -> WSGIServer:
        """/metrics on host:port, from a daemon thread, until the process ends or the server is shut down."""
        server, _ = start_http_server(port, addr=host, registry=self.registry)
        return server


def serve_workers(host: str, port: int, directory: Path) -> WSGIServer:
    """/metrics on host:port summing every process that records into directory (counters and histogram
    buckets add up across processes), from a daemon thread, until the process ends or it is shut down."""
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(directory))
    server, _ = start_http_server(port, addr=host, registry=registry)
    return server


class RequestMetrics:
    """ASGI middleware: each HTTP request's route template, method, status and latency."""

    def __init__(self, app: ASGIApp, metrics: ApiMetrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 500  # what the server answers when the app raises before it starts a response

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        started = time.perf_counter()
        try:
            await self.app(scope, receive, sending)
        finally:
            # The router writes the matched route into the scope as it dispatches.
            route = getattr(scope.get("route"), "path", UNMATCHED)
            self.metrics.record(route, scope["method"], status, time.perf_counter() - started)
