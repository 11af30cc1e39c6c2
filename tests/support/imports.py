"""What a module imports, read from its source: for the tests that hold the floors and the
apps' page modules to their import rules."""

import ast
from pathlib import Path


def imported(path: Path, package: str) -> list[tuple[str, int]]:
    """The modules a module of ``package`` imports (a relative import resolved, and each
    name of ``from package import name`` as a module of its own), with their lines."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((module, node.lineno))
            found += [(f"{module}.{alias.name}", node.lineno) for alias in node.names]
    return found
