"""Registration of the custom search attributes the workflows upsert (keys live in workflows/)."""

import logging

from temporalio.api.operatorservice.v1 import ListSearchAttributesRequest
from temporalio.client import Client
from temporalio.common import SearchAttributeKey
from temporalio.service import RPCError, RPCStatusCode

from adapters.settings import ConfigurationError
from workflows.search_attributes import ALL

log = logging.getLogger(__name__)

_TYPE_NAMES = {"KEYWORD": "Keyword", "TEXT": "Text", "INT": "Int", "BOOL": "Bool", "DATETIME": "Datetime"}


def type_name(key: SearchAttributeKey) -> str:
    return _TYPE_NAMES.get(key.indexed_value_type.name, "Keyword")


def dev_server_args() -> list[str]:
    """Flags for `temporal server start-dev` registering every attribute."""
    args: list[str] = []
    for key in ALL:
        args += ["--search-attribute", f"{key.name}={type_name(key)}"]
    return args


async def require_search_attributes(client: Client) -> None:
    """Refuse a namespace that lacks one of ALL: every workflow task setting it would fail and be retried
    for ever, so consolidations would hang instead of failing. A server that does not let this client list
    them (a narrow cloud role) is trusted, and said so."""
    try:
        listed = await client.operator_service.list_search_attributes(
            ListSearchAttributesRequest(namespace=client.namespace)
        )
    except RPCError as refused:
        if refused.status not in (RPCStatusCode.PERMISSION_DENIED, RPCStatusCode.UNIMPLEMENTED):
            raise
        log.warning("search attributes not checked", extra={"status": refused.status.name})
        return
    missing = [key for key in ALL if key.name not in listed.custom_attributes]
    if missing:
        commands = "; ".join(
            f"temporal operator search-attribute create --namespace {client.namespace} --name {key.name} "
            f"--type {type_name(key)}"
            for key in missing
        )
        raise ConfigurationError(
            f"namespace {client.namespace} has no search attribute {', '.join(k.name for k in missing)}, "
            f"which the workflows set: register {'it' if len(missing) == 1 else 'them'} ({commands})"
        )
