"""The service's rooms keep their shape: what import-linter cannot say (pyproject.toml holds
the layer and forbidden-import contracts), checked on the import graph and the source."""
from __future__ import annotations

import ast
from pathlib import Path

import grimp

SERVICE = Path(__file__).resolve().parents[2] / "service"


def _graph():
    return grimp.build_graph("service")


def _cycles(graph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    modules = sorted(graph.modules)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in modules}
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in modules:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            if child < len(edges[node]):
                work.append((node, child + 1))
                nxt = edges[node][child]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return found


def test_no_service_module_imports_one_that_imports_it_back():
    """A cycle, even through an import inside a function or between a package and its own
    modules, means two modules that cannot be understood apart."""
    assert _cycles(_graph()) == []


def test_only_the_extensions_module_reaches_into_the_flask_app_for_the_services():
    """Views get the shared services from ``service.web.extensions``; lower rooms are handed
    what they need as arguments."""
    readers = sorted(str(path.relative_to(SERVICE)) for path in SERVICE.rglob("*.py")
                     if 'extensions["chasqui"]' in path.read_text()
                     or "extensions[KEY]" in path.read_text())
    assert readers == ["web/extensions.py"]


def test_no_module_imports_another_modules_private_names():
    """A leading underscore says "only this module uses it"; a name another module needs is
    public and named so.  ``_`` alone is gettext's conventional name, not a private one."""
    offenders = []
    for path in SERVICE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("service"):
                offenders += [f"{path.relative_to(SERVICE)}: {node.module}.{alias.name}"
                              for alias in node.names
                              if alias.name.startswith("_") and alias.name != "_"
                              and not alias.name.startswith("__")]
    assert offenders == []
