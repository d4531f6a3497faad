"""The MCP server: its tools (tools.py), their backends, and the HTTP and stdio transports."""
