"""OpenTelemetry traces through the Temporal SDK's interceptor: the client call, the workflows and the
activities of one consolidation in one trace. Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set; then spans
go out by OTLP over HTTP (the exporter reads the standard OTEL_EXPORTER_OTLP_* variables for headers,
timeouts and TLS).

Span attributes are what the SDK's interceptor sets (workflow, run and activity ids), which name tenant,
principal and session by id but carry no text: no payload is ever attached to a span.
"""

from opentelemetry import trace
from opentelemetry.sdk.resources import SERVICE_NAME, Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from temporalio.contrib.opentelemetry import TracingInterceptor

from adapters.settings import Settings


def configure_tracing(settings: Settings, service: str) -> TracerProvider | None:
    """The process's tracer provider exporting by OTLP, made global (for the API's own spans too); None
    when tracing is off."""
    if not settings.otel_exporter_otlp_endpoint:
        return None
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    provider = TracerProvider(resource=Resource.create({SERVICE_NAME: service}))
    # The base endpoint, as OTEL_EXPORTER_OTLP_ENDPOINT means it; explicit so a value from .env counts too.
    endpoint = f"{settings.otel_exporter_otlp_endpoint.rstrip('/')}/v1/traces"
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=endpoint)))
    trace.set_tracer_provider(provider)
    return provider


def tracing_interceptors(provider: TracerProvider | None) -> list[TracingInterceptor]:
    """For `connect(..., interceptors=...)`: the client's calls and every worker on that client."""
    if provider is None:
        return []
    return [TracingInterceptor(provider.get_tracer(__name__))]
