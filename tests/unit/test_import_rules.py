"""Import rules (DESIGN.md §1): a pure domain, one place that reads config, no stray modules."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOMAIN = REPO / "twoclocks" / "domain"
# The folders that install as the one `twoclocks` package (pyproject's package-dir).
PACKAGE_DIRS = [REPO / "twoclocks", REPO / "graph", REPO / "embeddings", REPO / "api"]
ALLOWED_THIRD_PARTY = {"pydantic"}

# Only these read configuration from the environment (DESIGN.md §1: bootstrap alone).
CONFIG_READERS = {"twoclocks/bootstrap.py", "twoclocks/config.py"}
# Touch the environment for another reason, inside a function, never at import time:
ENVIRONMENT_ALLOWED = {
    # sets HF_HUB_OFFLINE / TRANSFORMERS_OFFLINE just before loading the model, so the
    # hub libraries never go online; it writes flags, it reads no configuration
    "embeddings/sentence_transformer.py",
    # hands the parent's environment (plus TMPDIR) to the redis-server child it starts
    "graph/falkordb/server.py",
    # client hook entry points: main() passes os.environ, as a Mapping, to the hook once
    # (TWOCLOCKS_URL / _KEY / _DATA_DIR, DESIGN.md §8); they must not import the config
    # machinery (pydantic-settings) inside the 800 ms session-start budget
    "twoclocks/hooks/claude_code.py",
    "twoclocks/hooks/cursor.py",
    "twoclocks/hooks/capture.py",
    "twoclocks/hooks/turn.py",
}
ENVIRONMENT_NAMES = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}


def modules(*roots: Path) -> Iterator[Path]:
    for root in roots:
        yield from sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def rel(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def imported_modules(tree: ast.AST) -> Iterator[tuple[int, str, int]]:
    """(line, module, relative level) for every import, wherever it sits in the file."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, 0
        elif isinstance(node, ast.ImportFrom):
            yield node.lineno, node.module or "", node.level


def test_domain_modules_exist() -> None:
    found = {p.name for p in modules(DOMAIN)}
    assert {"model.py", "temporal.py", "write_plan.py", "revise_plan.py"} <= found


def allowed_in_domain(module: str, level: int) -> bool:
    if level:  # relative: only `from . import x` / `from .model import y` stays inside
        return level == 1
    top = module.split(".")[0]
    inside = module == "twoclocks.domain" or module.startswith("twoclocks.domain.")
    return inside or top in sys.stdlib_module_names or top in ALLOWED_THIRD_PARTY


def test_domain_imports_only_the_stdlib_pydantic_and_itself() -> None:
    bad = [
        f"{rel(path)}:{line} imports {'.' * level}{module}"
        for path in modules(DOMAIN)
        for line, module, level in imported_modules(ast.parse(path.read_text(), str(path)))
        if not allowed_in_domain(module, level)
    ]
    assert not bad, "the domain must stay pure:\n" + "\n".join(bad)


def test_the_domain_import_check_refuses_outsiders() -> None:
    assert allowed_in_domain("datetime", 0) and allowed_in_domain("pydantic", 0)
    assert allowed_in_domain("twoclocks.domain.model", 0) and allowed_in_domain("model", 1)
    for module, level in [
        ("twoclocks.graph.port", 0),
        ("httpx", 0),
        ("twoclocks", 0),
        ("pydantic_settings", 0),
        ("graph", 2),
    ]:
        assert not allowed_in_domain(module, level), module


CLOCK_AND_IO_CALLS = {
    "now",
    "utcnow",
    "today",
    "time",
    "time_ns",
    "monotonic",
    "uuid1",
    "uuid4",
    "urandom",
    "open",
    "getenv",
}
IMPURE_MODULES = {"random", "secrets", "uuid", "time", "socket", "subprocess", "os", "io"}


def test_domain_never_reads_a_clock_or_does_io() -> None:
    """The clock and the ids are passed in, so a plan is a function of its inputs."""
    bad = []
    for path in modules(DOMAIN):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in CLOCK_AND_IO_CALLS:
                bad.append(f"{rel(path)}:{node.lineno} calls {name}()")
        for line, module, _ in imported_modules(ast.parse(path.read_text())):
            if module.split(".")[0] in IMPURE_MODULES:
                bad.append(f"{rel(path)}:{line} imports {module}")
    assert not bad, "\n".join(bad)


def environment_uses(tree: ast.Module) -> Iterator[tuple[int, bool]]:
    """(line, at import time) for each use of os.environ / os.getenv and friends.

    Follows ``import os as x`` and ``from os import environ``. A use is at import
    time unless it sits inside a function body (a lambda counts as a function).
    """
    os_names = {"os"}
    env_names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            os_names |= {a.asname or a.name for a in node.names if a.name == "os"}
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            env_names |= {a.asname or a.name for a in node.names if a.name in ENVIRONMENT_NAMES}

    def visit(node: ast.AST, in_function: bool) -> Iterator[tuple[int, bool]]:
        if (
            isinstance(node, ast.Attribute)
            and node.attr in ENVIRONMENT_NAMES
            and isinstance(node.value, ast.Name)
            and node.value.id in os_names
        ) or (isinstance(node, ast.Name) and node.id in env_names):
            yield node.lineno, not in_function
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            # decorators and default values run at import time; the body does not
            outer = [
                *getattr(node, "decorator_list", []),
                *node.args.defaults,
                *[d for d in node.args.kw_defaults if d is not None],
            ]
            for child in outer:
                yield from visit(child, in_function)
            body = node.body if isinstance(node.body, list) else [node.body]
            for child in body:
                yield from visit(child, True)
            return
        for child in ast.iter_child_nodes(node):
            yield from visit(child, in_function)

    yield from visit(tree, False)


def test_no_module_reads_the_environment_at_import_time() -> None:
    bad = [
        f"{rel(path)}:{line}"
        for path in modules(*PACKAGE_DIRS)
        if rel(path) not in CONFIG_READERS
        for line, at_import in environment_uses(ast.parse(path.read_text(), str(path)))
        if at_import
    ]
    assert not bad, "reads the environment at import time:\n" + "\n".join(bad)


def test_only_config_and_bootstrap_touch_the_environment() -> None:
    bad = [
        f"{rel(path)}:{line}"
        for path in modules(*PACKAGE_DIRS)
        if rel(path) not in CONFIG_READERS | ENVIRONMENT_ALLOWED
        for line, _ in environment_uses(ast.parse(path.read_text(), str(path)))
    ]
    assert not bad, (
        "settings come from twoclocks/config.py through bootstrap.py, not os.environ:\n"
        + "\n".join(bad)
    )


def test_the_environment_check_sees_every_spelling() -> None:
    source = (
        "import os\nimport os as system\nfrom os import getenv as ge, environ\n"
        "A = os.environ['X']\n"
        "def f(x=system.getenv('Y')):\n    return ge('Z'), environ\n"
        "@decorate(os.environ)\nclass C:\n    B = os.getenv('W')\n"
    )
    found = sorted(environment_uses(ast.parse(source)))
    assert found == [(4, True), (5, True), (6, False), (6, False), (7, True), (9, True)]


def test_environment_allow_list_names_real_files() -> None:
    for name in ENVIRONMENT_ALLOWED:
        assert (REPO / name).is_file(), f"stale allow-list entry {name}"


@pytest.mark.parametrize("name", ["graph", "embeddings", "api"])
def test_mapped_folders_never_install_as_top_level_modules(name: str, tmp_path: Path) -> None:
    probe = (
        "import importlib.util, json, sys\n"
        f"top = importlib.util.find_spec({name!r})\n"
        f"mapped = importlib.util.find_spec('twoclocks.{name}')\n"
        "mcp = importlib.util.find_spec('mcp')\n"
        "print(json.dumps({'top': top and top.origin, 'mapped': mapped and mapped.origin,\n"
        "                  'mcp': mcp and mcp.origin}))\n"
    )
    # A PYTHONPATH pointing at the checkout would hide what the install itself provides.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    found = json.loads(result.stdout)
    assert found["top"] is None, f"`import {name}` resolves to {found['top']}"
    # ... while the package itself still has it, from this checkout's folder
    assert found["mapped"] is not None
    assert Path(found["mapped"]).resolve().is_relative_to(REPO / name)
    # and no folder of ours shadows the MCP SDK
    assert found["mcp"] is None or not Path(found["mcp"]).resolve().is_relative_to(REPO / "mcp")
