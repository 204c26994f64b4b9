"""The OpenAPI document is typed (every route answers a named schema) and /docs works offline."""

import re
from uuid import UUID

from fastapi.testclient import TestClient

from adapters.api.auth import Authenticator
from adapters.api.http import create_app
from adapters.api.surface import AgentSurface
from adapters.memory.keys import InMemoryKeyStore
from adapters.memory.store import InMemoryStore
from domain.owner import Owner


async def _idle(owner: Owner, session_id: UUID) -> str:
    return "consolidate"


def _client() -> TestClient:
    surface = AgentSurface(store=InMemoryStore(), idle_signal=_idle)
    return TestClient(create_app(surface, Authenticator(InMemoryKeyStore()), {}))


def test_every_route_declares_a_typed_success_response() -> None:
    document = _client().get("/openapi.json").json()
    untyped = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            success = next(v for k, v in operation["responses"].items() if k.startswith("2"))
            schema = success.get("content", {}).get("application/json", {}).get("schema", {})
            if "$ref" not in schema:
                untyped.append(f"{method.upper()} {path}")
    assert untyped == []
    assert {"RecallResult", "Memory", "SessionStatus", "AppendResult", "ErrorBody"} <= document["components"][
        "schemas"
    ].keys()


def test_docs_reference_no_external_host_and_their_assets_are_served() -> None:
    client = _client()
    page = client.get("/docs")
    assert page.status_code == 200
    urls = re.findall(r"""(?:src|href|url)\s*[=:]\s*['"]([^'"]+)['"]""", page.text)
    assert urls, "the page names its assets"
    assert [u for u in urls if re.match(r"^(https?:)?//", u)] == []
    # Swagger UI's validator badge would be fetched from validator.swagger.io.
    assert '"validatorUrl": null' in page.text
    for asset in (u for u in urls if u.endswith((".js", ".css"))):
        assert client.get(asset).status_code == 200, asset
