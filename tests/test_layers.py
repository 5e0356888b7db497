"""The package's layers: imports point one way, and shared code knows no game.

Layers, lowest first: ``engine`` (seeding, contract, runner, cache), ``kits`` (what
every game builds on: strategy files, the search driver), ``stats`` (arithmetic on
results, playing no game), ``tuning`` (self-play tuning and best responses, through the
contract), ``analyses`` (runs of their own: the sequential test, the planner's pilot),
``reports``, ``games`` (each game in its own folder,
the slicing kit beside them), then the application on top (``app``: experiment files,
the API, the command line, the benchmark, the gate check). A module may import from its
own layer or a lower one; a game may import no other game.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from cakesim.games import GAMES, all_games

PACKAGE = Path(__file__).parents[1] / "cakesim"
LAYERS = ("engine", "kits", "stats", "tuning", "analyses", "reports", "games", "app")
TOP = len(LAYERS)
SHARED_KITS = ("slicing",)
"""Folders under ``games/`` that are kits for several games, not games."""


def _layer(module: str) -> int:
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else TOP


def _game_folder(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) > 2 and parts[1] == "games" and parts[2] not in SHARED_KITS:
        return parts[2]
    return None


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_imports(tree: ast.Module) -> list[tuple[int, str]]:
    """Every ``cakesim`` import with its line, leaving out ``if TYPE_CHECKING:`` blocks."""
    skipped = {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
               and ast.unparse(block.test) == "TYPE_CHECKING"
               for inner in block.body for node in ast.walk(inner)}
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] if node.module != "cakesim" else [
                f"cakesim.{a.name}" for a in node.names]
            found += [(node.lineno, name) for name in names if name.startswith("cakesim")]
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("cakesim")]
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path):
    module = _module_name(path)
    if module == "cakesim":
        return  # the package's front door re-exports the API
    wrong = []
    for line, imported in _runtime_imports(ast.parse(path.read_text())):
        if _layer(imported) > _layer(module):
            wrong.append(f"line {line}: {imported} is a higher layer")
        theirs, ours = _game_folder(imported), _game_folder(module)
        if theirs is not None and ours is not None and theirs != ours:
            wrong.append(f"line {line}: {imported} belongs to another game")
    assert not wrong, f"{module}: " + "; ".join(wrong)


def test_the_layer_rule_sees_an_upward_import():
    tree = ast.parse("from cakesim.reports.report import write_report\n")
    assert [_layer(m) for _, m in _runtime_imports(tree)] == [LAYERS.index("reports")]
    assert _layer("cakesim.engine.runner") < _layer("cakesim.reports.report")
    guarded = ast.parse("if TYPE_CHECKING:\n    from cakesim.app.experiment import Experiment\n")
    assert _runtime_imports(guarded) == []


def _game_words() -> set[str]:
    words = set(GAMES)
    for game in all_games():
        words |= {game.title, game.name.replace("-", "_")}
    return {w.casefold() for w in words}


def _code_words(tree: ast.Module) -> str:
    """Every identifier and string literal of a module, docstrings left out (they may
    give a game as an example; the code may not depend on one)."""
    # A string standing alone as a statement documents what precedes or encloses it.
    docstrings = {id(node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    words = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                words.append(node.value)
        elif isinstance(node, ast.Name):
            words.append(node.id)
        elif isinstance(node, ast.Attribute):
            words.append(node.attr)
        elif isinstance(node, ast.alias):
            words.append(node.name)
    return "\n".join(words).casefold()


SHARED = [p for p in MODULES if "games" not in p.relative_to(PACKAGE).parts]


@pytest.mark.parametrize("path", SHARED, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_shared_code_names_no_game(path):
    code = _code_words(ast.parse(path.read_text()))
    named = sorted(w for w in _game_words() if w in code)
    assert not named, f"{path.relative_to(PACKAGE)} names {named}"


def test_the_game_word_check_sees_a_game_name():
    code = _code_words(ast.parse("\"\"\"Piece o' Cake in a docstring is fine.\"\"\"\n"
                                 "if game.name == 'speedtorte':\n    pass\n"))
    assert "speedtorte" in code and "piece o' cake" not in code


def _loaded_after(code: str) -> set[str]:
    """The top-level modules a fresh interpreter has loaded after running ``code``."""
    shown = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(sorted(sys.modules)))"],
        capture_output=True, text=True, check=True).stdout.split()
    return set(shown)


HEAVY = ("matplotlib", "cma", "markdown")
"""Plotting, tuning and page libraries: no game's play needs them."""


def test_a_game_and_its_kernel_load_no_plotting_or_tuning_library():
    # A worker that unpickles a table imports the game's module; so does a notebook that
    # only simulates.
    modules = [m for name in GAMES
               for m in (GAMES[name], GAMES[name].rsplit(".", 1)[0] + ".kernel")]
    loaded = _loaded_after("\n".join(f"import {m}" for m in ["cakesim", *modules]))
    assert set(modules) <= loaded
    assert not [m for m in HEAVY if m in loaded]


def test_the_commands_help_loads_no_game():
    loaded = _loaded_after("from cakesim.app.cli import main\ntry:\n    main(['--help'])\n"
                           "except SystemExit:\n    pass")
    assert "cakesim.app.cli" in loaded
    assert not [m for m in loaded if m.startswith("cakesim.games.")]
    assert not [m for m in HEAVY if m in loaded]


def test_stats_plays_no_game():
    # Statistics are arithmetic on results; whatever plays games is an analysis.
    for path in sorted((PACKAGE / "stats").glob("*.py")):
        text = path.read_text()
        assert "play_chunk(" not in text and "run_table(" not in text, path.name
