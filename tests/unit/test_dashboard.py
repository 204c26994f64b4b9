"""The provisioned Grafana dashboard asks only for metrics the service exports (`memory_*` from the worker,
adapters/observability/metrics.py, and from the API, adapters/observability/api_metrics.py; the SDK's
`temporal_*` are checked against a real scrape in tests/workflows/test_metrics.py)."""

import json
import re
from pathlib import Path

from adapters.observability import api_metrics
from adapters.observability.metrics import COUNTERS, HISTOGRAMS

DASHBOARD = (
    Path(__file__).resolve().parents[2] / "deploy" / "grafana" / "dashboards" / "memory-consolidation.json"
)
METRIC = re.compile(r"\b((?:memory|temporal)_[a-z0-9_]+)")
EXPORTED = {f"{name}_total" for name in (*COUNTERS, *api_metrics.COUNTERS)} | {
    f"{name}_{suffix}"
    for name in (*HISTOGRAMS, *api_metrics.HISTOGRAMS)
    for suffix in ("bucket", "sum", "count")
}


def dashboard_metrics() -> set[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    expressions = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    return {name for expr in expressions for name in METRIC.findall(expr)}


def test_every_service_metric_the_dashboard_queries_is_exported() -> None:
    queried = {name for name in dashboard_metrics() if name.startswith("memory_")}
    assert queried, "the dashboard shows the service's metrics"
    assert queried <= EXPORTED, queried - EXPORTED


def test_the_dashboard_covers_what_operators_watch() -> None:
    titles = " ".join(panel["title"].lower() for panel in json.loads(DASHBOARD.read_text())["panels"])
    for topic in (
        "consolidations",
        "fallback rate by stage",
        "re-passes waiting and exhausted",
        "retirements",
        "cost per day",
    ):
        assert topic in titles, topic
