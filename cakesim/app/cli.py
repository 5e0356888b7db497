"""The ``cakesim`` command line: run experiments, replay games, score end positions."""

import argparse
import json
import os
import sys
import time

from cakesim.engine.arguments import (
    SET_EXAMPLE,
    choice,
    examples,
    flag_errors,
    jobs,
    natural,
    one_of,
    players_in_range,
    positive,
    setting,
    share,
    spelt,
)
from cakesim.engine.errors import InputError
from cakesim.engine.project import shown_path, strict_json
from cakesim.engine.runner import Interrupted, duration_text
from cakesim.engine.version import __version__
from cakesim.games import GAME_COMMANDS, GAMES, all_games, game_named
from cakesim.kits.policy import Trainable
from cakesim.kits.replay import replayable, scorable
from cakesim.kits.strategies import Tunable


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status (2 for bad input)."""
    argv = sys.argv[1:] if argv is None else argv
    # The top level has only flags, so the first word is the command: only its parser is
    # built in full (some list every game's variants and so load the games).
    chosen = next((word for word in argv if not word.startswith("-")), None)
    args = _parser(chosen).parse_args(argv)
    try:
        return args.handler(args)
    except InputError as error:
        print(f"cakesim: error: {error}", file=sys.stderr)
        return 2
    except Interrupted as stop:
        print(stop.message, file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("cakesim: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) has gone; nothing left to say to it.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0


def _parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The command line: ``chosen`` with all its arguments, every other command by its
    line of help alone (``cakesim --help`` loads no game)."""
    parser = argparse.ArgumentParser(prog="cakesim", description=__doc__, **examples(
        "cakesim run first_player_bias", "cakesim compare first_player_bias --set tie_rule=none",
        f"cakesim replay {next(iter(GAMES))} --seed 1 --index 7", "cakesim COMMAND --help"))
    parser.add_argument("--version", action="version", version=f"cakesim {__version__}",
                        help="print cakesim's version and exit")
    commands = parser.add_subparsers(required=True, metavar="COMMAND")
    for name, (text, build) in COMMANDS.items():
        if name != chosen:
            commands.add_parser(name, help=text)
        elif build is None:
            game_named(GAME_COMMANDS[name][0]).add_commands(commands)
        else:
            build(commands, name)
    return parser


def _command(commands, name: str, description: str, *example: str) -> argparse.ArgumentParser:
    """Add command ``name`` with its line of help, a description and examples."""
    return commands.add_parser(name, help=COMMANDS[name][0], description=description,
                               **examples(*example))


def _add_reports(commands, name: str) -> None:
    _command(commands, name, "Regenerate reports/index.md from every report's summary.json, "
                             "and every report's page from its report.md.",
             "cakesim reports").set_defaults(handler=_reports)


def _experiment_argument(command) -> None:
    command.add_argument("experiment", help="experiment name (experiments/NAME.toml, found "
                                            "from any folder of the project) or a file path")


def _rule_changes(command) -> None:
    """``--set`` and ``--rules``: the rule set changed for one run."""
    command.add_argument("--set", dest="settings", type=setting, action="append", default=[],
                         metavar="KEY=VALUE",
                         help="change one rule for this run (repeatable): a rule override "
                              "of the experiment or a dotted key into the rule-set file, "
                              f"{SET_EXAMPLE}; VALUE is read as TOML (a bare word is text)")
    command.add_argument("--rules", metavar="[NAME=]FILE", action="append", default=[],
                         help="play this rule-set file instead of the game's rules.toml (a "
                              "changed copy of it); NAME=FILE for another of the game's rule "
                              "files, as an experiment names them (e.g. levels=FILE); "
                              "repeatable")


def _run_options(command, what: str) -> None:
    """Options ``run`` and ``compare`` share: size, seed, where and how chunks are played."""
    command.add_argument("--games", type=positive,
                         help="games per table (overrides the file); below the file's "
                              "count, the [plan] pilot shrinks in proportion")
    command.add_argument("--seed", type=natural, help="seed (overrides the file)")
    command.add_argument("--n-jobs", type=jobs, default=-1,
                         help="worker processes (-1: all cores, -2: all but one)")
    command.add_argument("--out", metavar="FOLDER",
                         help=f"{what} folder (default: reports/NAME as the file says it; "
                              "runs/NAME/... when a flag changes the games, seed or rules)")
    command.add_argument("--quiet", action="store_true", help="no progress bars")
    command.add_argument("--no-cache", action="store_true",
                         help="play every chunk, ignoring and not storing finished chunks")
    command.add_argument("--backend", default="loky", choices=["loky", "dask"],
                         help="where chunks run: local processes (loky, the default) or a "
                              "Dask cluster")
    command.add_argument("--scheduler", help="Dask scheduler address, e.g. "
                                             "tcp://10.0.0.5:8786")
    _rule_changes(command)


def _add_run(commands, name: str) -> None:
    run = _command(commands, name,
                   "Run every table of an experiment and write its report. Finished chunks "
                   "are kept: an interrupted run rerun plays only the rest.",
                   "cakesim run first_player_bias",
                   "cakesim run first_player_bias --games 2000 --no-plan   "
                   "(a quick look, under runs/)",
                   "cakesim run first_player_bias --set kinds.chocolate.cream=2",
                   "cakesim run first_player_bias --rules my_rules.toml --out /tmp/mine")
    _experiment_argument(run)
    _run_options(run, "report")
    run.add_argument("--skill-games", type=positive,
                     help="at most this many games per skill row (a quick look: search "
                          "players at every seat play slowly)")
    run.add_argument("--no-plan", action="store_true",
                     help="skip the [plan] sample-size pilot")
    run.set_defaults(handler=_run)


def _add_compare(commands, name: str) -> None:
    compare = _command(commands, name,
                       "Play an experiment's tables under its rules and under the changed "
                       "rules on the same seed (the same deals), and report each seat's win "
                       "share (a team game: each table's win rate) under both, with the "
                       "change and its 95 % interval. Sections and the pilot are left out.",
                       "cakesim compare first_player_bias --set tie_rule=none",
                       "cakesim compare first_player_bias --set cream.chocolate=2 --games 4000",
                       "cakesim compare order_card_difficulty --set points.card=15",
                       "cakesim compare chef_seat_bias --rules my_rules.toml")
    _experiment_argument(compare)
    _run_options(compare, "comparison")
    compare.set_defaults(handler=_compare)


def _add_balance(commands, name: str) -> None:
    balancing = _command(commands, name,
                         "Search the rule changes an experiment's [balance] section lists for "
                         "the smallest that makes every seat fair: the candidates race on the "
                         "same deals, poor ones dropped early, and the pick is confirmed "
                         "against the published rules on fresh deals. Finished chunks are "
                         "kept: an interrupted search rerun plays only the rest.",
                         "cakesim balance balance_first_waiter",
                         "cakesim balance my_experiment.toml --out /tmp/fix")
    _experiment_argument(balancing)
    balancing.add_argument("--n-jobs", type=jobs, default=-1,
                           help="worker processes (-1: all cores, -2: all but one)")
    balancing.add_argument("--out", metavar="FOLDER",
                           help="report folder (default: reports/NAME/balance for "
                                "experiments/NAME.toml, else runs/NAME/balance)")
    balancing.add_argument("--quiet", action="store_true", help="no progress bars")
    balancing.add_argument("--no-cache", action="store_true",
                           help="play every chunk, ignoring and not storing finished chunks")
    balancing.set_defaults(handler=_balance)


def _add_new(commands, name: str) -> None:
    new = _command(commands, name,
                   "Write experiments/NAME.toml: a small experiment for one game, every key "
                   "explained. An existing file is never overwritten.",
                   *(f"cakesim new my_{game.replace('-', '_')} --game {game}"
                     for game in GAMES))
    new.add_argument("name", help="experiment name (experiments/NAME.toml) or a .toml path")
    new.add_argument("--game", type=choice(GAMES), required=True,
                     help=f"the game: {', '.join(GAMES)}")
    new.set_defaults(handler=_new)


def _add_plan(commands, name: str) -> None:
    plan = _command(commands, name,
                    "Games needed per table for a precision or a power on every seat's win "
                    "share, with independent and with duplicate deals, from a pilot run.",
                    "cakesim plan first_player_bias --half-width 0.005",
                    "cakesim plan first_player_bias --effect 0.01 --power 0.9 --json")
    _experiment_argument(plan)
    goal = plan.add_mutually_exclusive_group(required=True)
    goal.add_argument("--half-width", type=share,
                      help="half-width of a 95 %% interval on a seat's win share, e.g. 0.005")
    goal.add_argument("--effect", type=share, help="win-share effect to detect, e.g. 0.01")
    plan.add_argument("--power", type=share, default=0.8, help="power (default 0.8)")
    plan.add_argument("--pilot", type=positive, help="pilot games per table and deal mode "
                                                      "(default: the file's [plan], or 4000)")
    plan.add_argument("--n-jobs", type=jobs, default=-1,
                      help="worker processes (-1: all cores, -2: all but one)")
    plan.add_argument("--json", action="store_true", help="print the rows as JSON")
    plan.add_argument("--quiet", action="store_true", help="no progress bars")
    plan.set_defaults(handler=_plan)


def _add_sprt(commands, name: str) -> None:
    from cakesim.stats.sprt import DEFAULT_EPSILON, SPRT_DIRECTIONS

    sprt = _command(commands, name,
                    "Wald's sequential test: plays games until a claim on a seat's win share "
                    "is accepted or rejected with the error rates asked for.",
                    'cakesim sprt first_player_bias --table "4P base tuned" --delta 0.02',
                    'cakesim sprt first_player_bias --table "4P compensation tuned" --seat 1 '
                    '--direction advantage --delta 0.05')
    _experiment_argument(sprt)
    sprt.add_argument("--table", required=True,
                      help="table label, as in the report (a table with independent deals)")
    sprt.add_argument("--seat", type=positive, default=1, help="1 is the first seat")
    sprt.add_argument("--delta", type=share, required=True,
                      help="claimed least distance from a fair share, e.g. 0.02")
    sprt.add_argument("--epsilon", type=share, default=DEFAULT_EPSILON,
                      help="indifference width: the claim is accepted with chance at least "
                           "1 - beta once the share is delta + epsilon off (default "
                           "%(default)s)")
    sprt.add_argument("--direction", type=choice(SPRT_DIRECTIONS), default="deficit",
                      help="deficit (the seat wins less than fair, the default) or advantage")
    sprt.add_argument("--alpha", type=share, default=0.05,
                      help="largest chance of accepting the claim when it is false")
    sprt.add_argument("--beta", type=share, default=0.05,
                      help="largest chance of not accepting it when the share is "
                           "delta + epsilon off")
    sprt.add_argument("--max-games", type=positive, default=200_000,
                      help="stop undecided after this many games (default %(default)s)")
    sprt.add_argument("--quiet", action="store_true", help="no progress bar")
    sprt.set_defaults(handler=_sprt)


def _add_baseline_or_regress(commands, name: str) -> None:
    text = COMMANDS[name][0]
    command = _command(commands, name, text[0].upper() + text[1:] + ".",
                       f"cakesim {name} first_player_bias" if name == "baseline"
                       else f"cakesim {name}")
    command.add_argument("experiments", nargs="*",
                         help="experiment names or paths (default: all in experiments/)")
    command.add_argument("--n-jobs", type=jobs, default=-1,
                         help="worker processes (-1: all cores, -2: all but one)")
    command.add_argument("--quiet", action="store_true", help="no progress bars")
    command.set_defaults(handler=_baseline if name == "baseline" else _regress)


def _add_tune_or_exploit(commands, name: str) -> None:
    tunable = [g for g in all_games() if isinstance(g, Tunable)]
    names = [g.name for g in tunable]
    exploit = name == "exploit"
    if exploit:
        command = _command(commands, name, "Search a best response to each named strategy, "
                                           "seated alone against it at every other seat.",
                           *(f"cakesim exploit {g.name} --players 2 3 --strategy "
                             f"{g.tuning_base} --report reports/exploitability"
                             for g in tunable))
    else:
        command = _command(commands, name, "Tune a strategy's weights by self-play against "
                                           "a growing population. The file goes under runs/ "
                                           "(or --out); --ship replaces the shipped one.",
                           *(f"cakesim tune {g.name} --players 4 --variant {g.variants[-1]}"
                             for g in tunable),
                           f"cakesim tune {tunable[0].name} --players 2 --ship")
    command.add_argument("game", type=choice(names), metavar="GAME",
                         help=f"the game: {', '.join(names)}")
    command.add_argument("--players", type=int, nargs="+", required=exploit,
                         help="player count(s)")
    command.add_argument("--budget", type=positive,
                         help="candidates measured in all (tune: 3000, exploit: 200)")
    command.add_argument("--games", type=positive, default=4000,
                         help="games per candidate measurement (default %(default)s)")
    command.add_argument("--confirm", type=positive, default=20_000,
                         help="games of the closing run on new deals (default %(default)s)")
    command.add_argument("--seed", type=natural, default=20261201,
                         help="seed of the search and its games (default %(default)s)")
    command.add_argument("--n-jobs", type=jobs, default=-1,
                         help="worker processes (-1: all cores, -2: all but one)")
    command.add_argument("--quiet", action="store_true", help="no progress bar")
    command.add_argument("--no-cache", action="store_true",
                         help="start afresh instead of from an interrupted run's checkpoint")
    if exploit:
        command.add_argument("--strategy", nargs="+", required=True,
                             help="named strategies to exploit (each at every other seat)")
        command.add_argument("--report", help="a folder, reports/exploitability or one "
                                              "outside reports/: add the results to it and "
                                              "rewrite its report.md")
        command.set_defaults(handler=_exploit, budget=200)
    else:
        command.add_argument("--variant", help="default: the game's base variant")
        command.add_argument("--rounds", type=positive, default=6,
                             help="champion and exploiter searches (default %(default)s)")
        written = command.add_mutually_exclusive_group()
        written.add_argument("--out", help="TOML file to write (default: "
                                           "runs/tuned/GAME/Pp-VARIANT.toml)")
        written.add_argument("--ship", action="store_true",
                             help="replace the shipped tuned strategy (tuned/Pp-VARIANT"
                                  ".toml in the game's package folder), which the "
                                  "built-in strategy tuned plays")
        command.set_defaults(handler=_tune, budget=3000)


def _add_train(commands, name: str) -> None:
    trained = [g for g in all_games() if isinstance(g, Trainable)]
    names = [g.name for g in trained]
    command = _command(commands, name, "Fit a game's fast chooser to its lookahead player's "
                                       "choices (a small network the kernel evaluates). The "
                                       "file goes under runs/ (or --out); --ship replaces "
                                       "the shipped one, which the strategy fitted plays.",
                       *(f"cakesim train {g.name} --players 4 --games 200" for g in trained),
                       f"cakesim train {names[0]} --players 2 --ship")
    command.add_argument("game", type=choice(names), metavar="GAME",
                         help=f"the game: {', '.join(names)}")
    command.add_argument("--players", type=int, required=True, help="player count")
    command.add_argument("--games", type=positive, default=2000,
                         help="games of the lookahead player whose choices are learnt, "
                              "and of each later round (default %(default)s)")
    command.add_argument("--rounds", type=positive, default=1,
                         help="rounds of expert iteration: after the first, the fitted "
                              "network plays, the lookahead values its choices, and it is "
                              "fitted again to every round's examples (default "
                              "%(default)s)")
    command.add_argument("--seed", type=natural, default=20261208,
                         help="seed of the games and the fit (default %(default)s)")
    command.add_argument("--n-jobs", type=jobs, default=-1,
                         help="worker threads (-1: all cores, -2: all but one)")
    command.add_argument("--quiet", action="store_true", help="no progress bar")
    command.add_argument("--no-cache", action="store_true",
                         help="play every game afresh instead of reading the games an "
                              "interrupted run finished")
    written = command.add_mutually_exclusive_group()
    written.add_argument("--out", help="TOML file to write (default: "
                                       "runs/policies/GAME/Pp.toml)")
    written.add_argument("--ship", action="store_true",
                         help="replace the shipped policy (policies/Pp.toml in the game's "
                              "package folder), which the built-in strategy fitted plays")
    command.set_defaults(handler=_train)


def _train(args) -> int:
    from cakesim.app.api import train

    path, made = train(args.game, args.players, args.games, args.seed, args.n_jobs,
                       not args.quiet, args.out, args.ship, not args.no_cache, args.rounds)
    print(f"{made['decisions']:,} decisions of {made['teacher']}: the network's regret "
          f"{made['network_regret']:.2f} points a decision on held-out decisions (the "
          f"heuristic move's {made['heuristic_regret']:.2f}), R^2 {made['r2_test']:.2f}")
    if "by_round" in made:
        print("the network's held-out regret after each round: " + ", ".join(
            f"{r:.2f}" for r in made["by_round"]["network_regret"]))
    print(f"wrote {shown_path(path)}")
    return 0


def _add_replay(commands, name: str) -> None:
    replay = _command(
        commands, name,
        "Print the move log of one game from the reference engine: a game of a seed with one "
        "strategy at every seat, or game I of an experiment's table exactly as its run plays "
        "it.",
        *(f"cakesim replay {g.name} --seed 1 --index 7 --players {g.default_players} "
          f"--variant {g.variants[min(1, len(g.variants) - 1)]}"
          + "".join(f" --option {o}={v.lower()}" for o, v in g.option_defaults.items())
          for g in all_games()),
        'cakesim replay --experiment first_player_bias --table "4P base tuned" --index 12')
    replay.add_argument("game", nargs="?", type=choice(GAMES), metavar="GAME",
                        help=f"the game: {', '.join(GAMES)} (with --experiment: its game)")
    replay.add_argument("--index", type=natural, required=True,
                        help="the game's index within the seed (0 is the first game)")
    replay.add_argument("--seed", type=natural,
                        help="seed (needed without --experiment; with it, the experiment's)")
    replay.add_argument("--experiment",
                        help="replay a table of this experiment (name or path): its rules, "
                             "variant, options and a strategy per seat")
    replay.add_argument("--table", help="with --experiment: the table's label, as in the "
                                        "report")
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
    _rule_changes(replay)
    replay.set_defaults(handler=_replay)


def _add_score(commands, name: str) -> None:
    first = next(iter(GAMES))
    score = _command(commands, name, "Score a playtest's end position from a JSON file: every "
                                     "seat's score and the winning seats (numbered from 1).",
                     f"cakesim score {first} end.json",
                     f"cakesim score {first} end.json --rules my_rules.toml")
    score.add_argument("game", type=choice(GAMES), metavar="GAME",
                       help=f"the game: {', '.join(GAMES)}")
    score.add_argument("file", help="the end position, a JSON file")
    score.add_argument("--rules", help="rule-set file (default: the published rules)")
    score.set_defaults(handler=_score)


def _changes(args):
    """The rule changes of ``--rules`` and ``--set``: one plain ``--rules FILE`` (the
    rules file), any number of ``--rules NAME=FILE`` (the game's other rule files)."""
    from cakesim.app.experiment import RuleChanges

    plain, named = [], []
    for text in args.rules:
        name, equals, path = text.partition("=")
        if equals and name.isidentifier() and not os.path.exists(text):
            named.append((name, path))
        else:
            plain.append(text)
    if len(plain) > 1:
        raise InputError("--rules", plain[1], "given twice; one rules file per run (NAME=FILE "
                                              "for the others)")
    return RuleChanges(plain[0] if plain else None, tuple(args.settings), tuple(named))


def _run(args) -> int:
    from cakesim.app.api import run_experiment

    started = time.monotonic()
    result = run_experiment(args.experiment, games=args.games, seed=args.seed,
                            n_jobs=args.n_jobs, out=args.out, progress=not args.quiet,
                            cache=not args.no_cache, backend_name=args.backend,
                            scheduler=args.scheduler, skill_games=args.skill_games,
                            sample_size=not args.no_plan, changes=_changes(args))
    if result.chunks_reused:
        print(f"reused {result.chunks_reused} of {result.chunks} chunks from the cache",
              file=sys.stderr)
    return _answer(result.headline, started, result.report)


def _answer(answer: str, started: float, report) -> int:
    """The end of a run: its answer in one line, the time it took, where its report is."""
    print(answer)
    print(f"took {duration_text(time.monotonic() - started)}")
    print(f"wrote {shown_path(report)}")
    return 0


def _compare(args) -> int:
    from cakesim.app.api import compare_rules

    started = time.monotonic()
    result = compare_rules(args.experiment, _changes(args), args.games, args.seed,
                           args.n_jobs, args.out, not args.quiet, not args.no_cache,
                           args.backend, args.scheduler)
    return _answer(result.answer, started, result.report)


def _balance(args) -> int:
    from cakesim.app.api import balance_rules

    started = time.monotonic()
    result = balance_rules(args.experiment, args.n_jobs, args.out, not args.quiet,
                           not args.no_cache)
    return _answer(result.answer, started, result.report)


def _new(args) -> int:
    from cakesim.app.api import new_experiment

    path = new_experiment(args.name, args.game)
    named = path.stem if path.parent.name == "experiments" else shown_path(path)
    print(f"wrote {shown_path(path)}; run it with: cakesim run {named}")
    return 0


PLAN_HEADINGS = {"table": "table", "seat": "seat",
                 "variance_independent": "variance/game, independent",
                 "variance_duplicate": "variance/game, duplicate",
                 "duplicate_factor": "duplicate factor",
                 "games_independent": "games needed, independent",
                 "games_duplicate": "games needed, duplicate"}
"""The planner's columns as ``cakesim plan`` heads them."""


def _plan(args) -> int:
    from cakesim.app.api import plan
    from cakesim.stats.planner import Question

    question = Question(half_width=args.half_width, effect=args.effect, power=args.power)
    seats = plan(args.experiment, half_width=args.half_width, effect=args.effect,
                 power=args.power, pilot_games=args.pilot, n_jobs=args.n_jobs,
                 progress=not args.quiet)
    if args.json:
        print(strict_json(seats.to_dict(orient="records")), end="")
        return 0
    print(f"Games per table for {question.describe()} on each seat's win share "
          f"(pilot: {args.pilot or 'default'} games per table and deal mode):")
    shown = seats[list(PLAN_HEADINGS)].rename(columns=PLAN_HEADINGS)
    print(shown.to_string(index=False, float_format=lambda x: f"{x:.4g}"))
    return 0


def _sprt(args) -> int:
    from cakesim.app.api import sprt

    result = sprt(args.experiment, args.table, args.seat - 1, args.delta, args.direction,
                  args.alpha, args.beta, args.max_games, epsilon=args.epsilon,
                  progress=not args.quiet)
    print(result.sentence())
    return 0


def _experiments(names: list[str]) -> list[str]:
    from cakesim.app.api import all_experiments

    return names or [str(p) for p in all_experiments()]


def _baseline(args) -> int:
    from cakesim.app.api import baseline, baseline_file

    names = _experiments(args.experiments)
    for name in names:
        # Every experiment's file is checked before the first one plays.
        baseline_file(name)
    for name in names:
        print(f"wrote {baseline(name, args.n_jobs, not args.quiet)}")
    return 0


def _regress(args) -> int:
    from cakesim.app.api import regress
    from cakesim.stats.baseline import format_regression

    failed = False
    for name in _experiments(args.experiments):
        result = regress(name, args.n_jobs, not args.quiet)
        print(format_regression(result))
        failed |= result.failed
    return 1 if failed else 0


def _reports(args) -> int:
    from cakesim.app.api import write_reports_index

    print(f"wrote {write_reports_index()}")
    return 0


def _tune(args) -> int:
    from cakesim.app.api import tune, tuned_file

    if args.out is not None and len(args.players or []) > 1:
        raise InputError("--out", args.out, "one file holds one tuning: give one --players")
    variant = spelt(args.variant, game_named(args.game).variants) if args.variant else None
    counts = args.players or [None]
    for players in counts:
        # Every player count and its file are checked before the first tuning plays.
        tuned_file(args.game, players, variant, args.out, args.ship)
    for players in counts:
        path, outcome = tune(args.game, players, variant, args.budget, args.rounds,
                             args.games, args.confirm, args.seed, args.n_jobs,
                             not args.quiet, not args.no_cache, args.out, args.ship)
        fair = outcome.fair
        for member, against, alone in zip(outcome.population, outcome.against,
                                          outcome.alone, strict=True):
            print(f"{member.name} alone against tuned: {100 * against.value:.1f} % "
                  f"({100 * (against.value - fair):+.1f} pp over fair); tuned alone "
                  f"against it: {100 * alone.value:.1f} %")
        print(f"wrote {shown_path(path)}")
    return 0


def _exploit(args) -> int:
    from cakesim.app.api import exploit

    results, report = exploit(args.game, args.strategy, args.players, args.budget, args.games,
                              args.confirm, args.seed, args.n_jobs, not args.quiet,
                              not args.no_cache, args.report)
    for r in results:
        gain = r.gain
        print(f"{r.target} at {r.players}P: best response ({r.response_from}) wins "
              f"{100 * r.share.value:.1f} %, {100 * gain.value:+.1f} pp over fair "
              f"[{100 * gain.low:+.1f}, {100 * gain.high:+.1f}]")
    if report is not None:
        print(f"wrote {report}")
    return 0


def _replay(args) -> int:
    if args.experiment is not None:
        return _replay_table(args)
    for flag, given in (("GAME", args.game), ("--seed", args.seed)):
        if given is None:
            raise InputError(flag, "", "missing: give GAME and --seed, or --experiment and "
                                       "--table")
    if args.table is not None:
        raise InputError("--table", args.table, "a table is one of an experiment's: give "
                                                "--experiment too")
    from cakesim.app.experiment import changed_rules

    game = game_named(args.game)
    rules, _ = changed_rules(game, {}, _changes(args))
    players = players_in_range(args.players, rules) or game.default_players
    variant = one_of(args.variant or game.variants[0], game.variants, "--variant")
    if not game.has_variant(rules, players, variant):
        allowed = [v for v in game.variants if game.has_variant(rules, players, v)]
        raise InputError("--variant", variant, f"not played at {players} players; allowed: "
                                               f"{', '.join(allowed)}")
    options = _options(game, rules, args.option)
    if args.strategy is not None:
        with flag_errors("--strategy"):
            game.named_strategy(args.strategy, players, variant)
    print(replayable(game).replay(rules, args.seed, args.index, players, variant,
                                  args.strategy, **options))
    return 0


def _replay_table(args) -> int:
    """``cakesim replay --experiment EXP --table LABEL --index I``."""
    from cakesim.app.api import replay_table

    for flag, given in (("GAME", args.game), ("--players", args.players),
                        ("--variant", args.variant), ("--strategy", args.strategy),
                        ("--option", args.option or None)):
        if given is not None:
            raise InputError(flag, str(given), "the experiment and its table set it; leave "
                                               "it out with --experiment")
    if args.table is None:
        raise InputError("--table", "", "missing: which of the experiment's tables to "
                                        "replay (its label, as in the report)")
    print(replay_table(args.experiment, args.table, args.index, args.seed, _changes(args)))
    return 0


def _options(game, rules, given: list[str]) -> dict[str, str]:
    """``--option NAME=VALUE`` flags as a dict, each name one of the game's table options
    (any case), each value one of its allowed values (any case), as the game spells them."""
    options = {}
    for text in given:
        name, _, value = text.partition("=")
        known = {option.casefold(): option for option in game.table_options}
        if name.casefold() not in known or not value:
            allowed = ", ".join(f"{o}=VALUE" for o in game.table_options) or "none"
            raise InputError("--option", text, f"not a table option of {game.name}; "
                                               f"allowed: {allowed}")
        name = known[name.casefold()]
        allowed = game.option_choices(rules, name)
        options[name] = one_of(value, allowed, "--option") if allowed else value
    return options


def _score(args) -> int:
    game = scorable(game_named(args.game))
    rules = game.load_rules(args.rules)
    scored = game.score_file(rules, args.file)
    # People number seats from 1, as replays and reports do.
    print(json.dumps(scored | {"winners": [seat + 1 for seat in scored["winners"]]}))
    return 0


# Defined last: it names the functions above that add each command's parser.
COMMANDS = {
    "run": ("run an experiment and write its report", _add_run),
    "compare": ("what a rule change does to every headline number, paired by deal",
                _add_compare),
    "balance": ("the smallest rule change that makes every seat fair, with evidence",
                _add_balance),
    "new": ("write a commented minimal experiment file to start from", _add_new),
    "plan": ("games needed for a precision or a power, from a pilot run", _add_plan),
    "sprt": ("sequential test of a claim on a seat's win share, e.g. at least 5 pp less "
             "than fair", _add_sprt),
    "baseline": ("write reports/baselines/EXP.json from a CI-sized run",
                 _add_baseline_or_regress),
    "regress": ("re-run CI sizes and compare with the committed baselines",
                _add_baseline_or_regress),
    "tune": ("tune a strategy's weights by self-play and write it (--ship: as the game's "
             "tuned strategy)", _add_tune_or_exploit),
    "exploit": ("how much a best response wins against a strategy at every other seat",
                _add_tune_or_exploit),
    "train": ("fit a fast chooser to the lookahead player's choices and write it (--ship: "
              "as the game's fitted policy)", _add_train),
    **{name: (text, None) for name, (_, text) in GAME_COMMANDS.items()},
    "reports": ("regenerate reports/index.md and every report's page", _add_reports),
    "replay": ("print the move log of one game", _add_replay),
    "score": ("score an end position from a JSON file", _add_score),
}
"""Every command in the order ``cakesim --help`` lists them: its line of help and the
function that adds its full parser (``None``: a game's own command)."""
