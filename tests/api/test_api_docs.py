"""docs/api.md is generated from the app's OpenAPI document and must match it."""

from __future__ import annotations

from pathlib import Path

from twoclocks.api.app import create_app
from twoclocks.api.openapi_doc import render_markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_docs_api_md_matches_the_openapi_document() -> None:
    expected = render_markdown(create_app().openapi())
    assert DOC.read_text() == expected, (
        "docs/api.md is stale: run `python -m twoclocks.api.openapi_doc > docs/api.md`"
    )


def test_every_v1_call_of_the_design_is_served() -> None:
    paths = create_app().openapi()["paths"]
    wanted = {
        ("post", "/v1/facts"),
        ("get", "/v1/facts"),
        ("post", "/v1/facts/{fact_id}/revise"),
        ("post", "/v1/facts/{fact_id}/retract"),
        ("post", "/v1/facts/{fact_id}/reopen"),
        ("post", "/v1/recall"),
        ("post", "/v1/block"),
        ("get", "/v1/timeline"),
        ("get", "/v1/export"),
        ("post", "/v1/import"),
        ("get", "/healthz"),
    }
    served = {(m, p) for p, methods in paths.items() for m in methods}
    assert wanted <= served


def test_every_body_field_is_described() -> None:
    schemas = create_app().openapi()["components"]["schemas"]
    for name in ("RememberRequest", "RecallRequest", "BlockRequest", "ReviseRequest"):
        for field, prop in schemas[name]["properties"].items():
            assert prop.get("description"), f"{name}.{field} has no description"


def test_docs_and_redoc_load_every_asset_from_this_server() -> None:
    import re

    from fastapi.testclient import TestClient

    client = TestClient(create_app())
    for page in ("/docs", "/redoc"):
        html = client.get(page)
        assert html.status_code == 200
        # Every src/href/url the page names is a path on this server: nothing from a CDN.
        links = re.findall(r"""(?:src|href|url)\s*[:=]\s*['"]([^'"]+)['"]""", html.text)
        assert links, html.text
        assert [u for u in links if "//" in u] == [], page
        assert "http://" not in html.text and "https://" not in html.text, page
        for link in links:
            assert client.get(link).status_code == 200, link
