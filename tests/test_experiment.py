"""Experiment files: what the loader refuses before any game is played (exit 2)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cakesim.app.cli import main
from cakesim.app.experiment import RuleChanges, SampleSize, load_experiment
from cakesim.engine.arguments import setting
from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table

TEAM = """
[experiment]
game = "speedtorte"
seed = 1
games = 100

[strategies.team]

[[tables]]
players = 2
seats = "team"
"""


def test_two_tables_with_one_label_are_refused(tiny_experiment):
    path = tiny_experiment(extra='\n[[tables]]\nplayers = 3\nseats = "greedy-balanced"\n')
    with pytest.raises(InputError, match="two tables are labelled '3P base greedy-balanced'"):
        load_experiment(str(path))


def test_a_team_game_cannot_ask_for_a_seats_win_share(tmp_path, capsys):
    path = tmp_path / "team.toml"
    path.write_text(TEAM + "\n[plan]\npilot_games = 100\n")
    assert main(["run", str(path), "--quiet", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "team.toml" in err and "plan" in err and "all players together" in err


def test_a_team_game_without_seat_questions_loads(tmp_path):
    path = tmp_path / "team.toml"
    path.write_text(TEAM)
    experiment = load_experiment(str(path))
    assert [t.label for t in experiment.tables] == ["2P signals team"]
    assert experiment.tables[0].options == (("level", "Lehrling"),)


FIELD = """
[experiment]
game = "piece-o-cake"
seed = 1
games = 100

[strategies.a]
chooser = "greedy"
cutter = "balanced"

[strategies.b]
chooser = "random"
cutter = "random"

[strategies.c]
chooser = "greedy"
cutter = "random"

[skill]
enabled = false

[[tables]]
players = {players}
{seating}
duplicate = true
"""


def _field(tmp_path, players, seating='against_field = ["a", "b", "c"]', extra=""):
    path = tmp_path / "field.toml"
    path.write_text(FIELD.format(players=players, seating=seating) + extra)
    return path


def test_against_field_puts_each_strategy_alone_against_every_other(tmp_path):
    experiment = load_experiment(str(_field(tmp_path, "[3, 4]")))
    tables = {t.label: [s.name for s in t.strategies] for t in experiment.tables}
    assert len(tables) == 2 * 3 * 2  # k (k - 1) tables at each count
    assert list(tables)[:6] == [f"3P base {a} vs field of {b}" for a, b in
                                (("a", "b"), ("a", "c"), ("b", "a"), ("b", "c"), ("c", "a"),
                                 ("c", "b"))]
    assert tables["3P base b vs field of c"] == ["b", "c", "c"]
    assert tables["4P base c vs field of a"] == ["c", "a", "a", "a"]
    assert all(t.duplicate and t.players == len(tables[t.label]) for t in experiment.tables)


def test_against_field_at_two_players_is_the_round_robin(tmp_path):
    field = load_experiment(str(_field(tmp_path, 2)))
    robin = load_experiment(str(_field(tmp_path, 2, 'round_robin = ["a", "b", "c"]')))
    assert [(t.label, t.strategies) for t in field.tables] == [
        (t.label, t.strategies) for t in robin.tables]
    assert [t.label for t in field.tables] == ["2P base a vs b", "2P base a vs c",
                                               "2P base b vs c"]


@pytest.mark.parametrize(("seating", "key", "message"), [
    ('against_field = ["a", "a"]', "against_field", "at least two different strategies"),
    ('against_field = ["a", "clever"]', "against_field", "unknown strategy 'clever'"),
    ('against_field = "a"', "against_field", "must be a list"),
    ('against_field = ["a", "b"]\nseats = "a"', "against_field", "only one of seats"),
    ('round_robin = ["a", "clever"]', "round_robin", "unknown strategy 'clever'"),
])
def test_bad_ladder_tables_exit_2_naming_the_key(tmp_path, capsys, seating, key, message):
    path = _field(tmp_path, 3, seating)
    assert main(["run", str(path), "--quiet", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "field.toml" in err and f"tables[0].{key}" in err and message in err


def test_a_ladder_names_its_player_counts(tmp_path, capsys):
    ladder = '\n[ladder]\nstrategies = ["a", "b", "c"]\nplayers = [3, 1]\n'
    path = _field(tmp_path, 3, extra=ladder)
    assert main(["run", str(path), "--quiet", "--out", str(tmp_path / "out")]) == 2
    assert "ladder.players" in capsys.readouterr().err
    path = _field(tmp_path, 3, extra=ladder.replace("[3, 1]", "[4, 3]"))
    assert load_experiment(str(path)).sections["ladder"].players == (3, 4)


BUILTIN = """
[experiment]
game = "piece-o-cake"
seed = 1
games = 100

[strategies.t]
builtin = "tuned"
{extra}

[skill]
enabled = false

[[tables]]
players = [2, 4]
seats = "t"
"""


def _builtin(tmp_path, extra=""):
    path = tmp_path / "builtin.toml"
    path.write_text(BUILTIN.format(extra=extra))
    return path


def test_a_builtin_strategy_is_resolved_for_each_player_count(tmp_path):
    game = load_experiment(str(_builtin(tmp_path))).game
    tables = load_experiment(str(_builtin(tmp_path))).tables
    for table in tables:
        tuned = game.named_strategy("tuned", table.players)
        assert all(s.name == "t" and s.vectors().keys() == tuned.vectors().keys()
                   and all((s.vectors()[k] == tuned.vectors()[k]).all() for k in s.vectors())
                   for s in table.strategies)
    assert tables[0].strategies[0] != tables[1].strategies[0]  # tuned per player count


def test_a_builtin_strategy_takes_changed_weights_and_codes(tmp_path):
    path = _builtin(tmp_path, 'deny_weight = 0.0\ncutter = "random"')
    for table in load_experiment(str(path)).tables:
        strategy = table.strategies[0]
        assert strategy.cutter == "random"
        assert table.game.weights_of(strategy)["deny_weight"] == 0.0


@pytest.mark.parametrize(("extra", "key", "message"), [
    ('builtin = "cleverest"', "strategies.t.builtin", "'cleverest' is not allowed"),
    ("deny_weight = -1.0", "strategies.t.deny_weight", "not allowed"),
    ("wisdom = 3.0", "strategies.t.wisdom", "unknown key"),
])
def test_bad_builtin_strategies_exit_2_naming_the_key(tmp_path, capsys, extra, key, message):
    text = BUILTIN.format(extra=extra)
    if extra.startswith("builtin"):
        text = text.replace('builtin = "tuned"\n', "")
    path = tmp_path / "builtin.toml"
    path.write_text(text)
    assert main(["run", str(path), "--quiet", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "builtin.toml" in err and key in err and message in err


SKILL = """
[experiment]
game = "piece-o-cake"
seed = 1
games = 2000
{head}

[ci]
games = 900
seed = 2
level = 0.01

[strategies.tuned]
builtin = "tuned"

[strategies.random]
chooser = "random"
cutter = "random"

[[tables]]
players = [3, 4]
seats = "tuned"

[[tables]]
label = "random control"
control = true
players = 3
seats = "random"
{skill}
"""


def _skill(tmp_path, skill='[skill]\nstrengths = ["random", "greedy", "tuned"]', head=""):
    path = tmp_path / "skill.toml"
    path.write_text(SKILL.format(skill=skill, head=head))
    return path


def test_skill_rows_are_tables_of_the_run_and_reuse_tables_that_play_them(tmp_path):
    experiment = load_experiment(str(_skill(tmp_path)))
    question = experiment.sections["skill"]
    # 4000 games a row by default, but never more than a table of the experiment plays.
    assert list(experiment.analyses) == ["skill"] and question.games == 2000
    three, four = question.settings
    assert (three.name, three.headline, four.headline) == ("3P base", "3P base tuned",
                                                           "4P base tuned")
    # Random and tuned at every seat are tables of the experiment already.
    assert three.uniform == (("random", "3P base random control"),
                             ("greedy", "3P base · skill greedy"), ("tuned", "3P base tuned"))
    assert [(s, label) for s, label, _ in four.mixed] == [
        ("random", "4P base · mixed random vs tuned"),
        ("greedy", "4P base · mixed greedy vs tuned")]
    added = {t.label: (t, games) for t, games in zip(experiment.tables, experiment.table_games,
                                                    strict=True)
             if t.label in experiment.section_tables}
    assert sorted(added) == sorted(experiment.section_tables) and len(added) == 1 + 2 + 2 + 2
    mixed, games = added["4P base · mixed greedy vs tuned"]
    assert mixed.duplicate and games == 2000
    assert [s.name for s in mixed.strategies] == ["greedy", "tuned", "tuned", "tuned"]
    assert mixed.strategies[1] == mixed.game.named_strategy("tuned", 4)
    assert not added["3P base · skill greedy"][0].duplicate  # as its headline table


def test_skill_rows_are_sized_by_ci_and_by_a_games_override(tmp_path):
    path = _skill(tmp_path, '[skill]\nstrengths = ["greedy", "tuned"]\nci_games = 300')
    ci = load_experiment(str(path), ci=True)
    assert {g for t, g in zip(ci.tables, ci.table_games, strict=True)
            if t.label in ci.section_tables} == {300}
    small = load_experiment(str(path), games=200)
    assert set(small.table_games) == {200}
    assert small.sections["skill"].games == 200


def test_skill_is_on_by_default_when_the_game_has_a_skill_ladder(tmp_path, monkeypatch):
    path = _skill(tmp_path, "")
    game = load_experiment(str(path)).game
    assert game.skill_ladder == ("random", "greedy", "tuned", "search", "search-deep")
    monkeypatch.setattr(type(game), "skill_ladder", ())
    assert "skill" not in load_experiment(str(path)).sections
    with pytest.raises(InputError, match="piece-o-cake has no skill ladder"):
        load_experiment(str(_skill(tmp_path, "[skill]")))
    monkeypatch.setattr(type(game), "skill_ladder", ("random", "greedy-balanced", "tuned"))
    experiment = load_experiment(str(path))
    question = experiment.sections["skill"]
    assert question.strengths == ("random", "greedy-balanced", "tuned")
    assert "4P base · skill greedy-balanced" in experiment.section_tables
    off = load_experiment(str(_skill(tmp_path, "[skill]\nenabled = false")))
    assert "skill" not in off.sections and not off.section_tables
    assert [t.label for t in off.tables] == ["3P base tuned", "4P base tuned",
                                             "3P base random control"]


def test_a_strength_may_be_one_of_the_experiments_strategies(tmp_path):
    path = _skill(tmp_path, '[strategies.search40]\nbuiltin = "search"\niterations = 40\n\n'
                            '[strategies.greedy]\nchooser = "random"\ncutter = "random"\n\n'
                            '[skill]\nstrengths = ["greedy", "search", "search40"]')
    experiment = load_experiment(str(path))
    game, tables = experiment.game, {t.label: t for t in experiment.tables}
    budgets = [game.weights_of(tables[f"4P base · skill {name}"].strategies[0])["iterations"]
               for name in ("search", "search40")]
    assert budgets == [100.0, 40.0]
    assert tables["4P base · mixed search40 vs tuned"].strategies[0].name == "search40"
    # A built-in name means the built-in, whatever the experiment calls by that name.
    greedy = tables["4P base · skill greedy"].strategies[0]
    assert game.same_play(greedy, game.named_strategy("greedy", 4), 4)
    assert not game.same_play(greedy, game.named_strategy("random", 4), 4)


@pytest.mark.parametrize(("skill", "key", "message"), [
    ('strengths = ["random", "cleverest"]', "skill.strengths",
     "'cleverest' is not allowed; allowed values: random, greedy"),
    ('strengths = ["random", "random"]', "skill.strengths", "names 'random' twice"),
    ("strengths = []", "skill.strengths", "must not be empty"),
    ("strengths = [1, 2]", "skill.strengths", "1 is not allowed"),
    ('strengths = ["random"]\nreference = "cleverest"', "skill.reference",
     "'cleverest' is not allowed"),
    ('strengths = ["random"]\ntables = ["4P base tuned", "9P"]', "skill.tables",
     "no table '9P'; tables: 3P base tuned, 4P base tuned, 3P base random control"),
    ('strengths = ["random"]\ngames = 0', "skill.games", "out of range"),
    ('strengths = ["random"]\nmixed = "yes"', "skill.mixed", "must be true or false"),
    ('strengths = ["random"]\nwisdom = 3', "skill.wisdom", "unknown key; allowed keys: "
                                                           "strengths, games, ci_games"),
])
def test_bad_skill_sections_exit_2_naming_the_key(tmp_path, capsys, skill, key, message):
    path = _skill(tmp_path, "[skill]\n" + skill)
    assert main(["run", str(path), "--quiet", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "skill.toml" in err and key in err and message in err


def test_mixed_skill_rows_need_every_games_row(tmp_path, capsys):
    path = _skill(tmp_path, head="keep_rows = 1000")
    assert main(["run", str(path), "--quiet", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    # 2000 games at 3 players on duplicate deals: 667 whole deals, 2001 games.
    assert "experiment.keep_rows" in err and "at least 2001" in err
    path = _skill(tmp_path, '[skill]\nstrengths = ["greedy", "tuned"]\nmixed = false',
                  head="keep_rows = 1000")
    assert not load_experiment(str(path)).sections["skill"].mixed_tables()


def test_table_labels_and_option_values_are_read_in_any_case(tmp_path):
    path = tmp_path / "team.toml"
    path.write_text(TEAM.replace('seats = "team"', 'seats = "team"\nlevel = ["meister", '
                                                   '"LEHRLING"]'))
    experiment = load_experiment(str(path))
    assert [t.label for t in experiment.tables] == ["Meister 2P signals team",
                                                    "Lehrling 2P signals team"]
    assert experiment.table_named("meister 2p SIGNALS team") is experiment.tables[0]
    with pytest.raises(InputError, match="--table: 3P: no table '3P' in team; allowed: Meister"):
        experiment.table_named("3P")


def test_the_command_line_changes_the_rules_of_one_experiment(tmp_path, tiny_experiment):
    path = str(tiny_experiment())
    changes = RuleChanges(None, (setting("kinds.chocolate.majority_value=20"),
                                 setting("tie_rule=none")))
    plain, changed = load_experiment(path), load_experiment(path, changes=changes)
    rules = changed.tables[0].rules.rules
    assert rules.majority_value[-1] == 20 and rules.tie_rule == "none"
    assert plain.tables[0].rules.rules.majority_value[-1] == 11
    # The changed rules keep naming the file they were read from.
    assert rules.source == plain.tables[0].rules.rules.source
    assert set(changed.changed_files) == {"rules.toml"}
    assert changed.config["changed_rules"]["set"] == ["kinds.chocolate.majority_value=20",
                                                      "tie_rule=none"]
    assert "changed_rules" not in plain.config


def test_the_sample_size_decides_every_count_in_one_order():
    entry, bare = Table({"games": 300}, "x.toml", "tables[0]"), Table({}, "x.toml", "tables[1]")
    assert SampleSize(1000).of_entry(entry) == 300
    assert SampleSize(1000).of_entry(bare) == 1000
    assert SampleSize(1000, 50).of_entry(entry) == 50
    assert (SampleSize(1000).run, SampleSize(1000, 50).run) == (1000, 50)


@given(file=st.integers(1, 10**6), override=st.integers(1, 10**6),
       pilot=st.integers(10, 10**6))
def test_a_pilot_shrinks_with_the_run_and_never_outgrows_it(file, override, pilot):
    assert SampleSize(file).pilot(pilot) == pilot
    shrunk = SampleSize(file, override).pilot(pilot)
    assert 1 <= shrunk <= min(override, pilot)
    if override >= file:
        # A larger run keeps the file's pilot (within the run).
        assert shrunk == min(override, pilot)


def test_nested_luck_without_duplicate_deals_is_refused(tmp_path):
    # Per-player shares of a nested table read a deal's games as seat rotations, which
    # only duplicate deals play (a sharp player always in seat 1 read as 49.6 %, not 80 %).
    path = tmp_path / "nested.toml"
    path.write_text('[experiment]\nname = "nested"\ngame = "topp-die-torte"\nseed = 1\n'
                    'games = 32\n[skill]\nenabled = false\n[strategies.greedy]\n'
                    'builtin = "greedy"\n[[tables]]\nplayers = 3\nseats = "greedy"\n'
                    'luck = "nested"\n')
    with pytest.raises(InputError) as error:
        load_experiment(str(path))
    assert error.value.key == "tables[0].luck"
    assert str(path) in str(error.value) and "duplicate = true" in error.value.message
