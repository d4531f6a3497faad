"""Every docstring example in the package runs: a worked example that rots misleads.

The temporal rules, places, tiers and recall's signals explain themselves by example
(house style 8); this sweep runs them all, so a module with examples needs no test of
its own to keep them true.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path
from types import ModuleType

import pytest

PACKAGES = ("twoclocks", "twoclocks.graph", "twoclocks.embeddings", "twoclocks.api")
"""graph/, embeddings/ and api/ are installed into twoclocks from folders of their own, so
a walk of twoclocks alone does not reach them in an editable install."""


def _modules_with_examples() -> list[str]:
    names = set()
    walked = [
        info
        for package in PACKAGES
        for info in pkgutil.walk_packages(importlib.import_module(package).__path__, f"{package}.")
    ]
    for info in walked:
        if info.name.rsplit(".", 1)[-1] == "__main__":
            continue  # running it is the CLI
        spec = importlib.util.find_spec(info.name)
        origin = spec.origin if spec else None
        if origin and origin.endswith(".py") and ">>>" in Path(origin).read_text("utf-8"):
            names.add(info.name)
    return sorted(names)


MODULES = _modules_with_examples()


def test_the_sweep_finds_the_modules_with_examples() -> None:
    # A walk that silently found nothing would pass every case below.
    assert {"twoclocks.domain.write_plan", "twoclocks.graph.search_terms"} <= set(MODULES)
    assert len(MODULES) >= 30


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    module: ModuleType = importlib.import_module(name)
    result = doctest.testmod(module, raise_on_error=False, report=True)
    assert result.attempted > 0 and result.failed == 0, f"{name}: {result}"
