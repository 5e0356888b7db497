"""The ``cakesim`` command line: run experiments, replay games, score end positions."""

import argparse
import json
import os
import sys

from cakesim.errors import InputError

SEED_MAX = 2**63 - 1
"""Seeds and game indices run from 0 to this, as in experiment files."""
GAMES_MAX = 10**10
"""The most games per table, as in experiment files (and the largest count any flag takes)."""


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status (2 for bad input)."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except InputError as error:
        print(f"cakesim: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cakesim: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) has gone; nothing left to say to it.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cakesim", description=__doc__)
    commands = parser.add_subparsers(required=True, metavar="COMMAND")

    run = commands.add_parser("run", help="run an experiment and write its report")
    run.add_argument("experiment", help="experiment name (experiments/NAME.toml) or a path")
    run.add_argument("--games", type=_positive, help="games per table (overrides the file)")
    run.add_argument("--n-jobs", type=_jobs, default=-1,
                     help="worker processes (-1: all cores, -2: all but one)")
    run.add_argument("--seed", type=_natural, help="seed (overrides the file)")
    run.add_argument("--out", help="report folder (default: reports/NAME)")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.add_argument("--no-cache", action="store_true",
                     help="play every chunk, ignoring and not storing finished chunks")
    run.add_argument("--backend", default="loky", choices=["loky", "dask"],
                     help="where chunks run: local processes (loky) or a Dask cluster")
    run.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://10.0.0.5:8786")
    run.set_defaults(handler=_run)

    plan = commands.add_parser("plan", help="games needed for a precision or a power, "
                                            "from a pilot run")
    plan.add_argument("experiment")
    goal = plan.add_mutually_exclusive_group(required=True)
    goal.add_argument("--half-width", type=_share,
                      help="half-width of a 95 %% interval on a seat's win share, e.g. 0.005")
    goal.add_argument("--effect", type=_share, help="win-share effect to detect, e.g. 0.01")
    plan.add_argument("--power", type=_share, default=0.8, help="power (default 0.8)")
    plan.add_argument("--pilot", type=_positive, help="pilot games per table and deal mode "
                                                      "(default: the file's [plan], or 4000)")
    plan.add_argument("--n-jobs", type=_jobs, default=-1)
    plan.set_defaults(handler=_plan)

    from cakesim.sprt import DEFAULT_EPSILON, SPRT_DIRECTIONS

    sprt = commands.add_parser("sprt", help="sequential test of a claim on a seat's win share, "
                                            "e.g. at least 5 pp less than fair")
    sprt.add_argument("experiment")
    sprt.add_argument("--table", required=True,
                      help="table label, as in the report (a table with independent deals)")
    sprt.add_argument("--seat", type=_positive, default=1, help="1 is the first seat")
    sprt.add_argument("--delta", type=_share, required=True,
                      help="claimed least distance from a fair share, e.g. 0.02")
    sprt.add_argument("--epsilon", type=_share, default=DEFAULT_EPSILON,
                      help="indifference width: the claim is accepted with chance at least "
                           "1 - beta once the share is delta + epsilon off (default "
                           "%(default)s)")
    sprt.add_argument("--direction", choices=SPRT_DIRECTIONS, default="deficit")
    sprt.add_argument("--alpha", type=_share, default=0.05,
                      help="largest chance of accepting the claim when it is false")
    sprt.add_argument("--beta", type=_share, default=0.05)
    sprt.add_argument("--max-games", type=_positive, default=200_000)
    sprt.set_defaults(handler=_sprt)

    for name, handler, text in (
            ("baseline", _baseline, "write reports/baselines/EXP.json from a CI-sized run"),
            ("regress", _regress, "re-run CI sizes and compare with the committed baselines")):
        command = commands.add_parser(name, help=text)
        command.add_argument("experiments", nargs="*",
                             help="experiment names or paths (default: all in experiments/)")
        command.add_argument("--n-jobs", type=_jobs, default=-1)
        command.set_defaults(handler=handler)

    speedtorte = commands.add_parser("speedtorte", help="Speedtorte designer tools")
    tools = speedtorte.add_subparsers(required=True, metavar="TOOL")
    cards = tools.add_parser("cards", help="list the order-card catalogue with base rates")
    cards.add_argument("--cards", help="catalogue file (default: the published cards)")
    cards.set_defaults(handler=_speedtorte_cards)
    check = tools.add_parser("check", help="is an order card met by four top pieces, and why")
    check.add_argument("card", help="card id, e.g. F01")
    check.add_argument("--tops", required=True,
                       help="four top pieces, e.g. strawberry:3,apricot:4,pistachio:4,sacher")
    check.add_argument("--cards", help="catalogue file (default: the published cards)")
    check.set_defaults(handler=_speedtorte_check)
    daily = tools.add_parser("daily", help="the daily puzzle of a date: deal and solution")
    daily.add_argument("date", type=_date, help="YYYY-MM-DD")
    daily.add_argument("--level", default="Lehrling")
    daily.set_defaults(handler=_speedtorte_daily)

    levels = tools.add_parser("levels", help="card counts per level that hit target win rates")
    levels.add_argument("--players", type=int, default=3)
    levels.add_argument("--variant", default="signals",
                        choices=["signals", "silence", "open_hands", "special_orders"])
    levels.add_argument("--targets", default="", help="e.g. Lehrling=0.9,Meister=0.4 "
                                                      "(default: 0.9/0.75/0.6/0.45/0.3)")
    levels.add_argument("--games", type=_positive, default=2000, help="games per card count")
    levels.add_argument("--seed", type=_natural, default=20261201)
    levels.add_argument("--n-jobs", type=_jobs, default=-1)
    levels.set_defaults(handler=_speedtorte_levels)

    budget = tools.add_parser("budget", help="the Eilauftrag time budget for a target win rate")
    budget.add_argument("--level", required=True)
    budget.add_argument("--players", type=int, required=True)
    budget.add_argument("--target", type=_share, required=True, help="win rate, e.g. 0.6")
    budget.add_argument("--profile", help="timing profile: adult (default) or novice")
    budget.add_argument("--games", type=_positive, default=10_000)
    budget.add_argument("--seed", type=_natural, default=20261201)
    budget.add_argument("--timing", help="timing file (default: the published timing model)")
    budget.add_argument("--n-jobs", type=_jobs, default=-1)
    budget.set_defaults(handler=_speedtorte_budget)

    reports = commands.add_parser("reports", help="regenerate reports/index.md")
    reports.set_defaults(handler=_reports)

    replay = commands.add_parser("replay", help="print the move log of one game")
    replay.add_argument("game", choices=["piece-o-cake", "speedtorte", "part-du-chef"])
    replay.add_argument("--seed", type=_natural, required=True)
    replay.add_argument("--game", dest="index", type=_natural, required=True,
                        help="game index within the seed")
    replay.add_argument("--players", type=int, help="default: 4 (Piece o' Cake), 2 (Speedtorte)")
    replay.add_argument("--variant", help="piece-o-cake: base, compensation; speedtorte: "
                                          "signals, silence, open_hands, special_orders")
    replay.add_argument("--level", default="Lehrling", help="Speedtorte level")
    replay.add_argument("--strategy", help="built-in strategy at every seat (piece-o-cake: "
                                           "greedy, greedy-balanced, random; speedtorte: team, "
                                           "greedy, random)")
    replay.add_argument("--rules", help="rule-set file (default: the published rules)")
    replay.set_defaults(handler=_replay)

    score = commands.add_parser("score", help="score an end position from a JSON file")
    score.add_argument("game", choices=["piece-o-cake", "part-du-chef"])
    score.add_argument("file")
    score.add_argument("--rules", help="rule-set file (default: the published rules)")
    score.set_defaults(handler=_score)
    return parser


def _whole(text: str, low: int, high: int, allowed: str = "") -> int:
    """``text`` as a whole number from ``low`` to ``high``; ``allowed`` says so in words."""
    allowed = allowed or f"{low} to {high}"
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number; allowed: "
                                         f"{allowed}") from None
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"{value} is out of range; allowed: {allowed}")
    return value


def _positive(text: str) -> int:
    return _whole(text, 1, GAMES_MAX)


def _jobs(text: str) -> int:
    from joblib import cpu_count

    cores = cpu_count()
    # As joblib counts: -1 is every core, -2 all but one, down to -cores, one.
    allowed = f"1 to {cores} processes, or -1 (all {cores} cores) to -{cores} (one)"
    value = _whole(text, -cores, cores, allowed)
    if value == 0:
        raise argparse.ArgumentTypeError(f"0 is not allowed; allowed: {allowed}")
    return value


def _natural(text: str) -> int:
    return _whole(text, 0, SEED_MAX)


def _players(players: int | None, rules) -> int | None:
    """``--players`` checked against the rule set's player range (``None`` stays the default)."""
    if players is not None and not rules.min_players <= players <= rules.max_players:
        raise InputError("--players", "players", f"{players} is not allowed; allowed: "
                                                 f"{rules.min_players} to {rules.max_players}"
                                                 f" (the rule set {rules.source})")
    return players


def _share(text: str) -> float:
    value = float(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must lie between 0 and 1, not {value}")
    return value


def _run(args) -> int:
    from cakesim.api import run_experiment

    result = run_experiment(args.experiment, games=args.games, seed=args.seed,
                            n_jobs=args.n_jobs, out=args.out, progress=not args.quiet,
                            cache=not args.no_cache, backend_name=args.backend,
                            scheduler=args.scheduler)
    if result.chunks_reused:
        print(f"reused {result.chunks_reused} of {result.chunks} chunks from the cache",
              file=sys.stderr)
    print(f"wrote {result.report}")
    return 0


def _plan(args) -> int:
    from cakesim.api import plan
    from cakesim.planner import Question

    question = Question(half_width=args.half_width, effect=args.effect, power=args.power)
    seats = plan(args.experiment, half_width=args.half_width, effect=args.effect,
                 power=args.power, pilot_games=args.pilot, n_jobs=args.n_jobs)
    print(f"Games per table for {question.describe()} on each seat's win share "
          f"(pilot: {args.pilot or 'default'} games per table and deal mode):")
    shown = seats[["table", "seat", "variance_independent", "variance_duplicate",
                   "duplicate_factor", "games_independent", "games_duplicate"]]
    print(shown.to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    return 0


def _sprt(args) -> int:
    from cakesim.api import sprt

    result = sprt(args.experiment, args.table, args.seat - 1, args.delta, args.direction,
                  args.alpha, args.beta, args.max_games, epsilon=args.epsilon)
    print(result.sentence())
    return 0


def _experiments(names: list[str]) -> list[str]:
    from cakesim.api import all_experiments

    return names or [str(p) for p in all_experiments()]


def _baseline(args) -> int:
    from cakesim.api import baseline

    for name in _experiments(args.experiments):
        print(f"wrote {baseline(name, args.n_jobs)}")
    return 0


def _regress(args) -> int:
    from cakesim.api import regress
    from cakesim.baseline import format_regression

    failed = False
    for name in _experiments(args.experiments):
        result = regress(name, args.n_jobs)
        print(format_regression(result))
        failed |= result.failed
    return 1 if failed else 0


def _date(text: str):
    import datetime

    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date like 2026-12-01") from None


def _speedtorte_cards(args) -> int:
    from cakesim.games.speedtorte.card_tools import list_cards
    from cakesim.games.speedtorte.cards import load_catalogue

    print(list_cards(load_catalogue(args.cards)))
    return 0


def _speedtorte_check(args) -> int:
    from cakesim.games.speedtorte.card_tools import check_card
    from cakesim.games.speedtorte.cards import load_catalogue
    from cakesim.games.speedtorte.rules import load_rules

    # The tops must be pieces the published box holds, at most as many of each as it has.
    rules = load_rules()
    print(check_card(load_catalogue(args.cards), args.card, args.tops, rules.plates,
                     rules.copies))
    return 0


def _speedtorte_daily(args) -> int:
    from cakesim.games.speedtorte.daily import format_daily, solve_daily
    from cakesim.games.speedtorte.rules import load_rules

    rules = load_rules()
    print(format_daily(rules, args.date, args.level, solve_daily(rules, args.date, args.level)))
    return 0


def _speedtorte_levels(args) -> int:
    from cakesim.games.speedtorte.rules import load_rules
    from cakesim.games.speedtorte.tuning import (
        format_recommendation,
        parse_targets,
        recommend_levels,
    )

    rules = load_rules()
    table = recommend_levels(rules, _players(args.players, rules),
                             parse_targets(args.targets, rules), args.variant,
                             games=args.games, seed=args.seed, n_jobs=args.n_jobs)
    print(format_recommendation(table, args.players, args.variant, args.games, args.seed))
    return 0


def _speedtorte_budget(args) -> int:
    from cakesim.games.speedtorte.budgets import recommend_budget
    from cakesim.games.speedtorte.rules import load_rules

    rules = load_rules(timing=args.timing)
    print(recommend_budget(rules, args.level, _players(args.players, rules), args.target,
                           args.profile, args.games, args.seed, n_jobs=args.n_jobs))
    return 0


def _reports(args) -> int:
    from cakesim.api import write_reports_index

    print(f"wrote {write_reports_index()}")
    return 0


def _replay(args) -> int:
    from cakesim.games import get_game

    game = get_game(args.game)
    options = {"level": args.level} if game.table_options else {}
    rules = game.load_rules(args.rules)
    print(game.replay(rules, args.seed, args.index, _players(args.players, rules),
                      args.variant, args.strategy, **options))
    return 0


def _score(args) -> int:
    from cakesim.games import get_game
    from cakesim.games.piece_o_cake.replay import score_file

    game = get_game(args.game)
    rules = game.load_rules(args.rules)
    print(json.dumps(getattr(game, "score_file", score_file)(rules, args.file)))
    return 0
