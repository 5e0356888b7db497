"""Shared helpers: play the same games with the kernel and with the reference engine."""

from cakesim.games import game_named
from cakesim.games.part_du_chef.reference import play_game

GAME = game_named("part-du-chef")
RULES = GAME.load_rules()
STRATEGY_NAMES = GAME.strategy_names
ENUMERATING = tuple(n for n in STRATEGY_NAMES if GAME.named_strategy(n).cutter == "enumerate")


def table_of(players, variant="base", names=("greedy",), duplicate=False, rules=RULES):
    """A table with the named built-in strategies (one name, or one per seat)."""
    names = list(names) * players if len(names) == 1 else list(names)
    return GAME.table(rules, players, [GAME.named_strategy(n) for n in names], variant,
                      duplicate)


def reference_metrics(table, seed, game):
    """The kernel's result columns, recomputed from the reference engine's game."""
    result = play_game(table.rules, list(table.strategies), seed, game, table.duplicate)
    sheet = result.sheet
    actions = [m.action for m in result.log]
    marianne = [m.pizza + 1 for m in result.log if m.action == "marianne"]
    metrics = {
        "total": sheet.total, "majority": sheet.majority, "olives": sheet.olives,
        "slices": sheet.slices, "diversity": sheet.diversity, "burnt": sheet.burnt,
        "win_units": sheet.win_units, "steals": actions.count("steal"),
        "empty_steals": actions.count("empty-steal"),
        "finishers_eaten": sum(eaten and piece.finisher for m in result.log
                               if m.action == "take" for piece, eaten in m.slices),
        "eaten_slices": sum(len(p.eaten) for p in result.players),
    }
    if table.rules.marianne:
        metrics["marianne_used"] = len(marianne)
        metrics["marianne_pizza"] = marianne[0] if marianne else 0
    return result, metrics


def assert_parity(table, seed, first, games):
    """Kernel and reference agree on every metric of every game."""
    chunk = GAME.play_chunk(table, seed, first, games)
    assert set(chunk.game) == set(GAME.game_metrics_of(table))
    for g in range(games):
        _, expected = reference_metrics(table, seed, first + g)
        assert set(expected) == set(chunk.seat) | set(chunk.game)
        for metric, value in expected.items():
            got = chunk.seat[metric][g] if metric in chunk.seat else chunk.game[metric][g]
            assert list(got) == value if isinstance(value, list) else got == value, (
                f"{table.label}: game {first + g} of seed {seed} differs in {metric}: "
                f"kernel {got}, reference {value}")
