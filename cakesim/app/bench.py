"""Throughput benchmark of every game: Numba kernel vs the reference engine.

``python -m cakesim.app.bench`` (``make bench``) measures, in one run, for each game's bench
tables (``Benchmarked.bench_tables``, chosen by the game; ``--game NAME`` benches one game):

* the kernel's games per second on one core (``play_chunk`` single-threaded, in-process,
  compiled and warmed up before timing): the best and the median of a few calibrated
  ~1 s runs. The targets are checked on the best run, as ``timeit`` advises: on a shared
  machine other tenants only ever slow a run down, so the fastest run is the closest to
  what the kernel does on the core; the median shows how much the machine was disturbed.
  The runs are taken in rounds over all tables, so that a table's runs are spread over
  the whole benchmark instead of falling into the same few seconds;
* the reference engine's (pure Python) games per second on the first games of the same
  seed: up to a few hundred, or as many as fit in a few seconds;
* the ratio of the kernel's rate on exactly those games to the reference's, and whether
  the kernel's outcome of every one of them (``Game.kernel_outcome``) equals the
  reference's (``Game.reference_outcome``): the mismatch count must be 0.

A game may set speed targets for some strategies' tables (``Benchmarked.bench_targets``:
games/s per core and the kernel/reference ratio, perhaps at one player count); those rows
say PASS or MISS, the others are reported for information. Tables with search players
also show the moves the search decides per second (``Benchmarked.searched_moves`` per
game: cuts and choices). ``--quick`` is a smoke test with few games. The exit status is 1
if any kernel/reference mismatch is found, else 0.
"""

import argparse
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass

import numba
import numpy as np

from cakesim.engine.contract import TableSpec
from cakesim.games import GAMES, game_named
from cakesim.kits.bench import Benchmarked, BenchTarget

SEED = 20_240_601


@dataclass(frozen=True)
class Settings:
    """How long and how often to measure."""

    seconds: float
    """Target duration of one timed kernel run."""
    repeats: int
    """Timed kernel runs per table; the best and the median rate are reported."""
    reference_games: int
    """Most games played by the reference engine per table."""
    reference_seconds: float
    """The reference engine stops after the game that passes this many seconds."""
    seed: int


@dataclass(frozen=True)
class Row:
    """One table's measurements."""

    game: str
    strategy: str
    players: int
    kernel_games: int
    kernel_rate: float
    """The best timed run's games/s."""
    kernel_median: float
    reference_games: int
    reference_rate: float
    same_games_rate: float
    """The kernel's games/s on the reference's games."""
    mismatches: int
    searched_moves: int
    """Moves per game made by search players (``Benchmarked.searched_moves``)."""
    target: BenchTarget | None = None
    """The game's speed target, when this row's strategy has one."""

    @property
    def ratio(self) -> float:
        """Kernel games/s over reference games/s, on the same games."""
        return self.same_games_rate / self.reference_rate

    @property
    def status(self) -> str:
        """``PASS``/``MISS`` against the targets for the targeted strategy, else ``info``."""
        if self.target is None:
            return "info"
        missed = [name for name, ok in (("rate", self.kernel_rate >= self.target.rate),
                                        ("ratio", self.ratio >= self.target.ratio)) if not ok]
        return "PASS" if not missed else f"MISS ({', '.join(missed)})"


def _target(game, strategy: str, players: int) -> BenchTarget | None:
    """The game's speed target for ``strategy``'s table at ``players``, if it sets one."""
    return next((t for t in game.bench_targets if t.covers(strategy, players)), None)


def time_kernel(game, table: TableSpec, seed: int, games: int) -> float:
    """Seconds the kernel takes to play games ``0 .. games`` of ``seed`` at ``table``."""
    start = time.perf_counter()
    game.play_chunk(table, seed, 0, games)
    return time.perf_counter() - start


def calibrate(game, table: TableSpec, settings: Settings) -> int:
    """How many games make one timed kernel run of about ``settings.seconds``."""
    game.play_chunk(table, settings.seed, 0, 4)  # compile (or load the cache) and warm up
    games, elapsed = 64, 0.0
    while True:
        elapsed = time_kernel(game, table, settings.seed, games)
        if elapsed >= min(0.25, settings.seconds / 2) or games >= 1 << 26:
            break
        games *= 4
    return max(16, round(games / elapsed * settings.seconds))


def reference_rate(game, table: TableSpec, settings: Settings) -> tuple[int, float, int]:
    """Reference engine ``(games, games/s, disagreements with the kernel)`` on games ``0 ..``."""
    game.reference_outcome(table, settings.seed, settings.reference_games)  # warm up
    results = []
    start = time.perf_counter()
    while len(results) < settings.reference_games and (
            time.perf_counter() - start < settings.reference_seconds):
        results.append(game.reference_outcome(table, settings.seed, len(results)))
    elapsed = time.perf_counter() - start
    chunk = game.play_chunk(table, settings.seed, 0, len(results))
    mismatches = sum(game.kernel_outcome(chunk, g) != r for g, r in enumerate(results))
    return len(results), len(results) / elapsed, mismatches


def same_games_rate(game, table: TableSpec, settings: Settings, games: int) -> float:
    """The kernel's median games/s on games ``0 .. games``, repeated for ~0.2 s or more."""
    rates, spent = [], 0.0
    while len(rates) < 5 or spent < 0.2:
        elapsed = time_kernel(game, table, settings.seed, games)
        rates.append(games / elapsed)
        spent += elapsed
    return statistics.median(rates)


def measure(benched: list[tuple], settings: Settings) -> list[Row]:
    """Kernel and reference throughput, and their agreement, at every ``(game, strategy,
    table)``; the timed kernel runs go round the tables ``settings.repeats`` times."""
    games = [calibrate(game, table, settings) for game, _, table in benched]
    checked = []
    for game, _, table in benched:
        r_games, r_rate, mismatches = reference_rate(game, table, settings)
        checked.append((r_games, r_rate, mismatches,
                        same_games_rate(game, table, settings, r_games)))
        print(f"  checked {game.name} {table.label}: {r_games} reference games, "
              f"{mismatches} mismatches", file=sys.stderr, flush=True)
    rates: list[list[float]] = [[] for _ in benched]
    for round_number in range(settings.repeats):
        for i, (game, _, table) in enumerate(benched):
            rates[i].append(games[i] / time_kernel(game, table, settings.seed, games[i]))
        print(f"  timed round {round_number + 1} of {settings.repeats}", file=sys.stderr,
              flush=True)
    return [Row(game.name, strategy, table.players, n, max(r), statistics.median(r),
                r_games, r_rate, same_rate, mismatches, game.searched_moves(table),
                _target(game, strategy, table.players))
            for (game, strategy, table), n, r, (r_games, r_rate, mismatches, same_rate)
            in zip(benched, games, rates, checked, strict=True)]


def format_table(rows: list[Row]) -> str:
    """The results as a plain, aligned text table."""
    header = ("game", "strategy", "P", "kernel games/s", "median", "timed games", "ref games/s",
              "ref games", "kernel on ref games/s", "kernel/ref", "mismatches",
              "search moves/s", "target")
    lines = [(r.game, r.strategy, str(r.players), f"{r.kernel_rate:,.0f}",
              f"{r.kernel_median:,.0f}", f"{r.kernel_games:,}",
              f"{r.reference_rate:,.1f}", str(r.reference_games), f"{r.same_games_rate:,.0f}",
              f"{r.ratio:,.1f}x", str(r.mismatches),
              f"{r.kernel_rate * r.searched_moves:,.0f}" if r.searched_moves else "",
              r.status) for r in rows]
    widths = [max(len(line[i]) for line in (header, *lines)) for i in range(len(header))]
    left = {0, 1, 12}

    def render(cells: tuple[str, ...]) -> str:
        """One line, text columns left-aligned and numbers right-aligned."""
        return "  ".join(c.ljust(w) if i in left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([render(header), rule, *(render(line) for line in lines)])


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(prog="python -m cakesim.app.bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="smoke test: very short runs and few reference games")
    parser.add_argument("--seconds", type=float, default=None,
                        help="target seconds per timed kernel run (default 1.0; quick 0.05)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="timed kernel runs per table, best and median reported "
                             "(default 5; quick 1)")
    parser.add_argument("--reference-games", type=int, default=None,
                        help="most reference-engine games per table (default 250; quick 20)")
    parser.add_argument("--reference-seconds", type=float, default=None,
                        help="reference-engine seconds per table (default 5; quick 0.5)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"seed (default {SEED})")
    parser.add_argument("--game", action="append", choices=list(GAMES), dest="games",
                        help="bench only this game (repeatable; default: every game)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark, print the table; 1 if the kernel and the reference disagree."""
    args = parse_args(argv)
    settings = Settings(
        seconds=args.seconds or (0.05 if args.quick else 1.0),
        repeats=args.repeats or (1 if args.quick else 5),
        reference_games=args.reference_games or (20 if args.quick else 250),
        reference_seconds=args.reference_seconds or (0.5 if args.quick else 5.0),
        seed=args.seed,
    )
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print("Throughput per game: Numba kernel (1 core) vs reference engine")
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"numba {numba.__version__}, {cores} usable cores, {platform.machine()}")
    print(f"seed {settings.seed}; kernel: best and median of {settings.repeats} run(s) of "
          f"~{settings.seconds:g} s; reference: up to {settings.reference_games} games or "
          f"~{settings.reference_seconds:g} s per table; kernel/ref on the same games"
          f"{' (quick)' if args.quick else ''}")
    # A game is benchmarked when it has the capability (``kits.bench.Benchmarked``).
    games = [g for g in (game_named(name) for name in args.games or GAMES)
             if isinstance(g, Benchmarked)]
    for game in games:
        for target in game.bench_targets:
            print(f"target ({game.name} {target.describe()})")
    print()
    started = time.perf_counter()
    benched = [(game, strategy, table) for game in games
               for strategy, table in game.bench_tables(game.load_rules())]
    rows = measure(benched, settings)
    elapsed = time.perf_counter() - started
    print(format_table(rows))
    targeted = [r for r in rows if r.target is not None]
    passed = sum(r.status == "PASS" for r in targeted)
    mismatches = sum(r.mismatches for r in rows)
    print(f"\ntargeted rows: {passed}/{len(targeted)} tables meet both targets; "
          f"kernel/reference mismatches: {mismatches} of "
          f"{sum(r.reference_games for r in rows)} games; {elapsed:.0f} s")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
