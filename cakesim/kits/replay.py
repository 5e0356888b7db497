"""Replays and score files: the ``Replayable`` and ``Scorable`` capabilities, mixed into
``Game``. ``cakesim replay`` and ``cakesim score`` ask ``replayable(game)`` and
``scorable(game)``; a game without them is refused with exit 2."""

from abc import ABC, abstractmethod

from cakesim.engine.contract import Game, RuleSet, TableSpec
from cakesim.engine.errors import InputError


class Replayable(ABC):
    """A game whose reference engine writes any game's move log."""

    @abstractmethod
    def replay_table(self, table: TableSpec, seed: int, index: int) -> str:
        """The move log of game ``index`` of ``seed`` at ``table`` (an experiment's: its
        rules, variant, options, deal mode and strategy per seat), as text: the very game
        a run of the table plays as game ``index``."""

    def replay(self, rules: RuleSet, seed: int, index: int, players: int | None = None,
               variant: str | None = None, strategy: str | None = None,
               **options: str) -> str:
        """The reference engine's move log of game ``index`` of ``seed``, as text: by
        default ``replay_table`` at a table of one named strategy (the default one) at
        every seat."""
        players, variant = players or self.default_players, variant or self.variants[0]
        chosen = self.named_strategy(strategy or self.default_strategy, players, variant)
        return self.replay_table(self.table(rules, players, [chosen] * players, variant,
                                            **options), seed, index)

    def replay_header(self, table: TableSpec, seed: int, index: int) -> str:
        """A replay's first line: the game, seed, game index, players, rules and who sits
        where (on duplicate deals the players move round the table from game to game)."""
        rotation = index % table.games_per_deal
        seated = [table.strategies[table.player_of_seat(seat, rotation)]
                  for seat in range(table.players)]
        if len(set(seated)) == 1:
            who = f"{seated[0].name} at every seat ({seated[0].describe()})"
        else:
            who = "; ".join(f"seat {seat + 1}: {s.name}" for seat, s in enumerate(seated))
        return (f"{self.title}: seed {seed}, game {index}, {table.players} players, "
                f"{table.variant} rules, {who}")


class Scorable(ABC):
    """A game whose end positions a designer can score from a playtest's JSON file."""

    @abstractmethod
    def score_file(self, rules: RuleSet, path: str) -> dict:
        """Score an end position read from a JSON file: ``{"scores": [...], "winners":
        [...]}`` (winners as 0-based seats)."""

    @abstractmethod
    def end_position(self, table: TableSpec, seed: int, index: int) -> dict:
        """Game ``index``'s end position from the reference engine, in the format
        ``score_file`` reads."""


def replayable(game: Game) -> Replayable:
    """``game`` as a ``Replayable`` game; exit 2 if it cannot replay."""
    if not isinstance(game, Replayable):
        raise InputError("replay", game.name, "this game cannot replay its games")
    return game


def scorable(game: Game) -> Scorable:
    """``game`` as a ``Scorable`` game; exit 2 if it has no end positions to score."""
    if not isinstance(game, Scorable):
        raise InputError("score", game.name, "this game has no end positions to score")
    return game
