"""Where the MCP server answers over HTTP; apart from tools.py so the HTTP edge can name it
without importing the MCP SDK."""

MCP_PATH = "/mcp"
"""The streamable HTTP endpoint inside the API server (``twoclocks serve``)."""
