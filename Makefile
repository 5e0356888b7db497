# cakesim: every set-up step is here, so that a fresh clone needs only these targets.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
EXP    ?= first_player_bias

.PHONY: install browser test experiment bench parity gate-check lint baseline regress reports tune exploitability clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)  ## create .venv and install cakesim with its dev tools

# The report pages' browser test drives Debian's Chromium (never a browser download). Without
# it (no apt-get, not root, offline) that one test is skipped, so this target never fails.
browser:  ## install Debian's chromium for the browser test of the report pages, if missing
	@if [ -x /usr/bin/chromium ]; then \
		echo "Chromium: /usr/bin/chromium is installed"; \
	elif command -v apt-get >/dev/null 2>&1 \
		&& echo "Chromium: installing Debian's chromium package with apt-get" \
		&& apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium \
		&& [ -x /usr/bin/chromium ]; then \
		echo "Chromium: installed /usr/bin/chromium"; \
	else \
		echo "no Chromium: the browser test will be skipped; install Debian's chromium package"; \
	fi

# Two test processes, one a core (pytest-xdist); the 25 slowest tests are listed every run.
# A test file runs in one process (--dist loadfile): a file's tests call the same compiled
# functions directly, and on a fresh cache two processes would compile each of them twice.
# The default suite compiles without Numba's inlining (CAKESIM_JIT_INLINE=0): the same
# numbers, in 40 % less compile time. The shipped build runs every experiment: `make
# regress` (in CI) checks each one's games against its baseline's digest, and `make parity`
# runs the slow tests with it.
TEST_PROCESSES = -n 2 --dist loadfile --durations=25
test: install browser  ## the default test suite (~9 min on 2 cores from a fresh clone, 4 of them compiling)
	CAKESIM_JIT_INLINE=0 $(PY) -m pytest -q $(TEST_PROCESSES)

experiment: install  ## run experiments/$(EXP).toml and write reports/$(EXP)/
	$(PY) -m cakesim run $(EXP) $(ARGS)

bench: install  ## kernel games/s per core against the reference engine, in one run
	$(PY) -m cakesim.app.bench $(ARGS)

parity: install  ## the long runs: every parity setting, every experiment and notebook, the wheel
	$(PY) -m pytest -q -m slow $(TEST_PROCESSES)

gate-check: install  ## the regression gate's false alarms over 100 seed changes, and its power
	$(PY) -m cakesim.app.gate_check $(ARGS)

baseline: install  ## write reports/baselines/EXP.json for every experiment (CI size)
	$(PY) -m cakesim baseline $(ARGS)

regress: install  ## re-run every experiment's CI size and compare with its baseline
	$(PY) -m cakesim regress $(ARGS)

reports: install  ## regenerate reports/index.md from every summary.json, and every report.html
	$(PY) -m cakesim reports

lint: install  ## ruff over the package, tests and notebooks
	$(VENV)/bin/ruff check .

# The shipped tuned strategies (--ship writes them; without it tune writes runs/tuned/),
# each file recording the command that made it: about an
# hour on 2 cores. Piece o' Cake at 3 players needed 10 rounds to get within 5 pp.
tune: install  ## re-tune the shipped tuned strategies of both slicing games (P = 2..5)
	$(PY) -m cakesim tune piece-o-cake --players 2 4 5 --ship $(ARGS)
	$(PY) -m cakesim tune piece-o-cake --players 3 --rounds 10 --budget 5000 --ship $(ARGS)
	$(PY) -m cakesim tune part-du-chef --players 2 3 4 5 --ship $(ARGS)
	$(PY) -m cakesim tune part-du-chef --players 2 --variant marianne --ship $(ARGS)
	$(PY) -m cakesim tune part-du-chef --players 3 4 5 --variant marianne --budget 1500 \
		--rounds 4 --ship $(ARGS)

# Strategies whose field plays the enumerating cutter run far slower at 3 to 5 players
# (about 1,000 to 3,000 games/s per core): their searches are smaller, as the report says.
EXPLOIT := $(PY) -m cakesim exploit
SMALLER := --budget 48 --games 1000 --confirm 10000
# fitted-search at every other seat plays about 100 games/s per core at 4 players: about
# 40 min for its three counts. Topp die Torte!'s challengers include its search players
# (about 100 and 40 games/s per core at 4 players), so its targets get the same budget.
SEARCHED := --budget 60 --games 1000 --confirm 4000
# Every target meets every challenger: the named strategies (the search players at 100 and
# 300 iterations among them), the tuning's population and the tuner in every code family.
# The search player is exploited heads-up only, with the smaller search: every game a
# candidate plays against it has P - 1 search players (a few hundred games/s at most).
# The lookahead players (a few hundred games/s each, Piece o' Cake's two-ply lookahead
# about 150 at 4 players: its four counts take about 45 min) get the smaller search too;
# La Part du Chef's at 5 players (1,287 cuts, about 60 games/s per core) is left out: ~30 min.
exploitability: install  ## best responses to every named strategy: reports/exploitability/
	$(EXPLOIT) piece-o-cake --players 2 3 4 5 --report reports/exploitability $(ARGS) \
		--strategy random greedy-balanced greedy-deny tuned
	$(EXPLOIT) piece-o-cake --players 2 --report reports/exploitability $(ARGS) --strategy greedy
	$(EXPLOIT) piece-o-cake --players 3 4 5 --report reports/exploitability $(SMALLER) $(ARGS) \
		--strategy greedy
	$(EXPLOIT) piece-o-cake --players 2 --report reports/exploitability $(SMALLER) $(ARGS) \
		--strategy search
	$(EXPLOIT) piece-o-cake --players 2 3 4 5 --report reports/exploitability $(SMALLER) \
		$(ARGS) --strategy lookahead
	$(EXPLOIT) piece-o-cake --players 2 3 4 5 --report reports/exploitability $(SMALLER) \
		$(ARGS) --strategy lookahead2
	$(EXPLOIT) piece-o-cake --players 2 3 4 5 --report reports/exploitability $(SMALLER) \
		$(ARGS) --strategy fitted
	$(EXPLOIT) piece-o-cake --players 2 4 5 --report reports/exploitability $(SEARCHED) \
		$(ARGS) --strategy fitted-search
	$(EXPLOIT) part-du-chef --players 2 3 4 5 --report reports/exploitability $(ARGS) \
		--strategy random greedy-balanced hoarder glutton greedy-deny tuned
	$(EXPLOIT) part-du-chef --players 2 --report reports/exploitability $(ARGS) \
		--strategy greedy thief-leader
	$(EXPLOIT) part-du-chef --players 3 4 5 --report reports/exploitability $(SMALLER) $(ARGS) \
		--strategy greedy thief-leader
	$(EXPLOIT) part-du-chef --players 2 --report reports/exploitability $(SMALLER) $(ARGS) \
		--strategy search
	$(EXPLOIT) part-du-chef --players 2 3 4 --report reports/exploitability $(SMALLER) \
		$(ARGS) --strategy lookahead
	$(EXPLOIT) topp-die-torte --players 2 3 4 --report reports/exploitability $(SEARCHED) \
		$(ARGS) --strategy random greedy tuned
	$(PY) -m cakesim reports

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .cakesim-cache "$${XDG_CACHE_HOME:-$$HOME/.cache}/cakesim"
	find . -name __pycache__ -prune -exec rm -rf {} +
