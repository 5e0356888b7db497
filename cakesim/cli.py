"""The ``cakesim`` command line: run experiments, replay games, score end positions."""

import argparse
import json
import sys

from cakesim.errors import InputError


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
    run.set_defaults(handler=_run)

    replay = commands.add_parser("replay", help="print the move log of one game")
    replay.add_argument("game", choices=["piece-o-cake"])
    replay.add_argument("--seed", type=_natural, required=True)
    replay.add_argument("--game", dest="index", type=_natural, required=True,
                        help="game index within the seed")
    replay.add_argument("--players", type=int, default=4)
    replay.add_argument("--variant", default="base", choices=["base", "compensation"])
    replay.add_argument("--strategy", default="greedy",
                        help="built-in strategy at every seat: greedy, greedy-balanced, random")
    replay.add_argument("--rules", help="rule-set file (default: the published rules)")
    replay.set_defaults(handler=_replay)

    score = commands.add_parser("score", help="score an end position from a JSON file")
    score.add_argument("game", choices=["piece-o-cake"])
    score.add_argument("file")
    score.add_argument("--rules", help="rule-set file (default: the published rules)")
    score.set_defaults(handler=_score)
    return parser


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _jobs(text: str) -> int:
    value = int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must not be 0 (use 1 for one process, -1 for all)")
    return value


def _natural(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def _run(args) -> int:
    from cakesim.api import run_experiment

    result = run_experiment(args.experiment, games=args.games, seed=args.seed,
                            n_jobs=args.n_jobs, out=args.out, progress=not args.quiet)
    print(f"wrote {result.report}")
    return 0


def _replay(args) -> int:
    from cakesim.games import get_game
    from cakesim.games.piece_o_cake.reference import play_game
    from cakesim.games.piece_o_cake.replay import format_replay

    game = get_game(args.game)
    rules = game.load_rules(args.rules)
    table_rules = rules.for_table(args.players, args.variant)
    strategy = game.named_strategy(args.strategy)
    result = play_game(table_rules, [strategy] * args.players, args.seed, args.index)
    header = (f"{game.title}: seed {args.seed}, game {args.index}, {args.players} players, "
              f"{args.variant} rules, {strategy.name} at every seat ({strategy.describe()})")
    print(format_replay(rules, result, header))
    return 0


def _score(args) -> int:
    from cakesim.games import get_game
    from cakesim.games.piece_o_cake.replay import score_file

    rules = get_game(args.game).load_rules(args.rules)
    print(json.dumps(score_file(rules, args.file)))
    return 0
