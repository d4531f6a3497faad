"""Render docs/api.md from the app's own OpenAPI document, so the two never drift.

    python -m twoclocks.api.openapi_doc > docs/api.md

A test regenerates it and fails when docs/api.md differs.
"""

from __future__ import annotations

import sys
from typing import Any


def _type(schema: dict[str, Any], components: dict[str, Any]) -> str:
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    if "anyOf" in schema:
        kinds = [_type(s, components) for s in schema["anyOf"] if s.get("type") != "null"]
        return " or ".join(kinds) + (" or null" if len(kinds) < len(schema["anyOf"]) else "")
    if "enum" in schema:
        return " / ".join(str(v) for v in schema["enum"])
    if schema.get("type") == "array":
        return f"list[{_type(schema.get('items', {}), components)}]"
    if schema.get("format") == "date-time":
        return "RFC 3339 time"
    return str(schema.get("type", "any"))


def _fields(schema: dict[str, Any], components: dict[str, Any]) -> list[str]:
    required = set(schema.get("required", []))
    rows = []
    for name, prop in schema.get("properties", {}).items():
        desc = (prop.get("description") or "").replace("|", "\\|")
        need = "yes" if name in required else "no"
        rows.append(f"| `{name}` | {_type(prop, components)} | {need} | {desc} |")
    return rows


def render_markdown(doc: dict[str, Any]) -> str:
    """The API reference as Markdown: every path, its parameters, body and answer fields."""
    components = doc.get("components", {}).get("schemas", {})
    out = [
        "# HTTP API v1",
        "",
        "Generated from the OpenAPI document by `python -m twoclocks.api.openapi_doc`;",
        "a test fails when this file and the app disagree. Every `/v1` call needs",
        '`Authorization: Bearer <key>`; errors are `{"error": "<TypeName>", "message": ...}`.',
        "",
    ]
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            out += [
                f"## `{method.upper()} {path}`",
                "",
                op.get("description") or op.get("summary", ""),
                "",
            ]
            params = op.get("parameters", [])
            if params:
                out += [
                    "| parameter | in | type | required | description |",
                    "|---|---|---|---|---|",
                ]
                for p in params:
                    desc = p.get("description") or p.get("schema", {}).get("description") or ""
                    out.append(
                        f"| `{p['name']}` | {p['in']} | {_type(p.get('schema', {}), components)} "
                        f"| {'yes' if p.get('required') else 'no'} | {desc} |"
                    )
                out.append("")
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            if body:
                name = _type(body["schema"], components)
                out += [
                    f"Body: `{name}`",
                    "",
                    "| field | type | required | description |",
                    "|---|---|---|---|",
                    *_fields(components.get(name, {}), components),
                    "",
                ]
            for status, resp in op.get("responses", {}).items():
                content = resp.get("content", {})
                schema = content.get("application/json", {}).get("schema")
                kind = ", ".join(content) or "no body"
                name = _type(schema, components) if schema else kind
                out.append(f"- {status}: {resp.get('description', '')} (`{name}`)")
            out.append("")
    for name in sorted(components):
        schema = components[name]
        if "properties" not in schema or name.startswith(
            ("HTTPValidationError", "ValidationError")
        ):
            continue
        out += [
            f"### {name}",
            "",
            schema.get("description", ""),
            "",
            "| field | type | required | description |",
            "|---|---|---|---|",
            *_fields(schema, components),
            "",
        ]
    return "\n".join(out).rstrip() + "\n"


def main() -> None:
    """Print docs/api.md for the current app."""
    from twoclocks.api.app import create_app

    sys.stdout.write(render_markdown(create_app().openapi()))


if __name__ == "__main__":
    main()
