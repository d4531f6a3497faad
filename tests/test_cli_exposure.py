"""`serve` says so when it is bound off loopback over plain HTTP (docs/SECURITY.md)."""

from __future__ import annotations

import pytest

from twoclocks.cli import exposure_warning


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost"])
def test_serve_on_loopback_warns_of_nothing(host: str) -> None:
    assert exposure_warning(host) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "10.0.0.5", "memory.lan"])
def test_serve_bound_off_loopback_warns_that_keys_and_facts_cross_in_clear(host: str) -> None:
    warning = exposure_warning(host)
    assert warning is not None and warning.startswith(f"listening on {host}, not loopback")
    assert "in clear" in warning and "TLS" in warning
