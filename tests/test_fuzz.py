"""Bad input of every kind is refused cleanly: exit status 2 and one line, never a traceback.

First one case for each input that once got through (a crash, a traceback or silently
wrong numbers), then hypothesis fuzzing: random bytes as files, the published rule files
with one number mutated, score sheets with odd values, flags out of range. A mutated rule
set that is accepted must play the same games in the kernel and in the reference engine.
"""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from joblib import cpu_count

from cakesim.app.cli import main
from cakesim.app.experiment import load_experiment
from cakesim.engine.cache import ChunkCache
from cakesim.engine.errors import InputError
from cakesim.games import game_named
from cakesim.games.speedtorte.strategies import named_strategy
from tests.conformance.conftest import assert_parity
from tests.games.part_du_chef import conftest as part_du_chef
from tests.games.piece_o_cake import conftest as piece_o_cake
from tests.games.speedtorte import conftest as speedtorte

GAMES = ("piece-o-cake", "speedtorte", "part-du-chef")
PUBLISHED = {name: Path(game_named(name).load_rules().source).read_text() for name in GAMES}
"""Each game's published rule file, as text."""
FUZZ = settings(max_examples=15, deadline=None, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

EXPERIMENT = """
[experiment]
name = "fuzz"
game = "{game}"
seed = 3
games = 100

[strategies.s]
{weights}

[[tables]]
players = {players}
seats = "s"
"""


def refused(capsys, argv: list[str], *names: str) -> str:
    """Run the CLI: it must exit 2 with one error line that names each of ``names``."""
    try:
        status = main(argv)
    except SystemExit as stop:  # argparse refuses a flag before any command runs
        status = stop.code
    err = capsys.readouterr().err
    assert status == 2, err
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1 and errors[0] == err.strip().splitlines()[-1], err
    for name in names:
        assert name in errors[0], (name, errors[0])
    return errors[0]


def write(folder: Path, name: str, content: str | bytes) -> str:
    """Write ``content`` to ``folder/name``; its path as a string."""
    path = folder / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return str(path)


def rules_with(game: str, *changes: tuple[str, str]) -> str:
    """The published rule file of ``game`` with each ``(old, new)`` text replaced once."""
    text = PUBLISHED[game]
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def experiment(game: str, weights: str = "", players: int = 3, head: str = "") -> str:
    """A small experiment: strategy ``s`` of ``weights``, ``head`` added to ``[experiment]``."""
    text = EXPERIMENT.format(game=game, weights=weights, players=players)
    return text.replace('games = 100\n', f'games = 100\n{head}\n')


def crash_free(argv: list[str]) -> subprocess.CompletedProcess:
    """Run the CLI in a process of its own, for inputs that once crashed the interpreter."""
    return subprocess.run([sys.executable, "-m", "cakesim", *argv], capture_output=True,
                          text=True, timeout=300)


# --- 1. Speedtorte hands and plates that do not fit in the box --------------------------

@pytest.mark.parametrize(("hand_size", "players", "command"), [(10, 5, "replay"), (7, 4, "run")])
def test_hands_that_do_not_fit_the_box_are_refused(tmp_path, hand_size, players, command):
    # Once: a segmentation fault (10 pieces a hand, 5 players), or games reporting
    # "supply_left -4" (7 pieces, 4 players), and a ValueError from replay.
    rules = write(tmp_path, "small_box.toml", rules_with(
        "speedtorte", ("copies = 2 ", "copies = 1 "),
        ("hand_size = 4", f"hand_size = {hand_size}")))
    exp = write(tmp_path, "exp.toml", experiment("speedtorte", players=players,
                                                  head='rules = "small_box.toml"'))
    argv = {"replay": ["replay", "speedtorte", "--seed", "1", "--index", "0", "--players",
                       str(players), "--rules", rules],
            "run": ["run", exp, "--quiet", "--no-cache", "--n-jobs", "1",
                    "--out", str(tmp_path / "out")]}[command]
    done = crash_free(argv)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "small_box.toml: table.hand_size:" in done.stderr
    assert "allowed: at most 4 per hand at 5 players" in done.stderr


# --- 2. Scores that overflow the kernels' result type -----------------------------------

def test_a_piece_o_cake_rule_set_whose_scores_overflow_is_refused(tmp_path, capsys):
    head = PUBLISHED["piece-o-cake"].split("[[kinds]]")[0]
    kinds = "".join(f'[[kinds]]\nname = "k{k}"\nmajority_value = 1000\ncream = [100, 100]\n'
                    for k in range(32))
    rules = write(tmp_path, "huge.toml", head + kinds)
    line = refused(capsys, ["replay", "piece-o-cake", "--seed", "1", "--index", "0",
                            "--rules", rules], "huge.toml", "kinds:", "115256", "32767")
    # Every table may play three rounds (the 3-rounds variants) and the joker, and a seat
    # may get up to 50 points of seat bonus.
    assert ("3 rounds of every majority value (32000), every slice's cream (6400) and the "
            "joker (2), and a seat bonus (at most 50)") in line


def test_a_part_du_chef_rule_set_whose_scores_overflow_is_refused(tmp_path, capsys):
    head = PUBLISHED["part-du-chef"].split("[[kinds]]")[0]
    head = head.replace("pizzas = 5", "pizzas = 20").replace(
        "slices_per_pizza = 13", "slices_per_pizza = 16").replace(
        "count = 3", "count = 0").replace("count = 5", "count = 20")
    olives = ", ".join(["100"] * 60)
    kinds = "".join(f'[[kinds]]\nname = "k{k}"\nmajority_value = 1000\nolives = [{olives}]\n'
                    f'finisher = 0\n' for k in range(5))
    rules = write(tmp_path, "huge.toml", head + kinds)
    score = write(tmp_path, "end.json", json.dumps({"players": [{}, {}]}))
    refused(capsys, ["score", "part-du-chef", score, "--rules", rules], "huge.toml", "kinds:",
            "32767")


def test_a_speedtorte_rule_set_whose_scores_overflow_is_refused(tmp_path, capsys):
    rules = write(tmp_path, "rich.toml", rules_with("speedtorte", ("card = 10 ", "card = 1000 ")))
    refused(capsys, ["replay", "speedtorte", "--seed", "1", "--index", "0", "--rules", rules],
            "rich.toml", "points.card:", "50107")


# --- 3. Strategy weights: finite and in their documented range --------------------------

@pytest.mark.parametrize(("game", "weights", "key", "says"), [
    ("piece-o-cake", "eat_weight = nan", "eat_weight", "must be a finite number, not nan"),
    ("piece-o-cake", "decline_threshold = -inf", "decline_threshold", "finite"),
    ("piece-o-cake", "collect_weight = -1", "collect_weight", "allowed: 0 to 1000000"),
    ("speedtorte", "fulfil = nan", "fulfil", "must be a finite number, not nan"),
    ("speedtorte", "signal_help = 2", "signal_help", "allowed: 0 to 1"),
    ("speedtorte", "respect = -3", "respect", "allowed: 0 to 1000000"),
    ("part-du-chef", "finisher_bias = inf", "finisher_bias", "must be a finite number, not inf"),
    ("part-du-chef", "finisher_bias = 1e300", "finisher_bias",
     "allowed: -1000000 to 1000000"),
    ("part-du-chef", "spite = true", "spite", "must be a number, not True"),
])
def test_weights_must_be_finite_and_in_range(tmp_path, capsys, game, weights, key, says):
    path = write(tmp_path, "weights.toml", experiment(game, weights))
    refused(capsys, ["run", path, "--quiet", "--no-cache"], "weights.toml",
            f"strategies.s.{key}:", says)


# --- 4. Files that are not text, folders, numbers too large, nesting too deep -----------

BINARY = b"\xff\xfe\x00\x81 not text"


@pytest.mark.parametrize("argv", [
    ["run", "{file}"],
    ["replay", "piece-o-cake", "--seed", "1", "--index", "0", "--rules", "{file}"],
    ["score", "part-du-chef", "{file}"],
    ["speedtorte", "cards", "--cards", "{file}"],
    ["speedtorte", "check", "F01", "--tops", "sacher,apricot:1,apricot:2,apricot:3",
     "--cards", "{file}"],
    ["speedtorte", "budget", "--level", "Lehrling", "--players", "3", "--target", "0.5",
     "--timing", "{file}"],
])
def test_binary_files_and_folders_are_refused(tmp_path, capsys, argv):
    binary = write(tmp_path, "binary.toml", BINARY)
    refused(capsys, [binary if a == "{file}" else a for a in argv], "binary.toml",
            "not UTF-8 text")
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    refused(capsys, [str(folder) if a == "{file}" else a for a in argv], "folder.toml",
            "is a folder")


def test_a_folder_as_experiment_or_score_file(tmp_path, capsys):
    refused(capsys, ["run", str(tmp_path)], str(tmp_path), "is a folder")
    refused(capsys, ["score", "piece-o-cake", str(tmp_path)], str(tmp_path), "is a folder")


@pytest.mark.parametrize(("argv", "flag"), [
    (["run", "x", "--seed", str(2**64)], "--seed"),
    (["run", "x", "--seed", str(2**63)], "--seed"),
    (["run", "x", "--games", str(10**12)], "--games"),
    (["replay", "speedtorte", "--seed", "1", "--index", str(2**64)], "--index"),
    (["replay", "piece-o-cake", "--seed", str(2**63), "--index", "1"], "--seed"),
    (["run", "x", "--n-jobs", "-100"], "--n-jobs"),
    (["run", "x", "--n-jobs", "0"], "--n-jobs"),
    (["run", "x", "--n-jobs", str(cpu_count() + 1)], "--n-jobs"),
])
def test_flags_out_of_range(capsys, argv, flag):
    refused(capsys, argv, f"argument {flag}:", "allowed:")


def test_seeds_in_files_and_on_the_command_line_have_one_range(tmp_path, capsys):
    path = write(tmp_path, "seed.toml", experiment("piece-o-cake").replace(
        "seed = 3", f"seed = {2**63}"))
    refused(capsys, ["run", path], "seed.toml", "experiment.seed:",
            f"allowed: 0 to {2**63 - 1}")
    refused(capsys, ["run", path, "--seed", str(2**63)], "--seed", f"allowed: 0 to {2**63 - 1}")


@pytest.mark.parametrize("game", ["piece-o-cake", "part-du-chef"])
def test_deeply_nested_or_repeated_score_files(tmp_path, capsys, game):
    deep = write(tmp_path, "deep.json", '{"players": ' + "[" * 100_000 + "]" * 100_000 + "}")
    refused(capsys, ["score", game, deep], "deep.json", "nested too deeply")
    twice = write(tmp_path, "twice.json", '{"players": [{}, {}], "players": [{}, {}, {}]}')
    refused(capsys, ["score", game, twice], "twice.json", "players: given twice")
    huge = write(tmp_path, "huge.json", '{"players": [' + "9" * 5000 + "]}")
    refused(capsys, ["score", game, huge], "huge.json", "not valid JSON")


def test_an_empty_cache_file_counts_as_missing(tmp_path):
    table = piece_o_cake.table_of(3)
    cache = ChunkCache(tmp_path)
    path = cache.path(table, 1, 0, 100)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    assert cache.load(table, 1, 0, 100) is None


# --- 5. Inputs that once gave silently wrong numbers ------------------------------------

@pytest.mark.parametrize(("game", "players", "allowed"), [
    ("piece-o-cake", 0, "allowed: 2 to 5"), ("speedtorte", 0, "allowed: 1 to 5"),
    ("part-du-chef", 9, "allowed: 2 to 5"), ("speedtorte", -2, "allowed: 1 to 5"),
])
def test_replay_checks_the_player_count_against_the_rule_set(capsys, game, players, allowed):
    refused(capsys, ["replay", game, "--seed", "1", "--index", "0", "--players", str(players)],
            "--players", allowed)


@pytest.mark.parametrize(("game", "changes", "says"), [
    ("piece-o-cake", [("cream = [1, 1, 1]", "cream = [true, 1, 1]")], "kinds[0].cream: True"),
    ("piece-o-cake", [("4 = [1]", "4 = [true]")], "compensation.4: True"),
    ("part-du-chef", [("olives = [1, 1, 1, 1, 1, 1, 1]", "olives = [1, 1, 1, 1, 1, 1, false]")],
     "kinds[4].olives: False"),
    ("part-du-chef", [("count = 3", "count = true")], "pepper.count: must be an integer"),
    ("piece-o-cake", [("{ 2 = 4 }", "{ " + "9" * 5000 + " = 4 }")],
     "must be a player count from 2 to 5"),
    ("speedtorte", [("candles = [1, 7]", "candles = [true, 7]")], "pieces.candles: True"),
    ("speedtorte", [("min_players = 1 ", "min_players = 4 "),
                    ("max_players = 5", "max_players = 2")],
     "table.max_players: 2 is out of range; allowed: 4 to 5"),
])
def test_rule_files_read_strictly(tmp_path, capsys, game, changes, says):
    rules = write(tmp_path, "strict.toml", rules_with(game, *changes))
    refused(capsys, ["replay", game, "--seed", "1", "--index", "0", "--rules", rules],
            "strict.toml", says)


def test_levels_read_strictly(tmp_path, capsys):
    levels = Path(speedtorte.RULES.levels_source).read_text()
    write(tmp_path, "levels.toml", levels.replace("tiers = [1]", "tiers = [true]", 1))
    path = write(tmp_path, "exp.toml", experiment("speedtorte", head='levels = "levels.toml"'))
    refused(capsys, ["run", path], "levels.toml", "levels[0].tiers:", "True is not allowed")


def test_special_orders_must_leave_a_card_to_fulfil(tmp_path, capsys):
    rules = write(tmp_path, "few.toml", rules_with("speedtorte",
                                                   ("fewer_cards = 2 ", "fewer_cards = 6 ")))
    refused(capsys, ["replay", "speedtorte", "--seed", "1", "--index", "0", "--rules", rules],
            "few.toml", "special_orders.fewer_cards:", "allowed: 0 to 5")


def test_every_level_needs_a_seed_budget(tmp_path, capsys):
    timing = Path(speedtorte.RULES.timing.source).read_text().replace("Meister = 195", "")
    path = write(tmp_path, "timing.toml", timing)
    refused(capsys, ["speedtorte", "budget", "--level", "Meister", "--players", "3", "--target",
                     "0.5", "--timing", path], "timing.toml", "budgets.Meister: missing")


@pytest.mark.parametrize(("flag", "value", "says"), [
    ("--games", "2000000", "allowed: 1 to 1000000"), ("--players", "9", "allowed: 1 to 5")])
def test_budget_flags(capsys, flag, value, says):
    argv = ["speedtorte", "budget", "--level", "Meister", "--players", "3", "--target", "0.5"]
    refused(capsys, [*argv, flag, value], flag, says)


@pytest.mark.parametrize(("tops", "says"), [
    ("sacher,sacher,apricot:1,apricot:2", "2 x Sachertorte, but the box holds 1"),
    ("apricot:1,apricot:1,Aprikose:1,apricot:2", "3 x apricot 1, but the box holds 2"),
    ("strawberry:\u00b3,apricot:1,apricot:2,apricot:3", "strawberry:\u00b3: not a piece"),
])
def test_card_check_tops_come_from_one_box(capsys, tops, says):
    refused(capsys, ["speedtorte", "check", "F01", "--tops", tops], "--tops", says)


# --- Fuzzing: random text and bytes, mutated rule files, odd score sheets, flags -------

@FUZZ
@given(tops=st.text(max_size=60))
def test_any_text_as_card_check_tops(capsys, tops):
    try:
        status = main(["speedtorte", "check", "F01", "--tops", tops])
    except SystemExit as stop:  # e.g. "-x": argparse takes it for a flag
        status = stop.code
    err = capsys.readouterr().err
    assert status in (0, 2) and "Traceback" not in err
    assert status == 0 or "--tops" in err


FILE_COMMANDS = {
    "experiment": ["run", "{file}", "--quiet", "--no-cache"],
    "piece-o-cake rules": ["replay", "piece-o-cake", "--seed", "1", "--index", "0", "--rules",
                           "{file}"],
    "speedtorte rules": ["replay", "speedtorte", "--seed", "1", "--index", "0", "--rules",
                         "{file}"],
    "part-du-chef rules": ["replay", "part-du-chef", "--seed", "1", "--index", "0", "--rules",
                           "{file}"],
    "piece-o-cake score": ["score", "piece-o-cake", "{file}"],
    "part-du-chef score": ["score", "part-du-chef", "{file}"],
    "card catalogue": ["speedtorte", "cards", "--cards", "{file}"],
}


@FUZZ
@given(command=st.sampled_from(sorted(FILE_COMMANDS)), content=st.binary(max_size=300))
def test_random_bytes_as_any_file(tmp_path, capsys, command, content):
    path = write(tmp_path, "random.file", content)
    refused(capsys, [path if a == "{file}" else a for a in FILE_COMMANDS[command]],
            "random.file")


NUMBER = re.compile(r"(?<![\w.\"-])-?\d+(?:\.\d+)?(?![\w.\"])")
MUTATIONS = st.sampled_from([*map(str, range(-1, 17)), "true", "false", "nan", "inf", "-inf",
                             "1e400", "0.5", '"3"', "[]", str(2**64), "99999", "9" * 5000])
"""What a number in a valid file becomes: mostly another small number, else anything odd."""


def numbers_outside_comments(text: str) -> list[tuple[int, int]]:
    """Start and end of every number literal of a TOML text that is not in a comment."""
    spans, offset = [], 0
    for line in text.splitlines(keepends=True):
        code = line.split("#", 1)[0]
        spans += [(offset + m.start(), offset + m.end()) for m in NUMBER.finditer(code)]
        offset += len(line)
    return spans


def play_both_engines(game: str, rules, players: int) -> None:
    """A few games of an accepted rule set: the kernel must agree with the reference."""
    if game == "piece-o-cake":
        names = [("random", "greedy-balanced")[seat % 2] for seat in range(players)]
        variant = "compensation" if rules.has_compensation(players) else "base"
        table = piece_o_cake.table_of(players, variant, names, rules=rules)
        assert_parity(table, seed=7, first=0, games=3)
    elif game == "part-du-chef":
        table = part_du_chef.table_of(players, "marianne", ("greedy-balanced",), rules=rules)
        assert_parity(table, seed=7, first=0, games=3)
    else:
        bakers = [named_strategy("team")] * players
        for variant in ("signals", "special_orders", "eilauftrag"):
            table = speedtorte.GAME.table(rules, players, bakers, variant,
                                          level=rules.levels[-1].name)
            assert_parity(table, seed=7, first=0, games=2)


@pytest.mark.parametrize("game", GAMES)
@settings(FUZZ, max_examples=25)
@given(data=st.data())
def test_mutated_rule_files_are_refused_or_play_alike(tmp_path, capsys, game, data):
    text = PUBLISHED[game]
    start, end = data.draw(st.sampled_from(numbers_outside_comments(text)), "number")
    mutated = text[:start] + data.draw(MUTATIONS, "value") + text[end:]
    path = write(tmp_path, "mutated.toml", mutated)
    try:
        rules = game_named(game).load_rules(path)
    except InputError:
        event("refused")
        refused(capsys, ["replay", game, "--seed", "1", "--index", "0", "--rules", path],
                "mutated.toml")
        return
    event("accepted")
    players = data.draw(st.integers(rules.min_players, rules.max_players), "players")
    play_both_engines(game, rules, players)


SCORE_VALUES = st.one_of(st.integers(-3, 20), st.sampled_from([True, None, 1.5, "2", 2**70]),
                         st.floats(allow_nan=True, allow_infinity=True))


@FUZZ
@given(game=st.sampled_from(["piece-o-cake", "part-du-chef"]), data=st.data())
def test_odd_score_sheets_are_scored_or_refused(tmp_path, capsys, game, data):
    rules = game_named(game).load_rules()
    kinds = list(getattr(rules, "categories", rules.kinds))
    piles = ("collected", "eaten") if game == "piece-o-cake" else ("kept",)
    counts = ("eaten_olives", "received") if game == "part-du-chef" else ()
    players = []
    for _ in range(data.draw(st.integers(0, 6), "players")):
        player = {pile: data.draw(st.dictionaries(st.sampled_from([*kinds, "lemon"]),
                                                  SCORE_VALUES, max_size=3), pile)
                  for pile in piles}
        player |= {key: data.draw(SCORE_VALUES, key) for key in counts}
        players.append(player)
    path = write(tmp_path, "sheet.json", json.dumps({"players": players}))
    status = main(["score", game, path])
    out = capsys.readouterr()
    if status == 0:
        sheet = json.loads(out.out)
        assert len(sheet["scores"]) == len(players) and sheet["winners"]
    else:
        assert status == 2 and "Traceback" not in out.err and "sheet.json" in out.err


@pytest.mark.parametrize("game", GAMES)
@FUZZ
@given(data=st.data())
def test_mutated_experiments_are_loaded_or_refused(tmp_path, capsys, game, data):
    weights = {"piece-o-cake": "eat_weight = 1.5\ndecline_threshold = -2.0",
               "speedtorte": "fulfil = 10.0\ntight_at = 1.0\nsignal_help = 1",
               "part-du-chef": "spite = 0.5\nfinisher_bias = 3"}[game]
    text = experiment(game, weights)
    start, end = data.draw(st.sampled_from(numbers_outside_comments(text)), "number")
    path = write(tmp_path, "exp.toml", text[:start] + data.draw(MUTATIONS, "value") + text[end:])
    try:
        load_experiment(path)
    except InputError:
        refused(capsys, ["run", path, "--quiet", "--no-cache"], "exp.toml")


FLAGS = {
    "--seed": st.one_of(st.integers(max_value=-1), st.integers(min_value=2**63)),
    "--games": st.one_of(st.integers(max_value=0), st.integers(min_value=10**10 + 1)),
    "--n-jobs": st.one_of(st.integers(-2**70, -cpu_count() - 1), st.just(0),
                          st.integers(cpu_count() + 1, 2**70)),
}


@FUZZ
@given(flag=st.sampled_from(sorted(FLAGS)), data=st.data())
def test_flags_out_of_range_are_refused(capsys, flag, data):
    value = data.draw(FLAGS[flag], "value")
    refused(capsys, ["run", "x", flag, str(value)], f"argument {flag}:", "allowed:")


@FUZZ
@given(game=st.sampled_from(GAMES), players=st.integers(-10**6, 10**6),
       index=st.one_of(st.integers(max_value=-1), st.integers(min_value=2**63)))
def test_replay_flags_are_refused(capsys, game, players, index):
    refused(capsys, ["replay", game, "--seed", "1", "--index", str(index), "--players",
                     str(players)], "argument --index:")
    rules = game_named(game).load_rules()
    if not rules.min_players <= players <= rules.max_players:
        refused(capsys, ["replay", game, "--seed", "1", "--index", "0", "--players",
                         str(players)], "--players", "allowed:")
