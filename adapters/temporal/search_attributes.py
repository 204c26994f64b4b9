"""Registration of the custom search attributes the workflows upsert (keys live in workflows/)."""

from temporalio.common import SearchAttributeKey

from workflows.search_attributes import ALL

_TYPE_NAMES = {"KEYWORD": "Keyword", "TEXT": "Text", "INT": "Int", "BOOL": "Bool", "DATETIME": "Datetime"}


def type_name(key: SearchAttributeKey) -> str:
    return _TYPE_NAMES.get(key.indexed_value_type.name, "Keyword")


def dev_server_args() -> list[str]:
    """Flags for `temporal server start-dev` registering every attribute."""
    args: list[str] = []
    for key in ALL:
        args += ["--search-attribute", f"{key.name}={type_name(key)}"]
    return args
