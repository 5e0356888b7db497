"""Speedtorte's designer tools on the command line: ``cakesim speedtorte TOOL``.

Cards and their base rates, why a card is (not) met, the daily puzzle, card counts per
level for target win rates, and the Eilauftrag time budget for a target win rate.
"""

from cakesim.engine.arguments import date, jobs, natural, players_in_range, positive, share

MODES_WITH_TURNS = ("signals", "silence", "open_hands", "special_orders",
                    "silence+special_orders", "open_hands+special_orders")
TIERS = ("novice", "team", "lookahead")
"""The bakers' skill tiers the recommenders play with (``strategies.NAMED``)."""


def add_commands(commands, game) -> None:
    """Add ``speedtorte`` and its tools (for ``game``) to the ``cakesim`` subcommands."""
    speedtorte = commands.add_parser("speedtorte", help="Speedtorte designer tools")
    speedtorte.set_defaults(game=game)
    tools = speedtorte.add_subparsers(required=True, metavar="TOOL")
    cards = tools.add_parser("cards", help="list the order-card catalogue with base rates")
    cards.add_argument("--cards", help="catalogue file (default: the published cards)")
    cards.set_defaults(handler=_cards)
    check = tools.add_parser("check", help="is an order card met by four top pieces, and why")
    check.add_argument("card", help="card id, e.g. F01")
    check.add_argument("--tops", required=True,
                       help="four top pieces, e.g. strawberry:3,apricot:4,pistachio:4,sacher")
    check.add_argument("--cards", help="catalogue file (default: the published cards)")
    check.set_defaults(handler=_check)
    daily = tools.add_parser("daily", help="the daily puzzle of a date: deal and solution")
    daily.add_argument("date", type=date, help="YYYY-MM-DD")
    daily.add_argument("--level", default="Lehrling")
    daily.set_defaults(handler=_daily)

    levels = tools.add_parser("levels", help="card counts per level that hit target win rates")
    levels.add_argument("--players", type=int, default=3)
    levels.add_argument("--variant", default="signals", choices=MODES_WITH_TURNS)
    levels.add_argument("--targets", default="", help="e.g. Lehrling=0.9,Meister=0.4 "
                                                      "(default: 0.9/0.75/0.6/0.45/0.3)")
    levels.add_argument("--tier", default="team", choices=TIERS,
                        help="the bakers' skill tier (default: team)")
    levels.add_argument("--games", type=positive, default=2000, help="games per card count")
    levels.add_argument("--seed", type=natural, default=20261201)
    levels.add_argument("--n-jobs", type=jobs, default=-1)
    levels.set_defaults(handler=_levels)

    budget = tools.add_parser("budget", help="the Eilauftrag time budget for a target win rate")
    budget.add_argument("--level", required=True)
    budget.add_argument("--players", type=int, required=True)
    budget.add_argument("--target", type=share, required=True, help="win rate, e.g. 0.6")
    budget.add_argument("--profile", help="timing profile: adult (default) or novice")
    budget.add_argument("--tier", default="team", choices=TIERS,
                        help="the bakers' skill tier (default: team)")
    budget.add_argument("--games", type=positive, default=10_000)
    budget.add_argument("--seed", type=natural, default=20261201)
    budget.add_argument("--timing", help="timing file (default: the published timing model)")
    budget.add_argument("--n-jobs", type=jobs, default=-1)
    budget.set_defaults(handler=_budget)


def _cards(args) -> int:
    from cakesim.games.speedtorte.card_tools import list_cards
    from cakesim.games.speedtorte.cards import load_catalogue

    print(list_cards(load_catalogue(args.cards)))
    return 0


def _check(args) -> int:
    from cakesim.games.speedtorte.card_tools import check_card
    from cakesim.games.speedtorte.cards import load_catalogue
    from cakesim.games.speedtorte.rules import load_rules

    # The tops must be pieces the published box holds, at most as many of each as it has.
    rules = load_rules()
    print(check_card(load_catalogue(args.cards), args.card, args.tops, rules.plates,
                     rules.copies))
    return 0


def _daily(args) -> int:
    from cakesim.games.speedtorte.daily import format_daily, solve_daily
    from cakesim.games.speedtorte.rules import load_rules

    rules = load_rules()
    print(format_daily(rules, args.date, args.level, solve_daily(rules, args.date, args.level)))
    return 0


def _levels(args) -> int:
    from cakesim.games.speedtorte.rules import load_rules
    from cakesim.games.speedtorte.tuning import (
        format_recommendation,
        parse_targets,
        recommend_levels,
    )

    rules = load_rules()
    table = recommend_levels(args.game, rules, players_in_range(args.players, rules),
                             parse_targets(args.targets, rules), args.variant, args.tier,
                             games=args.games, seed=args.seed, n_jobs=args.n_jobs)
    print(format_recommendation(table, args.players, args.variant, args.games, args.seed,
                                args.tier))
    return 0


def _budget(args) -> int:
    from cakesim.games.speedtorte.budgets import recommend_budget
    from cakesim.games.speedtorte.rules import load_rules

    rules = load_rules(timing=args.timing)
    print(recommend_budget(args.game, rules, args.level, players_in_range(args.players, rules),
                           args.target, args.profile, args.games, args.seed,
                           n_jobs=args.n_jobs, tier=args.tier))
    return 0
