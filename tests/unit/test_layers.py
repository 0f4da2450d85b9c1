"""Imports point down the layers docs/ARCHITECTURE.md draws, and that page names every module.

The layer list is the code block under "## The layers": a line per layer,
top first, its modules (``db.py``) and packages (``views/``) before two or
more spaces and what the layer is for. A module may import its own layer and
the layers below it. Every import is walked, a lazy one inside a function
too: a lower layer that needs something of a higher one is given it.
"""

import ast
import pathlib
import re

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "scorekeeper"
ARCHITECTURE = PACKAGE.parent / "docs" / "ARCHITECTURE.md"


def layers_drawn(text):
    """[[name, ...] per layer, top first] from the block under "## The layers"."""
    section = text.split("## The layers", 1)[1]
    block = section.split("```", 2)[1]
    layers = []
    for line in block.strip().splitlines():
        names = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0].split()
        layers.append(names)
    return layers


def module_name(path):
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules():
    """{dotted name: path} of every module of the package."""
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name, path, known):
    """The package's modules that ``name`` imports, anywhere in its file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                whole = f"{target}.{alias.name}"
                found.add(whole if whole in known else target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {target for target in found if target in known and target != name}


def layer_of(name, layers):
    """The index of the layer that lists ``name`` (a module or the package holding it), or None."""
    inside = name.split(".")[1:]  # scorekeeper.views.games -> views, games
    for index, names in enumerate(layers):
        for listed in names:
            if listed.endswith("/") and inside[:1] == [listed.rstrip("/")]:
                return index
            if listed == "__init__.py" and not inside:
                return index
            if listed.endswith(".py") and inside == [listed.removesuffix(".py")]:
                return index
    return None


def upward_imports(graph, layers):
    """(importer, imported) pairs where the imported module sits on a higher layer."""
    return sorted(
        (name, target)
        for name, targets in graph.items()
        for target in targets
        if layer_of(target, layers) < layer_of(name, layers)
    )


def test_every_module_has_a_layer():
    layers = layers_drawn(ARCHITECTURE.read_text(encoding="utf-8"))
    assert len(layers) >= 8
    unlisted = [name for name in modules() if layer_of(name, layers) is None]
    assert not unlisted, f"not on any layer of docs/ARCHITECTURE.md: {unlisted}"


def test_no_import_runs_up_the_layers():
    layers = layers_drawn(ARCHITECTURE.read_text(encoding="utf-8"))
    known = modules()
    graph = {name: imports_of(name, path, known) for name, path in known.items()}
    assert sum(len(targets) for targets in graph.values()) > 150  # the walk does see the imports
    assert upward_imports(graph, layers) == []


def test_an_upward_import_is_caught():
    # the check itself: the import issue 24 removed from db.py would fail it again
    layers = layers_drawn(ARCHITECTURE.read_text(encoding="utf-8"))
    graph = {
        "scorekeeper.storage.db": {"scorekeeper.services.summaries"},
        "scorekeeper.views.games": {"scorekeeper.storage.db"},
    }
    assert upward_imports(graph, layers) == [("scorekeeper.storage.db", "scorekeeper.services.summaries")]


def test_the_tree_is_the_architecture_a_folder_per_layer_and_a_handful_of_leaves():
    """Each layer but the entry and the leaves is one or more folders (issue 45); the
    package's top holds the factory, ``serve.py`` and at most five small leaves, each on
    the leaves' line; every folder of the package is on a layer."""
    layers = layers_drawn(ARCHITECTURE.read_text(encoding="utf-8"))
    entry, *middle, leaves, assets = layers
    assert entry == ["__init__.py", "serve.py", "cli/"]
    assert assets == ["templates/", "static/"]
    for names in middle:
        assert all(name.endswith("/") for name in names), f"a layer of loose modules: {names}"
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "serve.py"))
    assert loose == sorted(leaves) and len(loose) <= 5, loose
    assert all(name.endswith(".py") for name in leaves)
    folders = {p.name + "/" for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    drawn = {name for names in layers for name in names if name.endswith("/")}
    assert folders <= drawn, f"folders on no layer: {folders - drawn}"


def test_the_architecture_page_names_every_module():
    text = ARCHITECTURE.read_text(encoding="utf-8")
    unnamed = [
        str(path.relative_to(PACKAGE))
        for path in modules().values()
        if not (path.name == "__init__.py" and path.parent != PACKAGE)
        and f"`{path.relative_to(PACKAGE)}`" not in text
    ]
    assert not unnamed, f"docs/ARCHITECTURE.md does not name: {unnamed}"


def test_a_module_over_400_lines_says_why_at_its_top():
    """A module longer than 400 lines is split, or says why not in its docstring's second
    paragraph, which begins "Over 400 lines:" (issue 45)."""
    long = {}
    for name, path in modules().items():
        text = path.read_text(encoding="utf-8")
        if text.count("\n") > 400:
            paragraphs = (ast.get_docstring(ast.parse(text)) or "").split("\n\n")
            long[name] = len(paragraphs) > 1 and paragraphs[1].startswith("Over 400 lines: ")
    assert long and all(long.values()), (
        f"over 400 lines without a reason: {[n for n, ok in long.items() if not ok]}"
    )
