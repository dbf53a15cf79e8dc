"""The layout of the code a newcomer finds their way in: no import cycle among the modules of the
rule language (dsl/) and of the engine (interpreter/); no private name of theirs imported by the
rest of the package (academie/); no module of the three over 600 lines.

The imports are read with ``ast`` from every module of the package as installed (academie.dsl and
academie.interpreter are the checkout's top-level dsl/ and interpreter/, see pyproject.toml), at
module level and inside functions alike (``if TYPE_CHECKING:`` included: such an import still
ties the two modules together)."""

from __future__ import annotations

import ast
from pathlib import Path

import academie
import academie.dsl
import academie.interpreter

MAX_LINES = 600
ENGINE = ("academie.dsl", "academie.interpreter")

# Known offenders while the rest of the work on the layout (issue 27) is under way: the expression
# compiler, the API and the reports are being split, and the engine state and its effects still
# import each other. Each entry goes when its module is split; the checks fail on any offender not
# listed here, and on an entry that no longer offends (the list only shrinks).
_PENDING: dict[str, set] = {
    # modules over MAX_LINES lines, as a path under their package's folder
    "long": {
        "academie/compare.py",
        "academie/describe.py",
        "academie/measures.py",
        "academie/narrate.py",
        "academie/serve/app.py",
    },
    # import edges (importer, imported) left out of the search for cycles
    "cycle edge": set(),
    # (importer, "from MODULE import NAME") of a private name of dsl/ or interpreter/
    "private": set(),
}


def _roots() -> dict[str, Path]:
    return {p.__name__: Path(p.__file__).parent for p in (academie, academie.dsl, academie.interpreter)}


def _modules() -> dict[str, Path]:
    """Every module of the package: dotted name -> file."""
    out: dict[str, Path] = {}
    for pkg, root in _roots().items():
        for f in sorted(root.rglob("*.py")):
            rel = f.relative_to(root).with_suffix("").parts
            if "__pycache__" in rel or any(p.startswith(".") for p in rel):
                continue
            if rel[-1] == "__init__":
                rel = rel[:-1]
            out.setdefault(".".join((pkg,) + rel), f)
    return out


def _shown(name: str) -> str:
    """A module's file as a path of the checkout: dsl/x.py, interpreter/x.py, academie/x.py."""
    for pkg, folder in (("academie.dsl", "dsl"), ("academie.interpreter", "interpreter"), ("academie", "academie")):
        if name == pkg or name.startswith(pkg + "."):
            rest = name[len(pkg) :].lstrip(".").replace(".", "/")
            path = _modules()[name]
            return (
                f"{folder}/{rest + '/' if rest else ''}__init__.py"
                if path.name == "__init__.py"
                else f"{folder}/{rest}.py"
            )
    return name


def _in_engine(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in ENGINE)


def _imports(name: str, path: Path, modules: dict[str, Path]):
    """(imported module, names taken from it, line) for every import of the project's modules in
    ``name``: ``from M import N`` where N is a module gives N itself."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                target = a.name
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target:
                    yield target, [], node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target not in modules:
                continue
            plain = []
            for a in node.names:
                sub = f"{target}.{a.name}"
                if sub in modules:
                    yield sub, [], node.lineno
                else:
                    plain.append(a.name)
            if plain:
                yield target, plain, node.lineno


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {m: {t for t, _, _ in _imports(m, p, modules) if t != m} for m, p in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (a list of modules, the first repeated at the end) for each strongly connected
    component of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    comps: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(comp)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    out = []
    for comp in comps:
        start = min(comp)
        paths = {start: [start]}
        todo = [start]
        found = None
        while todo and found is None:  # the shortest way from start back to itself, in the component
            v = todo.pop(0)
            for w in sorted(graph[v] & comp):
                if w == start:
                    found = paths[v] + [start]
                    break
                if w not in paths:
                    paths[w] = paths[v] + [w]
                    todo.append(w)
        out.append(found or sorted(comp))
    return sorted(out)


def _engine_graph(skip: set = frozenset()) -> dict[str, set[str]]:
    graph = _graph()
    return {m: {t for t in ts if _in_engine(t) and (m, t) not in skip} for m, ts in graph.items() if _in_engine(m)}


def _long_modules() -> dict[str, int]:
    out = {}
    for name, path in _modules().items():
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            out[_shown(name)] = n
    return out


def _private_imports() -> set[tuple[str, str]]:
    modules = _modules()
    out = set()
    for name, path in modules.items():
        if _in_engine(name):
            continue
        for target, names, _ in _imports(name, path, modules):
            if not _in_engine(target):
                continue
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            private += [p for p in target.split(".")[2:] if p.startswith("_")]  # a private module
            for n in private:
                out.add((name, f"from {target} import {n}"))
    return out


def test_the_walk_finds_every_package():
    """The walk sees the three packages and the imports among them (else every check would pass
    on nothing)."""
    modules = _modules()
    assert {"academie.api", "academie.dsl.compiler", "academie.dsl.loader", "academie.interpreter.state"} <= set(
        modules
    )
    graph = _graph()
    assert "academie.dsl.errors" in graph["academie.dsl.loader"]
    assert "academie.interpreter.state" in graph["academie.interpreter.worlds"]
    # an import inside a function counts, and so does one under TYPE_CHECKING
    assert "academie.dsl.model" in graph["academie.interpreter.simulate"]
    assert "academie.interpreter.compiled" in graph["academie.interpreter.base"]


def test_no_import_cycle_in_dsl_or_interpreter():
    cycles = _cycles(_engine_graph(_PENDING["cycle edge"]))
    assert not cycles, "import cycles among the modules of dsl/ and interpreter/:\n" + "\n".join(
        "  " + " -> ".join(c) for c in cycles
    )


def test_no_private_name_of_dsl_or_interpreter_imported_by_the_package():
    found = _private_imports() - _PENDING["private"]
    assert not found, "academie/ imports a private name of dsl/ or interpreter/:\n" + "\n".join(
        f"  {m}: {what}" for m, what in sorted(found)
    )


def test_no_module_over_600_lines():
    found = {k: n for k, n in _long_modules().items() if k not in _PENDING["long"]}
    assert not found, f"modules over {MAX_LINES} lines (split them by what they do):\n" + "\n".join(
        f"  {k}: {n} lines" for k, n in sorted(found.items())
    )


def test_pending_offenders_still_offend():
    """An entry of _PENDING that no longer offends is removed, so that it cannot come back unseen."""
    graph = _engine_graph()
    stale = (
        [k for k in _PENDING["long"] if k not in _long_modules()]
        + [e for e in _PENDING["cycle edge"] if e[1] not in graph.get(e[0], ()) or not _on_cycle(e, graph)]
        + [p for p in _PENDING["private"] if p not in _private_imports()]
    )
    assert not stale, f"entries of _PENDING that no longer offend (remove them): {sorted(map(str, stale))}"


def _on_cycle(edge: tuple[str, str], graph: dict[str, set[str]]) -> bool:
    """Whether the import ``edge`` closes a cycle: its target reaches back to its source."""
    src, dst = edge
    seen, todo = {dst}, [dst]
    while todo:
        v = todo.pop()
        if v == src:
            return True
        for w in graph.get(v, ()):
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return False
