"""The agent-facing surfaces: the HTTP API (`/v1`) and the MCP server, over one set of scoped operations."""
