"""The ``cakesim`` command line: run experiments, replay games, score end positions."""

import argparse
import json
import os
import sys

from cakesim.engine.arguments import jobs, natural, players_in_range, positive, share
from cakesim.engine.errors import InputError
from cakesim.games import GAMES, all_games, game_named


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
    run.add_argument("--games", type=positive, help="games per table (overrides the file)")
    run.add_argument("--skill-games", type=positive,
                     help="at most this many games per skill row (a quick look: search "
                          "players at every seat play slowly)")
    run.add_argument("--n-jobs", type=jobs, default=-1,
                     help="worker processes (-1: all cores, -2: all but one)")
    run.add_argument("--seed", type=natural, help="seed (overrides the file)")
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
    goal.add_argument("--half-width", type=share,
                      help="half-width of a 95 %% interval on a seat's win share, e.g. 0.005")
    goal.add_argument("--effect", type=share, help="win-share effect to detect, e.g. 0.01")
    plan.add_argument("--power", type=share, default=0.8, help="power (default 0.8)")
    plan.add_argument("--pilot", type=positive, help="pilot games per table and deal mode "
                                                      "(default: the file's [plan], or 4000)")
    plan.add_argument("--n-jobs", type=jobs, default=-1)
    plan.set_defaults(handler=_plan)

    from cakesim.stats.sprt import DEFAULT_EPSILON, SPRT_DIRECTIONS

    sprt = commands.add_parser("sprt", help="sequential test of a claim on a seat's win share, "
                                            "e.g. at least 5 pp less than fair")
    sprt.add_argument("experiment")
    sprt.add_argument("--table", required=True,
                      help="table label, as in the report (a table with independent deals)")
    sprt.add_argument("--seat", type=positive, default=1, help="1 is the first seat")
    sprt.add_argument("--delta", type=share, required=True,
                      help="claimed least distance from a fair share, e.g. 0.02")
    sprt.add_argument("--epsilon", type=share, default=DEFAULT_EPSILON,
                      help="indifference width: the claim is accepted with chance at least "
                           "1 - beta once the share is delta + epsilon off (default "
                           "%(default)s)")
    sprt.add_argument("--direction", choices=SPRT_DIRECTIONS, default="deficit")
    sprt.add_argument("--alpha", type=share, default=0.05,
                      help="largest chance of accepting the claim when it is false")
    sprt.add_argument("--beta", type=share, default=0.05)
    sprt.add_argument("--max-games", type=positive, default=200_000)
    sprt.set_defaults(handler=_sprt)

    for name, handler, text in (
            ("baseline", _baseline, "write reports/baselines/EXP.json from a CI-sized run"),
            ("regress", _regress, "re-run CI sizes and compare with the committed baselines")):
        command = commands.add_parser(name, help=text)
        command.add_argument("experiments", nargs="*",
                             help="experiment names or paths (default: all in experiments/)")
        command.add_argument("--n-jobs", type=jobs, default=-1)
        command.set_defaults(handler=handler)

    tune = commands.add_parser("tune", help="tune a strategy's weights by self-play and "
                                            "write it as the game's tuned strategy")
    exploit = commands.add_parser("exploit", help="how much a best response wins against a "
                                                  "strategy at every other seat")
    for command in (tune, exploit):
        command.add_argument("game", choices=[g.name for g in all_games() if g.tuning_base])
        command.add_argument("--players", type=int, nargs="+", required=command is exploit,
                             help="player count(s)")
        command.add_argument("--budget", type=positive,
                             help="candidates measured in all (tune: 3000, exploit: 200)")
        command.add_argument("--games", type=positive, default=4000,
                             help="games per candidate measurement (default %(default)s)")
        command.add_argument("--confirm", type=positive, default=20_000,
                             help="games of the closing run on new deals (default "
                                  "%(default)s)")
        command.add_argument("--seed", type=natural, default=20261201)
        command.add_argument("--n-jobs", type=jobs, default=-1)
        command.add_argument("--quiet", action="store_true", help="no progress bar")
        command.add_argument("--no-cache", action="store_true",
                             help="start afresh instead of from an interrupted run's checkpoint")
    tune.add_argument("--variant", help="default: the game's base variant")
    tune.add_argument("--rounds", type=positive, default=6,
                      help="champion and exploiter searches (default %(default)s)")
    tune.add_argument("--out", help="TOML file to write (default: the game's tuned strategy "
                                    "file, GAME/tuned/Pp-VARIANT.toml)")
    tune.set_defaults(handler=_tune, budget=3000)
    exploit.add_argument("--strategy", nargs="+", required=True,
                         help="named strategies to exploit (each at every other seat)")
    exploit.add_argument("--report", help="a folder: add the results to it and rewrite its "
                                          "report.md (e.g. reports/exploitability)")
    exploit.set_defaults(handler=_exploit, budget=200)

    for game in all_games():
        game.add_commands(commands)

    reports = commands.add_parser("reports", help="regenerate reports/index.md")
    reports.set_defaults(handler=_reports)

    replay = commands.add_parser("replay", help="print the move log of one game")
    replay.add_argument("game", choices=list(GAMES))
    replay.add_argument("--seed", type=natural, required=True)
    replay.add_argument("--game", dest="index", type=natural, required=True,
                        help="game index within the seed")
    replay.add_argument("--players", type=int, help="default: the game's own")
    replay.add_argument("--variant", help="default: the game's base variant; "
                        + "; ".join(f"{g.name}: {', '.join(g.variants)}" for g in all_games()))
    replay.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a table option NAME=VALUE (repeatable); "
                        + "; ".join(f"{g.name}: {', '.join(g.table_options)}"
                                    for g in all_games() if g.table_options))
    replay.add_argument("--strategy", help="built-in strategy at every seat; "
                        + "; ".join(f"{g.name}: {', '.join(g.strategy_names)}"
                                    for g in all_games()))
    replay.add_argument("--rules", help="rule-set file (default: the published rules)")
    replay.set_defaults(handler=_replay)

    score = commands.add_parser("score", help="score an end position from a JSON file")
    score.add_argument("game", choices=list(GAMES))
    score.add_argument("file")
    score.add_argument("--rules", help="rule-set file (default: the published rules)")
    score.set_defaults(handler=_score)
    return parser


def _run(args) -> int:
    from cakesim.api import run_experiment

    result = run_experiment(args.experiment, games=args.games, seed=args.seed,
                            n_jobs=args.n_jobs, out=args.out, progress=not args.quiet,
                            cache=not args.no_cache, backend_name=args.backend,
                            scheduler=args.scheduler, skill_games=args.skill_games)
    if result.chunks_reused:
        print(f"reused {result.chunks_reused} of {result.chunks} chunks from the cache",
              file=sys.stderr)
    print(f"wrote {result.report}")
    return 0


def _plan(args) -> int:
    from cakesim.api import plan
    from cakesim.stats.planner import Question

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
    from cakesim.stats.baseline import format_regression

    failed = False
    for name in _experiments(args.experiments):
        result = regress(name, args.n_jobs)
        print(format_regression(result))
        failed |= result.failed
    return 1 if failed else 0


def _reports(args) -> int:
    from cakesim.api import write_reports_index

    print(f"wrote {write_reports_index()}")
    return 0


def _tune(args) -> int:
    from cakesim.api import tune

    if args.out is not None and len(args.players or []) > 1:
        raise InputError("--out", args.out, "one file holds one tuning: give one --players")
    for players in args.players or [None]:
        path, outcome = tune(args.game, players, args.variant, args.budget, args.rounds,
                             args.games, args.confirm, args.seed, args.n_jobs,
                             not args.quiet, not args.no_cache, args.out)
        fair = outcome.fair
        for member, against, alone in zip(outcome.population, outcome.against,
                                          outcome.alone, strict=True):
            print(f"{member.name} alone against tuned: {100 * against.value:.1f} % "
                  f"({100 * (against.value - fair):+.1f} pp over fair); tuned alone "
                  f"against it: {100 * alone.value:.1f} %")
        print(f"wrote {path}")
    return 0


def _exploit(args) -> int:
    from cakesim.api import exploit

    results, report = exploit(args.game, args.strategy, args.players, args.budget,
                              args.games, args.confirm, args.seed, args.n_jobs,
                              not args.quiet, not args.no_cache, args.report)
    for r in results:
        gain = r.gain
        print(f"{r.target} at {r.players}P: best response ({r.response_from}) wins "
              f"{100 * r.share.value:.1f} %, {100 * gain.value:+.1f} pp over fair "
              f"[{100 * gain.low:+.1f}, {100 * gain.high:+.1f}]")
    if report is not None:
        print(f"wrote {report}")
    return 0


def _replay(args) -> int:
    game = game_named(args.game)
    rules = game.load_rules(args.rules)
    options = _options(game, rules, args.option)
    print(game.replay(rules, args.seed, args.index, players_in_range(args.players, rules),
                      args.variant, args.strategy, **options))
    return 0


def _options(game, rules, given: list[str]) -> dict[str, str]:
    """``--option NAME=VALUE`` flags as a dict, each name one of the game's table options."""
    options = {}
    for text in given:
        name, _, value = text.partition("=")
        if name not in game.table_options or not value:
            allowed = ", ".join(f"{o}=VALUE" for o in game.table_options) or "none"
            raise InputError("--option", text, f"not a table option of {game.name}; "
                                               f"allowed: {allowed}")
        allowed = game.option_choices(rules, name)
        if allowed and value not in allowed:
            raise InputError("--option", text, f"{value!r} is not allowed; allowed values: "
                                               f"{', '.join(allowed)}")
        options[name] = value
    return options


def _score(args) -> int:
    game = game_named(args.game)
    rules = game.load_rules(args.rules)
    print(json.dumps(game.score_file(rules, args.file)))
    return 0
