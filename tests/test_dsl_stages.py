"""The expression front end as stages (docs/engine.md, "The expression front end"): no
module of dsl/ imports one that imports it back (a lazy import inside a function counts
too; an import for type checking alone does not), and every module the compiler is made of is small enough to read (at most 600 lines)."""

import ast
from pathlib import Path

DSL = Path(__file__).resolve().parent.parent / "dsl"


def _module(path: Path) -> str:
    rel = path.relative_to(DSL).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _run_time_imports(tree):
    """The ``from … import …`` of a module, but those under ``if TYPE_CHECKING:``."""
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.ImportFrom):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def _imports() -> dict[str, set[str]]:
    """dsl module -> the dsl modules it imports (``from .x import y`` may name module y)."""
    mods = {_module(p): p for p in DSL.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        out = set()
        for node in _run_time_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if node.level:
                base = package[: len(package) - (node.level - 1)] if node.level > 1 else package
                target = ".".join([*base, *(node.module.split(".") if node.module else [])])
                for alias in node.names:
                    sub = f"{target}.{alias.name}" if target else alias.name
                    if sub in mods:
                        out.add(sub)
                    elif target in mods:
                        out.add(target)
        graph[name] = out - {name}
    return graph


def test_no_module_of_dsl_imports_one_that_imports_it_back():
    graph = _imports()
    cycles = []
    for start in graph:
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    cycles.append(" -> ".join([*path, start]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*path, nxt]))
    assert cycles == []


def test_every_module_of_the_compiler_is_at_most_600_lines():
    graph = _imports()
    front, todo = set(), ["compiler"]
    while todo:
        m = todo.pop()
        if m not in front:
            front.add(m)
            todo.extend(graph[m])
    assert {"parse", "kinds", "closures", "functions", "optimise"} <= front
    long = {}
    for m in front:
        path = DSL / (m.replace(".", "/") + ".py")
        if not path.exists():
            path = DSL / m.replace(".", "/") / "__init__.py"
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > 600:
            long[m] = n
    assert long == {}


def test_an_expression_compiled_without_limits_is_held_to_those_of_a_rule_file():
    """``compile_expr`` with no limits (``dsl.reads``, the API's checks) refuses what the
    loader's default ``Limits`` refuse in a rule file: the parser's defaults are the loader's."""
    from academie.dsl.compiler import Scope, compile_expr
    from academie.dsl.errors import Pos, RuleError
    from academie.dsl.loader import Limits
    from academie.dsl.parse import ExprLimits

    lim, own = Limits(), ExprLimits()
    assert (own.expr_length, own.expr_depth, own.int_digits) == (lim.expr_length, lim.expr_depth, lim.int_digits)
    for text in ("1" + " + 1" * (lim.expr_length // 4), "(" * (lim.expr_depth + 1) + "1" + ")" * (lim.expr_depth + 1)):
        try:
            compile_expr(text, Pos("f", 1, 1), Scope())
        except RuleError as e:
            assert e.diagnostics[0].code == "limit"
        else:
            raise AssertionError(f"{text[:20]}… compiled")
