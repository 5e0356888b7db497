"""The ``[assumptions]`` section's rows: the headline tables re-played under other readings.

Every answer rests on choices the rules leave open (a **default** of RULES.md), on parts
cakesim had to invent (Topp die Torte!'s tiles and aim model) and on model parameters.
An experiment lists them, one sub-table each::

    [assumptions.tie_rule]
    says = "A tied majority scores its full value for every tied player (RULES.md s1)."
    kind = "reading"                 # reading | invented | parameter
    other = ["tie_rule=none"]        # the other reading, as --set takes it (optional)

An assumption with ``other`` is measured: each headline table is played again under the
other reading, with the same seed and so the same deals, and the report sets the answer
under both readings side by side, paired by deal. One without ``other`` is listed, with
what would settle it.

Reading ``[assumptions]`` and placing its rows among the tables is this module; the
changed rule sets come from the experiment loader (``other`` is read like ``--set``), and
``cakesim.reports.assumptions`` analyses and presents the rows' runs.
"""

from dataclasses import dataclass, replace

from cakesim.engine.contract import Game, RuleSet, TableSpec
from cakesim.engine.tables import Table

KINDS = ("reading", "invented", "parameter")
"""What an assumption is: a reading of the rules, a part cakesim invented, a parameter."""


@dataclass(frozen=True)
class Assumption:
    """One assumption an answer rests on, and its rows once placed."""

    name: str
    says: str
    kind: str
    other: tuple[str, ...] = ()
    """The other reading as ``KEY=VALUE`` settings; empty: listed, not measured."""
    rows: tuple[tuple[str, str], ...] = ()
    """(headline label, label of its table under the other reading)."""


@dataclass(frozen=True)
class AssumptionsQuestion:
    """Every assumption an experiment lists, in the file's order."""

    assumptions: tuple[Assumption, ...] = ()
    spec: Table | None = None

    def at_most(self, games: int) -> "AssumptionsQuestion":
        """Rows play as many games as their headline table: unchanged."""
        return self


def parse(table: Table) -> AssumptionsQuestion:
    """``[assumptions]``: one sub-table per assumption, with ``says``, ``kind`` and an
    optional ``other`` (a list of ``KEY=VALUE`` settings, as ``--set`` takes them)."""
    found = []
    for name in table.data:
        entry = table.sub(name)
        entry.only(["says", "kind", "other"])
        other = entry.get("other", list, [])
        for item in other:
            if not isinstance(item, str) or "=" not in item:
                raise entry.error("other", f"{item!r} is not allowed; allowed: strings "
                                           "KEY=VALUE, as --set takes them")
        found.append(Assumption(name, entry.get("says", str), entry.get("kind", str, "reading",
                                                                          KINDS), tuple(other)))
    return AssumptionsQuestion(tuple(found), table)


def add_rows(question: AssumptionsQuestion, game: Game, rules: dict[str, RuleSet],
             headlines: list[TableSpec]) -> tuple[AssumptionsQuestion, list[TableSpec]]:
    """The question with its rows placed, and the tables to add for them.

    ``rules`` holds, per measured assumption's name, the rule set under its other reading.
    Each headline table is re-made with that rule set and everything else as it is.
    """
    placed, added = [], []
    for assumption in question.assumptions:
        if assumption.name not in rules:
            placed.append(assumption)
            continue
        rows = []
        for headline in headlines:
            label = f"{headline.label} · if {assumption.name}"
            added.append(game.table(rules[assumption.name], headline.players,
                                    list(headline.strategies), headline.variant,
                                    headline.duplicate, label, **dict(headline.options)))
            rows.append((headline.label, label))
        placed.append(replace(assumption, rows=tuple(rows)))
    return replace(question, assumptions=tuple(placed)), added
