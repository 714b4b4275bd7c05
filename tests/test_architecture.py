"""The shape of generator/: one package per stage, imports only from earlier stages, no
cycles, no borrowed private names, short modules that each say their one job.

Read from the source with ``ast`` (nothing is imported), so a lazy import inside a function
counts as much as one at the top."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from .conftest import REPO

GENERATOR = REPO / "generator"
MAX_LINES = 500

# The pipeline, in order; a module may import from its own group and from earlier ones.
# ``errors`` and ``parallel`` serve every stage; the entry points come last.
STAGES: tuple[tuple[str, ...], ...] = (
    ("errors", "parallel"),
    ("content",),
    ("text",),
    ("derive",),
    ("outputs",),
    ("write",),
    ("importers",),
    ("options",),
    ("pipeline", "build"),
    ("serve",),
    ("cli",),
)
RANK = {name: rank for rank, names in enumerate(STAGES) for name in names}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(GENERATOR.rglob("*.py"))}


def group(module: str) -> str:
    """The stage a module belongs to: ``generator.content.loader`` → ``content``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` names."""
    if node.level == 0:
        return node.module or ""
    package = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def imports(module: str) -> list[tuple[str, str, int]]:
    """(imported module, imported name or "", line) for every import of generator code."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, "", node.lineno) for a in node.names if a.name.split(".")[0] == "generator"]
        elif isinstance(node, ast.ImportFrom):
            target = resolve(module, node)
            if target.split(".")[0] != "generator":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in MODULES:  # ``from . import schema``: the module itself
                    found.append((sub, "", node.lineno))
                else:
                    found.append((target, alias.name, node.lineno))
    return found


def test_every_module_is_in_a_stage():
    assert {group(m) for m in MODULES if group(m)} <= set(RANK)


@pytest.mark.parametrize("module", sorted(m for m in MODULES if group(m)))
def test_imports_only_go_to_earlier_stages(module):
    wrong = [f"line {line}: {target}" for target, _, line in imports(module)
             if group(target) and RANK[group(target)] > RANK[group(module)]]
    assert not wrong, f"{module} imports from a later stage: {wrong}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_imports_another_modules_private_names(module):
    private = [f"line {line}: {target}.{name}" for target, name, line in imports(module)
               if name.startswith("_") and not name.startswith("__")]
    assert not private, f"{module} imports private names: {private}"


def test_no_import_cycles():
    graph = {m: {t for t, _, _ in imports(m) if t in MODULES and t != m} for m in MODULES}
    # a package's __init__ that re-exports its modules is not a cycle with them
    for m in graph:
        graph[m] = {t for t in graph[m] if not (MODULES[t].name == "__init__.py" and m.startswith(t + "."))}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                cycle = stack[stack.index(t):] + [t]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_are_short_and_say_their_job(module):
    path = MODULES[module]
    source = path.read_text(encoding="utf-8")
    lines = source.count("\n")
    assert lines <= MAX_LINES, f"{path.relative_to(REPO)} has {lines} lines (at most {MAX_LINES})"
    assert ast.get_docstring(ast.parse(source)), f"{path.relative_to(REPO)} opens with no docstring"


def test_the_checks_catch_what_they_should(tmp_path):
    """The rules themselves: a later-stage import and a private name are seen."""
    fake = GENERATOR / "content" / "loader.py"
    tree = ast.parse("from ..outputs.pages import _private\nimport generator.cli\n")
    node = tree.body[0]
    assert isinstance(node, ast.ImportFrom)
    assert resolve(module_name(fake), node) == "generator.outputs.pages"
    assert RANK[group("generator.outputs.pages")] > RANK[group(module_name(fake))]
