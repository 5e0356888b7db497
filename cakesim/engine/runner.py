"""Playing many games: chunks fanned out over cores by joblib, summed exactly as they come.

Game ``i`` of seed ``s`` is the same game whatever the chunk size or ``n_jobs``, and every
sum is an integer sum, so results are identical for any split of the work. Per-game
rows are kept for the first ``keep_rows`` games; beyond that only the exact per-chunk sums
stream in, so memory stays bounded however many games are played.

A command that plays several tables opens a ``RunProgress``: one bar over all its games,
and a count of the run's finished chunks in the cache for the message when it is
interrupted. Its tables' chunks share one pool of workers (``run_tables``).
"""

import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import Parallel, delayed, effective_n_jobs, parallel_config
from tqdm import tqdm

from cakesim.engine.cache import ChunkCache
from cakesim.engine.contract import Chunk, ResultKind, TableSpec
from cakesim.engine.errors import InputError
from cakesim.engine.numba_cache import CACHE_ENV

DEFAULT_CHUNK = 20_000
DEFAULT_KEEP_ROWS = 1_000_000
BACKENDS = ("loky", "dask")
SCHEDULER_TIMEOUT = "10s"
"""How long a Dask client waits for its scheduler to answer before the run gives up."""
TIMING_SECONDS = 0.05
"""How long each table is timed for a run's estimate: long enough that a chunk's fixed
cost (arrays, dispatch) does not swamp a fast bot's games, short against a run."""


@dataclass
class Totals:
    """Exact sums over every game played at one table.

    Every ``*_sq`` is a sum over *deals* of the square of the deal's sum (over its
    rotations on duplicate deals; a deal is one game otherwise). The games of one deal
    are not independent (with the same deterministic strategy at every seat its
    rotations are the same game), so every interval is computed by deal: the deal is the
    unit that is sampled independently.

    Seat contrasts: for metric ``x`` and seat ``k``, ``P * x_k - sum(x)`` is ``P - 1`` times
    seat ``k``'s lead over the mean of the other seats, summed per deal likewise.
    """

    players: int
    metrics: tuple[str, ...]
    game_metrics: tuple[str, ...]
    games: int = 0
    deals: int = 0
    seat_sum: dict = field(default_factory=dict)
    seat_sq: dict = field(default_factory=dict)
    player_sum: dict = field(default_factory=dict)
    player_sq: dict = field(default_factory=dict)
    contrast_sum: dict = field(default_factory=dict)
    contrast_sq: dict = field(default_factory=dict)
    game_sum: dict = field(default_factory=dict)
    game_sq: dict = field(default_factory=dict)
    item_sum: dict = field(default_factory=dict)
    item_sq: dict = field(default_factory=dict)

    def __post_init__(self):
        for store in (self.seat_sum, self.seat_sq, self.player_sum, self.player_sq,
                      self.contrast_sum, self.contrast_sq):
            for metric in self.metrics:
                store.setdefault(metric, np.zeros(self.players, dtype=np.int64))
        for store in (self.game_sum, self.game_sq):
            for metric in self.game_metrics:
                store.setdefault(metric, 0)

    @property
    def games_per_deal(self) -> int:
        """Games played on each deal (P on duplicate deals, else 1)."""
        return self.games // self.deals if self.deals else 1

    def add(self, sums: "DealSums") -> None:
        """Add the per-deal sums of a chunk of whole deals."""
        self.games += sums.games
        self.deals += sums.deals
        for metric in self.metrics:
            _accumulate(self.seat_sum, self.seat_sq, metric, sums.seat[metric])
            _accumulate(self.player_sum, self.player_sq, metric, sums.player[metric])
            x = sums.seat[metric]
            _accumulate(self.contrast_sum, self.contrast_sq, metric,
                        self.players * x - x.sum(axis=1, keepdims=True))
        for metric in self.game_metrics:
            _accumulate(self.game_sum, self.game_sq, metric, sums.game[metric])
        for metric, z in sums.item.items():
            _accumulate(self.item_sum, self.item_sq, metric, z)


def _accumulate(total: dict, square: dict, metric: str, per_deal: np.ndarray) -> None:
    total[metric] = total.get(metric, 0) + per_deal.sum(axis=0)
    square[metric] = square.get(metric, 0) + (per_deal * per_deal).sum(axis=0)


@dataclass
class DealSums:
    """Per-deal sums of every metric of some consecutive deals: the unit of every interval.

    ``seat[m]`` and ``player[m]`` have shape ``(deals, P)`` (by seat, by strategy slot),
    ``game[m]`` shape ``(deals,)``, ``item[m]`` shape ``(deals, K)``; all ``int64``. On
    duplicate deals each row adds up the deal's P rotations.
    """

    first_deal: int
    games: int
    deals: int
    seat: dict[str, np.ndarray]
    player: dict[str, np.ndarray]
    game: dict[str, np.ndarray]
    item: dict[str, np.ndarray]

    @classmethod
    def of_chunk(cls, chunk: Chunk, table: TableSpec) -> "DealSums":
        """Sum a chunk of whole deals deal by deal."""
        per_deal = table.games_per_deal
        n, players = chunk.games, table.players
        deals = n // per_deal
        rotation = (chunk.first_game + np.arange(n)) % per_deal
        player = table.player_of_seat(np.arange(players)[None, :], rotation[:, None])

        def by_deal(values: np.ndarray) -> np.ndarray:
            values = values.astype(np.int64)
            return values.reshape(deals, per_deal, *values.shape[1:]).sum(axis=1)

        by_player = {}
        for metric, x in chunk.seat.items():
            placed = np.zeros(x.shape, np.int64)
            np.put_along_axis(placed, player, x.astype(np.int64), axis=1)
            by_player[metric] = by_deal(placed)
        return cls(chunk.first_game // per_deal, n, deals,
                   {m: by_deal(x) for m, x in chunk.seat.items()}, by_player,
                   {m: by_deal(y) for m, y in chunk.game.items()},
                   {m: by_deal(z) for m, z in chunk.item.items()})

    @classmethod
    def join(cls, parts: list["DealSums"]) -> "DealSums":
        """Consecutive parts (in any order) as one."""
        parts = sorted(parts, key=lambda p: p.first_deal)
        return cls(parts[0].first_deal, sum(p.games for p in parts),
                   sum(p.deals for p in parts),
                   *({m: np.concatenate([getattr(p, kind)[m] for p in parts])
                      for m in getattr(parts[0], kind)}
                     for kind in ("seat", "player", "game", "item")))


@dataclass
class TableRun:
    """A table's results: exact totals, and per-game rows for the first games."""

    table: TableSpec
    seed: int
    totals: Totals
    rows: pd.DataFrame
    rows_complete: bool
    """Whether ``rows`` holds every game played (else only the first ``keep_rows``)."""
    by_deal: DealSums | None = None
    """Every deal's sums, when every game's row was kept (``rows_complete``): for numbers
    pooled over tables that share their deals, and for comparisons paired by deal."""
    chunks_reused: int = 0
    """Chunks read back from the cache instead of played."""
    chunks: int = 0


def chunk_bounds(games: int, chunk_size: int, per_deal: int = 1) -> list[tuple[int, int]]:
    """Split ``games`` into ``[start, stop)`` chunks that begin on deal boundaries."""
    size = max(per_deal, chunk_size - chunk_size % per_deal)
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def chunk_rows(table: TableSpec, chunk: Chunk) -> pd.DataFrame:
    """One row per game and seat (per game in a team game), compact dtypes."""
    game = table.game
    if game.result_kind is ResultKind.TEAM:
        index = chunk.first_game + np.arange(chunk.games)
        columns = {"table": pd.Categorical([table.label] * chunk.games), "game": index}
        return pd.DataFrame(columns | dict(chunk.game))
    n, players = chunk.games, table.players
    index = chunk.first_game + np.arange(n)
    rotation = index % table.games_per_deal
    seat = np.tile(np.arange(players, dtype=np.int8), n)
    player = table.player_of_seat(seat, np.repeat(rotation, players)).astype(np.int8)
    names = pd.Categorical(np.array([s.name for s in table.strategies])[player])
    columns = {
        "table": pd.Categorical([table.label] * (n * players)),
        "game": np.repeat(index, players).astype(np.int64),
        "deal": np.repeat(index // table.games_per_deal, players).astype(np.int64),
        "seat": seat,
        "player": player,
        "strategy": names,
    }
    for metric, values in chunk.seat.items():
        columns[metric] = values.reshape(-1)
    columns["win_share"] = (chunk.seat["win_units"].reshape(-1) / game.win_units).astype(
        np.float32)
    for metric, values in chunk.game.items():
        columns[metric] = np.repeat(values, players)
    return pd.DataFrame(columns)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run, with what a rerun of the same command will not play again."""

    def __init__(self, kept: int, cache: bool):
        self.kept = kept
        self.cache = cache
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The line the command line prints."""
        if not self.cache:
            return "interrupted: nothing kept; rerun the same command to start again"
        return (f"interrupted: {self.kept} finished chunk{'s' if self.kept != 1 else ''} "
                "kept; rerun the same command to resume")


class RunProgress:
    """One bar over all the games of a run (above a single table's own bar, ``position=1``).

    Every ``run_tables`` inside the ``with`` block adds its games to it, even one called
    without a bar of its own, and counts the run's finished chunks kept in the cache
    (read back or stored); Ctrl-C inside raises ``Interrupted`` with that count.
    """

    _active: "RunProgress | None" = None

    def __init__(self, total: int | None, enabled: bool = True, cache: bool = True,
                 desc: str = "all games"):
        self.bar = tqdm(total=total, desc=desc, unit="game", file=sys.stderr,
                        disable=not enabled, position=0, leave=False, dynamic_ncols=True)
        self.enabled = enabled
        self.cache = cache
        self.games = 0
        self.kept = 0

    def __enter__(self) -> "RunProgress":
        self.outer, RunProgress._active = RunProgress._active, self
        return self

    def __exit__(self, kind, error, trace) -> None:
        RunProgress._active = self.outer
        self.bar.close()
        if isinstance(error, KeyboardInterrupt) and not isinstance(error, Interrupted):
            raise Interrupted(self.kept, self.cache) from None

    def add(self, games: int, in_cache: bool) -> None:
        """Count a finished chunk of ``games`` games, kept in the cache or not."""
        self.bar.update(games)
        self.games += games
        self.kept += in_cache

    def note(self, line: str) -> None:
        """Print a line above the bars (when the run shows progress)."""
        if self.enabled:
            tqdm.write(line, file=sys.stderr)

    def phase(self, desc: str, total: int | None = None) -> None:
        """Start the bar afresh for a part of the run: ``total`` games at most, or None when
        they are not known ahead."""
        self.bar.reset()
        self.bar.total = total
        self.bar.set_description(desc)

    @classmethod
    def active(cls) -> "RunProgress | None":
        """The innermost run in progress, if any."""
        return cls._active


def kernels_compiled() -> bool:
    """Whether Numba's cache folder for this code version holds a compiled game kernel.

    A game's kernel lives in its ``kernel.py`` (the contract's layout); Numba names the
    index of every cached function after its module, so ``kernel.*.nbi``. Other files
    there (helpers compiled when a game is imported) do not spare the long compile.
    """
    folder = os.environ.get(CACHE_ENV)
    # Without the folder cakesim chose, Numba caches beside the source: nothing to tell.
    return folder is None or any(Path(folder).glob("*/kernel.*.nbi"))


_compiled_at_start = kernels_compiled()
"""Whether the folder held this code version's kernels when cakesim was imported: asked
later, it would not tell, as importing a game compiles some of its helpers at once."""
_told_compiling = False


def say_if_compiling(enabled: bool) -> None:
    """Before the first kernel plays, say that compiling will take a while (once)."""
    global _told_compiling
    if enabled and not _told_compiling and not _compiled_at_start:
        _told_compiling = True
        tqdm.write("compiling the kernels (first run only, about a minute)", file=sys.stderr)


@dataclass(frozen=True)
class Estimate:
    """How much of a run is left to play, and about how long it will take."""

    games: int
    """Games in the chunks the cache does not hold."""
    chunks: int
    """Chunks of the run."""
    cached: int
    """Chunks of the run already in the cache."""
    seconds: float
    """Wall time for the games left, from each table's timed games (compiling excluded)."""
    workers: int
    rates: tuple[float, ...] = ()
    """One core's seconds per game at each table estimated, in their order (0.0 where the
    cache holds every chunk): ``run_tables`` orders its work by them."""

    @property
    def message(self) -> str:
        """The line printed before the first game."""
        if not self.games:
            return f"every one of the {self.chunks:,} chunks is in the cache: nothing to play"
        held = f", {self.cached:,} of {self.chunks:,} chunks in the cache" if self.cached else ""
        cores = f"{self.workers} core{'s' if self.workers != 1 else ''}"
        return (f"{self.games:,} games to play{held}: about "
                f"{duration_text(self.seconds)} on {cores} (timed on a few games of each table)")


def table_chunks(table: TableSpec, games: int, chunk_size: int) -> list[tuple[int, int]]:
    """The ``(start, stop)`` chunks of ``games`` games at ``table``, rounded up to whole deals."""
    per_deal = table.games_per_deal
    return chunk_bounds(-(-games // per_deal) * per_deal, chunk_size, per_deal)


def missing_chunks(table: TableSpec, games: int, seed: int, chunk_size: int,
                   cache: ChunkCache | None) -> tuple[list[tuple[int, int]], int]:
    """The ``(start, stop)`` chunks of a table's run the cache does not hold, and all of them."""
    bounds = table_chunks(table, games, chunk_size)
    missing = [(a, b) for a, b in bounds
               if cache is None or not cache.path(table, seed, a, b).is_file()]
    return missing, len(bounds)


def seconds_per_game(table: TableSpec, seed: int, most: int) -> float:
    """One core's seconds per game at ``table``, timed on up to ``most`` of its games.

    The first deal is played once untimed: it compiles the kernel (or loads it) and warms
    the caches. Then four times as many games each try until ``TIMING_SECONDS`` pass.
    """
    per_deal = table.games_per_deal
    table.game.play_chunk(table, seed, 0, per_deal)
    games = per_deal
    while True:
        started = time.perf_counter()
        table.game.play_chunk(table, seed, 0, games)
        seconds = time.perf_counter() - started
        if seconds >= TIMING_SECONDS or games >= most:
            return seconds / games
        games = min(4 * games, -(-most // per_deal) * per_deal)


def estimate(tables: list[tuple[TableSpec, int]], seed: int, chunk_size: int,
             cache: ChunkCache | None, n_jobs: int = -1) -> Estimate:
    """The games of ``(table, games)`` left to play and the wall time they will take.

    Every table's chunks share the ``n_jobs`` cores (``run_tables``), so a run of fewer
    chunks than cores runs on fewer.
    """
    workers = effective_n_jobs(n_jobs)
    games = chunks = cached = to_play = 0
    seconds = 0.0
    rates = []
    for table, count in tables:
        missing, every = missing_chunks(table, count, seed, chunk_size, cache)
        chunks += every
        cached += every - len(missing)
        to_play += len(missing)
        left = sum(b - a for a, b in missing)
        rates.append(seconds_per_game(table, seed, left) if left else 0.0)
        games += left
        seconds += left * rates[-1]
    return Estimate(games, chunks, cached, seconds / max(1, min(workers, to_play)), workers,
                    tuple(rates))


def duration_text(seconds: float) -> str:
    """``4.2 s``, ``3 min 05 s``, ``1 h 02 min``."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, whole = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {whole:02d} s"
    return f"{minutes // 60} h {minutes % 60:02d} min"


def _play(table: TableSpec, seed: int, start: int, stop: int) -> Chunk:
    return table.game.play_chunk(table, seed, start, stop - start)


@contextmanager
def backend(name: str = "loky", scheduler: str | None = None) -> Iterator[None]:
    """Run the chunks inside on joblib's ``name`` backend: ``loky`` (local) or ``dask``.

    With ``dask``, ``scheduler`` is the address of a ``distributed`` scheduler, e.g.
    ``tcp://10.0.0.5:8786``; its workers need cakesim installed.
    """
    if name not in BACKENDS:
        raise InputError("--backend", "backend", f"{name!r} is not allowed; allowed values: "
                                                 f"{', '.join(BACKENDS)}")
    if name == "loky":
        if scheduler is not None:
            raise InputError("--scheduler", "scheduler", "only the dask backend takes one")
        yield
        return
    if scheduler is None:
        raise InputError("--scheduler", "scheduler", "the dask backend needs a scheduler "
                                                     "address, e.g. tcp://127.0.0.1:8786")
    try:
        from distributed import Client
    except ImportError as error:
        raise InputError("--backend", "backend", "dask needs the optional dependency: "
                                                 "pip install 'cakesim[dask]'") from error
    try:
        client = Client(scheduler, timeout=SCHEDULER_TIMEOUT)
    except OSError as error:
        raise InputError("--scheduler", "scheduler",
                         f"no Dask scheduler answers at {scheduler}: {error}") from error
    with client, parallel_config(backend="dask"):
        yield


def run_table(table: TableSpec, games: int, seed: int, n_jobs: int = -1,
              chunk_size: int = DEFAULT_CHUNK, keep_rows: int = DEFAULT_KEEP_ROWS,
              progress: bool = True, cache: ChunkCache | None = None) -> TableRun:
    """Play ``games`` games of ``seed`` at ``table`` over ``n_jobs`` processes
    (``run_tables`` of one table)."""
    return run_tables([(table, games)], seed, n_jobs, chunk_size, keep_rows, progress,
                      cache)[0]


class _TableSums:
    """What ``run_tables`` gathers of one table as its chunks arrive, in any order."""

    def __init__(self, table: TableSpec, games: int, chunk_size: int, keep_rows: int):
        game = table.game
        self.table = table
        self.bounds = table_chunks(table, games, chunk_size)
        self.games = self.bounds[-1][1]
        self.keep_rows = keep_rows
        self.complete = self.games <= keep_rows
        """Whether every game's row is kept (and every deal's sums)."""
        seat_metrics = ((*game.seat_metrics, "win_units")
                        if game.result_kind is ResultKind.SEATS else ())
        self.totals = Totals(table.players, seat_metrics, game.game_metrics_of(table))
        self.kept, self.deal_parts = {}, []
        self.missing = []

    def take(self, chunk: Chunk) -> None:
        """Add a chunk; integer sums do not depend on the order chunks arrive in, and
        rows are sorted by ``result``."""
        sums = DealSums.of_chunk(chunk, self.table)
        self.totals.add(sums)
        if chunk.first_game < self.keep_rows:
            keep = min(chunk.games, self.keep_rows - chunk.first_game)
            self.kept[chunk.first_game] = chunk_rows(self.table, _head(chunk, keep))
        if self.complete:
            self.deal_parts.append(sums)

    def result(self, seed: int) -> TableRun:
        """The table's ``TableRun``, once every chunk was taken."""
        kept = self.kept
        rows = (pd.concat([kept[k] for k in sorted(kept)], ignore_index=True) if kept
                else pd.DataFrame())
        return TableRun(self.table, seed, self.totals, rows, rows_complete=self.complete,
                        by_deal=(DealSums.join(self.deal_parts)
                                 if self.complete and self.deal_parts else None),
                        chunks_reused=len(self.bounds) - len(self.missing),
                        chunks=len(self.bounds))


def run_tables(pairs: list[tuple[TableSpec, int]], seed: int, n_jobs: int = -1,
               chunk_size: int = DEFAULT_CHUNK, keep_rows: int = DEFAULT_KEEP_ROWS,
               progress: bool = True, cache: ChunkCache | None = None,
               rates: Sequence[float] | None = None) -> list[TableRun]:
    """Play ``games`` games of ``seed`` at each ``(table, games)`` of ``pairs``, over
    ``n_jobs`` processes: one ``TableRun`` per pair, in their order.

    Every table's chunks go into one pool, so that no core waits for the last chunk of
    one table before the next table starts (with a few slow chunks a table, as the
    search rows have, that wait was a core idle for most of each table). With a
    ``cache``, chunks finished by an earlier (perhaps interrupted) run are read back
    instead of played, and every chunk played is stored as soon as it arrives. Inside a
    ``RunProgress`` the run's bar counts the games (and a single table's bar sits below).
    ``rates`` are each pair's seconds per game as ``estimate`` timed them (``Estimate.rates``
    of the same pairs); without them one deal of each table is timed here.
    """
    sums = [_TableSums(table, games, chunk_size, keep_rows) for table, games in pairs]
    run = RunProgress.active()
    shown = progress and (run is None or run.enabled)
    one = len(sums) == 1
    bar = tqdm(total=sum(s.games for s in sums), desc=sums[0].table.label if one else "tables",
               unit="game", file=sys.stderr, disable=not shown or not (one or run is None),
               leave=False, position=1 if run is not None else 0, dynamic_ncols=True)

    def take(table_sums: _TableSums, chunk: Chunk, in_cache: bool) -> None:
        table_sums.take(chunk)
        bar.update(chunk.games)
        if run is not None:
            run.add(chunk.games, in_cache)

    for table_sums in sums:
        for start, stop in table_sums.bounds:
            chunk = (cache.load(table_sums.table, seed, start, stop) if cache is not None
                     else None)
            if chunk is None:
                table_sums.missing.append((start, stop))
            else:
                take(table_sums, chunk, in_cache=True)
    work = [(i, a, b) for i, table_sums in enumerate(sums) for a, b in table_sums.missing]
    if work:
        say_if_compiling(shown or (run is not None and run.enabled))
        # Timing (here or in the estimate) also compiles or loads the kernel once, before
        # the workers need it.
        if rates is None:
            rates = [seconds_per_game(s.table, seed, s.table.games_per_deal) if s.missing
                     else 0.0 for s in sums]
        # Longest first (Graham's LPT rule): a slow chunk dispatched last would leave
        # every other core idle until it ends, as a last search chunk of a trace did.
        work.sort(key=lambda job: -rates[job[0]] * (job[2] - job[1]))
        with Parallel(n_jobs=n_jobs, return_as="generator_unordered") as parallel:
            for i, chunk in parallel(delayed(_play_one)(i, sums[i].table, seed, a, b)
                                     for i, a, b in work):
                if cache is not None:
                    cache.store(sums[i].table, seed, chunk)
                take(sums[i], chunk, in_cache=cache is not None)
    bar.close()
    return [table_sums.result(seed) for table_sums in sums]


def _play_one(i: int, table: TableSpec, seed: int, start: int, stop: int) -> tuple[int, Chunk]:
    # The chunks come back in any order: each with the index of its table.
    return i, _play(table, seed, start, stop)


def _head(chunk: Chunk, n: int) -> Chunk:
    if n == chunk.games:
        return chunk
    return Chunk(chunk.first_game, {k: v[:n] for k, v in chunk.seat.items()},
                 {k: v[:n] for k, v in chunk.game.items()})


def pooled_by_deal(runs: list[TableRun]) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Per deal, summed over every table: item sums ``(deals, K)`` and games lost.

    The tables of an experiment share their seed, hence their deals: an item's numbers
    pooled over tables are then sums of correlated parts, and only per-deal sums over all
    tables give honest intervals. Games lost count a team game's games not ``won``.
    """
    if any(run.by_deal is None for run in runs):
        raise ValueError("per-item numbers need every deal's sums: raise the experiment's "
                         "keep_rows to at least its games per table")
    deals = max(run.by_deal.deals for run in runs)
    items = {}
    lost = np.zeros(deals, np.int64)
    for run in runs:
        d = run.by_deal
        for metric, values in d.item.items():
            items.setdefault(metric, np.zeros((deals, values.shape[1]), np.int64))
            items[metric][:d.deals] += values
        if "won" in d.game:
            lost[:d.deals] += run.totals.games_per_deal - d.game["won"]
    return items, lost
