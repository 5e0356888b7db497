"""``--set`` and ``--rules`` reach every Speedtorte rule file: rules, levels, cards, timing."""

import shutil

import pytest

from cakesim.app.cli import main
from cakesim.app.experiment import RuleChanges, changed_rules
from cakesim.engine.arguments import setting
from cakesim.engine.errors import InputError
from cakesim.engine.fingerprint import digest
from cakesim.games import game_named
from cakesim.games.speedtorte.cards import DEFAULT_CATALOGUE
from cakesim.games.speedtorte.timing import DEFAULT_TIMING

GAME = game_named("speedtorte")


def _changed(*flags: str, files: tuple = ()):
    return changed_rules(GAME, {}, RuleChanges(None, tuple(map(setting, flags)), files))


def test_a_set_changes_the_timing_and_the_cards_and_keeps_their_published_names():
    rules, texts = _changed("profiles.adult.notice=2.0", "budgets.Meister=240",
                            "cards.F01.tier=2", "levels.Meister.cards=9")
    plain = GAME.load_rules()
    assert rules.timing.profile("adult").notice == 2.0
    assert plain.timing.profile("adult").notice == 1.5
    assert rules.timing.seed_budget("Meister", 3) == 240
    assert rules.catalogue.cards[0].tier == 2 and plain.catalogue.cards[0].tier == 1
    assert rules.level("Meister").cards == 9
    assert set(texts) == {"timing.toml", "cards.toml", "levels.toml"}
    assert rules.timing.source == plain.timing.source
    assert rules.catalogue.source == plain.catalogue.source


def test_a_set_that_changes_nothing_plays_the_same_rules():
    rules, _ = _changed("profiles.adult.notice=1.5")
    assert digest(rules) == digest(GAME.load_rules())


def test_where_the_files_lie_changes_no_digest(tmp_path):
    cards, timing = tmp_path / "cards.toml", tmp_path / "timing.toml"
    shutil.copy(DEFAULT_CATALOGUE, cards)
    shutil.copy(DEFAULT_TIMING, timing)
    moved = GAME.load_rules(cards=cards, timing=timing)
    assert moved.catalogue.source == str(cards)
    assert digest(moved) == digest(GAME.load_rules())


def test_rules_name_another_rule_file(tmp_path):
    timing = tmp_path / "timing.toml"
    timing.write_text(DEFAULT_TIMING.read_text(encoding="utf-8").replace(
        "notice = 1.5", "notice = 3.0"), encoding="utf-8")
    rules, _ = _changed("budgets.Meister=200", files=(("timing", str(timing)),))
    assert rules.timing.profile("adult").notice == 3.0
    assert rules.timing.seed_budget("Meister", 3) == 200
    with pytest.raises(InputError, match="tiles: not a rule file of speedtorte; allowed: "
                                         "rules, levels, cards, timing"):
        _changed(files=(("tiles", str(timing)),))


@pytest.mark.parametrize(("flags", "message"), [
    (["--set", "profiles.adult.notice=-1"],
     "--set profiles.adult.notice=-1: profiles.adult.notice: -1.0 is out of range; "
     "allowed: between 0.0 and 60.0"),
    (["--set", "default_profile=kid"], "allowed values: 'adult', 'novice'"),
    (["--set", "cards.F99.tier=2"], "cards: no entry 'F99'; allowed: F01"),
    (["--set", "cards.F01.tier=4"], "tier: 4 is out of range; allowed: 1 to 3"),
    (["--rules", "tiles=x.toml"], "--rules tiles=x.toml: tiles: not a rule file of speedtorte"),
])
def test_a_bad_change_names_the_flag_and_what_is_allowed(capsys, flags, message):
    argv = ["replay", "speedtorte", "--seed", "1", "--index", "0", "--players", "3",
            "--variant", "eilauftrag", *flags]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
