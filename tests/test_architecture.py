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
MAX_FUNCTION_LINES = 80  # issue 26: a function longer than a screen or two does several jobs

# The pipeline, in order; a module may import from its own group and from earlier ones.
# ``errors``, ``parallel`` and ``cache`` (per-item work on every core, kept across builds)
# serve every stage; the entry points come last.
STAGES: tuple[tuple[str, ...], ...] = (
    ("errors", "parallel", "cache"),
    ("content",),
    ("text",),
    ("derive",),
    ("outputs",),
    ("write",),
    ("importers", "scaffold"),  # beside the pipeline: they write content files
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


def resolve(module: str, node: ast.ImportFrom, is_package: bool = False) -> str:
    """The absolute module a ``from ... import`` names."""
    if node.level == 0:
        return node.module or ""
    package = module.split(".") if is_package else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def imports(module: str, source: str | None = None, modules=MODULES) -> list[tuple[str, str, int]]:
    """(imported module, name used from it or "", line) for every use of generator code:
    ``from m import name``, and ``m._name`` where ``m`` is a module imported by any form."""
    source = modules[module].read_text(encoding="utf-8") if source is None else source
    is_package = module in modules and modules[module].name == "__init__.py"
    tree = ast.parse(source)
    found: list[tuple[str, str, int]] = []
    aliases: dict[str, str] = {}  # local name -> module it stands for
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "generator":
                    found.append((a.name, "", node.lineno))
                    aliases[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom):
            target = resolve(module, node, is_package)
            if target.split(".")[0] != "generator":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in modules:  # ``from . import schema``: the module itself
                    found.append((sub, "", node.lineno))
                    aliases[alias.asname or alias.name] = sub
                else:
                    found.append((target, alias.name, node.lineno))
    for node in ast.walk(tree):  # attributes of imported modules: ``schema._private``
        if isinstance(node, ast.Attribute):
            chain, base = [node.attr], node.value
            while isinstance(base, ast.Attribute):
                chain.append(base.attr)
                base = base.value
            if isinstance(base, ast.Name):
                dotted = ".".join([base.id, *reversed(chain[1:])])
                if dotted in aliases:
                    found.append((aliases[dotted], node.attr, node.lineno))
    return found


def private_names(module: str, source: str | None = None, modules=MODULES) -> list[str]:
    return [f"line {line}: {target}.{name}" for target, name, line in imports(module, source, modules)
            if name.startswith("_") and not name.startswith("__")]


def later_stage_imports(module: str, source: str | None = None, modules=MODULES) -> list[str]:
    return [f"line {line}: {target}" for target, _, line in imports(module, source, modules)
            if group(target) and group(module) and RANK[group(target)] > RANK[group(module)]]


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (module -> modules it imports), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph.get(m, ())):
            if state.get(t) == 1:
                return stack[stack.index(t):] + [t]
            if t not in state:
                cycle = visit(t)
                if cycle:
                    return cycle
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            cycle = visit(m)
            if cycle:
                return cycle
    return None


def import_graph(modules=MODULES, sources: dict[str, str] | None = None) -> dict[str, set[str]]:
    """Who imports whom. Importing ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` first,
    so an import of a module is an edge to each package above it too (outside the importer's
    own packages, which are already being imported)."""
    graph: dict[str, set[str]] = {}
    for m in modules:
        edges: set[str] = set()
        for target, _, _ in imports(m, (sources or {}).get(m), modules):
            parts = target.split(".")
            for i in range(2, len(parts) + 1):
                t = ".".join(parts[:i])
                if t in modules and t != m and not m.startswith(t + "."):
                    edges.add(t)
            if target in modules and target != m:
                edges.add(target)
        graph[m] = edges
    return graph


def test_every_module_is_in_a_stage():
    assert {group(m) for m in MODULES if group(m)} <= set(RANK)


@pytest.mark.parametrize("module", sorted(m for m in MODULES if group(m)))
def test_imports_only_go_to_earlier_stages(module):
    wrong = later_stage_imports(module)
    assert not wrong, f"{module} imports from a later stage: {wrong}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_imports_another_modules_private_names(module):
    private = private_names(module)
    assert not private, f"{module} uses private names of other modules: {private}"


def test_no_import_cycles():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_are_short_and_say_their_job(module):
    path = MODULES[module]
    source = path.read_text(encoding="utf-8")
    lines = source.count("\n")
    assert lines <= MAX_LINES, f"{path.relative_to(REPO)} has {lines} lines (at most {MAX_LINES})"
    assert ast.get_docstring(ast.parse(source)), f"{path.relative_to(REPO)} opens with no docstring"


def long_functions(source: str, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    """The functions (and methods) of ``source`` longer than ``limit`` lines, decorators aside."""
    return [f"{node.name} (line {node.lineno}): {node.end_lineno - node.lineno + 1} lines"
            for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno + 1 > limit]


@pytest.mark.parametrize("module", sorted(MODULES))
def test_functions_are_short(module):
    path = MODULES[module]
    found = long_functions(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(REPO)}: over {MAX_FUNCTION_LINES} lines: {', '.join(found)}"


def test_the_checks_catch_what_they_should():
    """The rules themselves, on made-up modules: each kind of breach is found."""
    fake = {name: GENERATOR / "x.py" for name in ("generator.content.loader", "generator.outputs.pages",
                                                   "generator.content.schema", "generator.text",
                                                   "generator.text.render", "generator.text.latex_text")}
    fake["generator.text"] = GENERATOR / "text" / "__init__.py"
    long_one = "def f():\n" + "    x = 1\n" * MAX_FUNCTION_LINES
    assert long_functions(long_one) == [f"f (line 1): {MAX_FUNCTION_LINES + 1} lines"]
    assert long_functions("class C:\n    def g(self):\n        pass\n") == []
    loader = "generator.content.loader"
    assert later_stage_imports(loader, "from ..outputs.pages import plan\n", fake) == \
        ["line 1: generator.outputs.pages"]
    assert later_stage_imports(loader, "def f():\n    import generator.outputs.pages\n", fake) == \
        ["line 2: generator.outputs.pages"]
    assert private_names(loader, "from .schema import _check\n", fake) == ["line 1: generator.content.schema._check"]
    assert private_names(loader, "from . import schema\nschema._check()\n", fake) == \
        ["line 2: generator.content.schema._check"]
    assert private_names(loader, "import generator.content.schema as s\ns._x\n", fake) == \
        ["line 2: generator.content.schema._x"]
    assert private_names(loader, "import generator.content.schema\ngenerator.content.schema._x\n", fake) == \
        ["line 2: generator.content.schema._x"]
    assert private_names(loader, "from .schema import __doc__, check\n", fake) == []
    # A submodule importing a name from its own package's __init__, which imports it back.
    sources = {"generator.text": "from .render import plain_text\n",
               "generator.text.render": "from .latex_text import scan\n",
               "generator.text.latex_text": "from . import plain_text\n"}
    graph = import_graph({m: fake[m] for m in sources}, sources)
    assert find_cycle(graph) == ["generator.text", "generator.text.render", "generator.text.latex_text",
                                 "generator.text"]


def test_templates_format_counts_with_one_filter():
    """Counts are written "12,345" by the ``thousands`` filter (render.py), not a format string
    repeated in every template."""
    from generator.outputs.render import make_environment

    found = [f"{path.relative_to(REPO)}:{n}" for path in sorted((REPO / "templates").rglob("*.html"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "{:," in line]
    assert not found, found
    env = make_environment(REPO / "templates")
    assert env.from_string("{{ n|thousands }} · {{ (n - 345)|thousands }}").render(n=12345) == "12,345 · 12,000"
