"""Speedtorte's designer tools on the command line: ``cakesim speedtorte TOOL``.

Cards and their base rates, why a card is (not) met, the daily puzzle, card counts per
level for target win rates, and the Eilauftrag time budget for a target win rate. Card
ids and level names are read in any case; errors name the flag that was typed.
"""

import argparse

import numpy as np

from cakesim.engine.arguments import (
    choice,
    date,
    examples,
    flag_errors,
    jobs,
    natural,
    players_in_range,
    positive,
    share,
    spelt,
)
from cakesim.engine.errors import InputError
from cakesim.engine.project import strict_json
from cakesim.engine.runner import DEFAULT_KEEP_ROWS, RunProgress, run_table

MODES_WITH_TURNS = ("signals", "silence", "open_hands", "special_orders",
                    "silence+special_orders", "open_hands+special_orders")
TIERS = ("novice", "team", "lookahead")
"""The bakers' skill tiers the recommenders play with (``strategies.NAMED``)."""
TARGET = "[LEVEL=]RATE"


def add_commands(commands, game) -> None:
    """Add ``speedtorte`` and its tools (for ``game``) to the ``cakesim`` subcommands."""
    speedtorte = commands.add_parser(
        "speedtorte", help="Speedtorte designer tools",
        description="Speedtorte's designer tools: order cards, the daily puzzle, level "
                    "card counts and Eilauftrag time budgets.",
        **examples("cakesim speedtorte cards", "cakesim speedtorte TOOL --help"))
    speedtorte.set_defaults(game=game)
    tools = speedtorte.add_subparsers(required=True, metavar="TOOL")
    cards = tools.add_parser("cards", help="list the order-card catalogue with base rates",
                             description="Every order card with its base rate: the share "
                                         "of random boards that meet it.",
                             **examples("cakesim speedtorte cards",
                                        "cakesim speedtorte cards --json"))
    cards.add_argument("--cards", help="catalogue file (default: the published cards)")
    cards.add_argument("--json", action="store_true", help="print the cards as JSON")
    cards.set_defaults(handler=_cards)

    check = tools.add_parser("check", help="is an order card met by four top pieces, and why",
                             description="Whether an order card is met by four top pieces, "
                                         "term by term.",
                             **examples("cakesim speedtorte check f01 --tops "
                                        "strawberry:3,apricot:4,pistachio:4,sacher"))
    check.add_argument("card", metavar="CARD", help="card id in any case, e.g. F01")
    check.add_argument("--tops", required=True,
                       help="four top pieces, e.g. strawberry:3,apricot:4,pistachio:4,sacher")
    check.add_argument("--cards", help="catalogue file (default: the published cards)")
    check.set_defaults(handler=_check)

    daily = tools.add_parser("daily", help="the daily puzzle of a date: deal and solution",
                             description="The daily puzzle of a date and level: the deal, "
                                         "and whether and how it can be won.",
                             **examples("cakesim speedtorte daily 2026-12-01 --level meister"))
    daily.add_argument("date", type=date, help="the date, YYYY-MM-DD")
    daily.add_argument("--level", default="Lehrling",
                       help="level name in any case (default %(default)s)")
    daily.set_defaults(handler=_daily)

    levels = tools.add_parser(
        "levels", help="card counts per level that hit target win rates",
        description="Per level, the order-card count whose win rate lies nearest the "
                    "level's target, all counts played on the same deals.",
        **examples("cakesim speedtorte levels --players 3",
                   "cakesim speedtorte levels --target lehrling=0.9 --target meister=0.4",
                   "cakesim speedtorte levels --target 0.5 --tier novice --json"))
    levels.add_argument("--players", type=int, default=3, help="bakers (default 3)")
    levels.add_argument("--variant", type=choice(MODES_WITH_TURNS), default="signals",
                        help=f"one of {', '.join(MODES_WITH_TURNS)} (default signals)")
    _target(levels, "target win rate of a level (repeatable): LEVEL=RATE, or RATE for every "
                    "level; default: 0.9/0.75/0.6/0.45/0.3 from the first level on",
            required=False)
    _tier(levels)
    levels.add_argument("--games", type=positive, default=2000,
                        help="games per card count (default %(default)s)")
    _seed_jobs_json_quiet(levels)
    levels.set_defaults(handler=_levels)

    budget = tools.add_parser(
        "budget", help="the Eilauftrag time budget for a target win rate",
        description="The Eilauftrag time budget under which a level is won at a target "
                    "rate, with its bootstrap interval.",
        **examples("cakesim speedtorte budget --level Meister --players 3 --target 0.6",
                   "cakesim speedtorte budget --players 2 --target konditor=0.5 --json"))
    budget.add_argument("--level", help="level name in any case (or give LEVEL=RATE to "
                                         "--target)")
    budget.add_argument("--players", type=int, required=True, help="bakers")
    _target(budget, "the target win rate: RATE, e.g. 0.6, or LEVEL=RATE", required=True)
    budget.add_argument("--profile", help="timing profile: adult (default) or novice")
    _tier(budget)
    budget.add_argument("--games", type=positive, default=10_000,
                        help="games played (default %(default)s)")
    budget.add_argument("--timing", help="timing file (default: the published timing model)")
    _seed_jobs_json_quiet(budget)
    budget.set_defaults(handler=_budget)


def _target(command, text: str, required: bool) -> None:
    command.add_argument("--target", type=target, action="append", default=[],
                         metavar=TARGET, required=required, help=text)


def _tier(command) -> None:
    command.add_argument("--tier", type=choice(TIERS), default="team",
                         help=f"the bakers' skill tier: {', '.join(TIERS)} (default team)")


def _seed_jobs_json_quiet(command) -> None:
    command.add_argument("--seed", type=natural, default=20261201,
                         help="seed of the games (default %(default)s)")
    command.add_argument("--n-jobs", type=jobs, default=-1,
                         help="worker processes (-1: all cores, -2: all but one)")
    command.add_argument("--json", action="store_true", help="print the result as JSON")
    command.add_argument("--quiet", action="store_true", help="no progress bar")


def target(text: str) -> list[tuple[str | None, float]]:
    """``--target``: ``RATE``, ``LEVEL=RATE``, or several of them joined by commas; each
    rate strictly between 0 and 1. Levels are checked against the rule set later."""
    found = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        level, equals, rate = part.rpartition("=")
        if equals and not level.strip():
            raise argparse.ArgumentTypeError(f"{part!r} names no level; allowed: {TARGET}")
        try:
            value = share(rate)
        except (ValueError, argparse.ArgumentTypeError):
            raise argparse.ArgumentTypeError(f"{rate!r} is not a win rate between 0 and 1; "
                                             f"allowed: {TARGET}, e.g. Meister=0.4") from None
        found.append((level.strip() or None, value))
    if not found:
        raise argparse.ArgumentTypeError(f"empty; allowed: {TARGET}")
    return found


def _level(rules, name: str, flag: str) -> str:
    """The level called ``name`` (any case) as the rule set spells it."""
    with flag_errors(flag, ""):
        return rules.level(name).name


def _print_json(value) -> None:
    print(strict_json(value), end="")


def _cards(args) -> int:
    from cakesim.games.speedtorte.card_tools import list_cards
    from cakesim.games.speedtorte.cards import base_rate_table, load_catalogue

    catalogue = load_catalogue(args.cards)
    if args.json:
        _print_json(base_rate_table(catalogue, sacher=True).to_dict(orient="records"))
    else:
        print(list_cards(catalogue))
    return 0


def _check(args) -> int:
    from cakesim.games.speedtorte.card_tools import check_card
    from cakesim.games.speedtorte.cards import load_catalogue
    from cakesim.games.speedtorte.rules import load_rules

    # The tops must be pieces the published box holds, at most as many of each as it has.
    rules = load_rules()
    catalogue = load_catalogue(args.cards)
    card = spelt(args.card, (c.id for c in catalogue.cards))
    with flag_errors("CARD", ""):
        catalogue.index(card)
    print(check_card(catalogue, card, args.tops, rules.plates, rules.copies))
    return 0


def _daily(args) -> int:
    from cakesim.games.speedtorte.daily import format_daily, solve_daily
    from cakesim.games.speedtorte.rules import load_rules

    rules = load_rules()
    level = _level(rules, args.level, "--level")
    print(format_daily(rules, args.date, level, solve_daily(rules, args.date, level)))
    return 0


def _levels(args) -> int:
    from cakesim.games.speedtorte.rules import load_rules
    from cakesim.games.speedtorte.tuning import (
        format_recommendation,
        parse_targets,
        recommend_levels,
    )

    rules = load_rules()
    players = players_in_range(args.players, rules)
    targets = parse_targets("", rules)
    for level, rate in (pair for given in args.target for pair in given):
        for name in ([_level(rules, level, "--target")] if level else targets):
            targets[name] = rate
    bakers = [args.game.named_strategy(args.tier)] * players
    counts = sum(len(args.game.table(rules, players, bakers, args.variant,
                                     level=lv.name).rules.pool) for lv in rules.levels)
    # Every card count of every level is played: the bar counts them all.
    with RunProgress(counts * args.games, not args.quiet, cache=False,
                     desc="levels: every card count"):
        table = recommend_levels(args.game, rules, players, targets, args.variant, args.tier,
                                 games=args.games, seed=args.seed, n_jobs=args.n_jobs)
    if args.json:
        _print_json(table.to_dict(orient="records"))
    else:
        print(format_recommendation(table, players, args.variant, args.games, args.seed,
                                    args.tier))
    return 0


def _budget(args) -> int:
    from cakesim.games.speedtorte.budgets import recommend_budget
    from cakesim.games.speedtorte.rules import load_rules

    if args.games > DEFAULT_KEEP_ROWS:
        # The budget is a quantile of every game's finishing time: all rows must be kept.
        raise InputError("--games", str(args.games), f"out of range; allowed: 1 to "
                                                     f"{DEFAULT_KEEP_ROWS} (every game's time "
                                                     "is kept)")
    rules = load_rules(timing=args.timing)
    level, rate = _budget_target(rules, args)
    players = players_in_range(args.players, rules)
    with flag_errors("--profile", ""):
        given = spelt(args.profile, rules.timing.profiles) if args.profile else None
        profile = rules.timing.profile(given).name
    with RunProgress(args.games, not args.quiet, cache=False, desc=f"budget: {level}"):
        if args.json:
            _print_json(_budget_numbers(args.game, rules, level, players, rate, profile,
                                        args))
        else:
            print(recommend_budget(args.game, rules, level, players, rate, profile,
                                   args.games, args.seed, n_jobs=args.n_jobs, tier=args.tier))
    return 0


def _budget_target(rules, args) -> tuple[str, float]:
    """The level and the one target win rate of ``budget``'s ``--level`` and ``--target``."""
    pairs = [pair for given in args.target for pair in given]
    if len(pairs) != 1:
        raise InputError("--target", ",".join(f"{lv}={r}" if lv else str(r) for lv, r in pairs),
                         f"give one target win rate; allowed: {TARGET}")
    named, rate = pairs[0]
    level = _level(rules, args.level, "--level") if args.level else None
    if named is not None:
        named = _level(rules, named, "--target")
        if level not in (None, named):
            raise InputError("--target", f"{named}={rate}", f"names another level than "
                                                            f"--level {level}")
    if (level or named) is None:
        raise InputError("--level", "", f"missing: give --level, or --target LEVEL=RATE; "
                                        f"levels: {', '.join(lv.name for lv in rules.levels)}")
    return level or named, rate


def _budget_numbers(game, rules, level: str, players: int, rate: float, profile: str,
                    args) -> dict:
    """``budget --json``: the budget for the target win rate with its interval, and the win
    rates at the seed's budget and without a clock."""
    from cakesim.games.speedtorte.budgets import budget_estimate, finishing_seconds, win_rate_at

    table = game.table(rules, players, [game.named_strategy(args.tier)] * players,
                       "eilauftrag", level=level, profile=profile)
    seconds = finishing_seconds(run_table(table, args.games, args.seed, args.n_jobs,
                                          progress=False).rows)
    seed_budget = rules.timing.seed_budget(level, players)
    return {"level": level, "players": players, "profile": profile, "tier": args.tier,
            "games": args.games, "seed": args.seed,
            "budget_seconds": budget_estimate(seconds, rate, 1000, args.seed),
            "seed_budget_seconds": seed_budget,
            "win_rate_at_seed_budget": win_rate_at(seconds, seed_budget).as_dict(),
            "win_rate_without_clock": float(np.isfinite(seconds).mean())}
