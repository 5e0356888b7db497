"""The answer to an experiment's question, which every report opens with.

An experiment declares what its answer is (``answer = "seat_bias"`` under
``[experiment]``): the seats' win shares against fair, a section's answer (the contrasts,
the ladder, Speedtorte's budgets) or one of the game's own (Speedtorte's card ranking).
Each kind gives an ``Answer``: one short paragraph in a designer's words and a small table
of exactly the numbers it speaks of.
"""

from dataclasses import dataclass, field

from cakesim.engine.contract import Game, ResultKind

SHARED = {ResultKind.SEATS: ("seat_bias",), ResultKind.TEAM: ("win_rate",)}
"""The answer kinds every game of a result kind has; the first is the default."""


@dataclass
class Answer:
    """A paragraph and a small table: the report's opening and the index's line."""

    paragraph: str
    header: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    line: str = ""
    """The answer in one line, for reports/index.md (the paragraph's first sentence if
    empty)."""


def answer_kinds(game: Game, sections: dict) -> tuple[str, ...]:
    """Every answer an experiment of ``game`` with ``sections`` may open with; default first."""
    own = [name for name, module in sections.items() if hasattr(module, "answer")]
    return (*SHARED[game.result_kind], *own, *game.answers())
