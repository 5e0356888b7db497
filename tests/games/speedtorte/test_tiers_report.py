"""The ``[tiers]`` section: the tiers side by side, the solver's bound, the skill trace,
the rank check."""


import pytest

from cakesim.app.api import run_experiment
from cakesim.app.cli import main
from cakesim.engine.errors import InputError
from cakesim.engine.tables import Table
from cakesim.games.speedtorte import solver, tiers_report
from cakesim.reports.summary_file import read_summary


@pytest.fixture
def tiny_tier_experiment(tmp_path):
    path = tmp_path / "tiers.toml"
    path.write_text("""
[experiment]
name = "tiny_tiers"
game = "speedtorte"
seed = 5
games = 120

[strategies.team]
chooser = "weighted"
[strategies.novice]
builtin = "novice"
[strategies.lookahead]
builtin = "lookahead"
[strategies.lookahead16]
chooser = "lookahead"
samples = 16
[[tables]]
level = "Meister"
players = [1, 3]
seats = "team"

[[tables]]
level = "Meister"
players = [1, 3]
seats = "novice"

[[tables]]
level = "Meister"
players = [1, 3]
seats = "lookahead"
games = 60

[[tables]]
level = "Meister"
players = [1, 3]
seats = "lookahead16"
games = 40

[tiers]
tiers = ["novice", "team", "lookahead", "lookahead16"]
trace = ["lookahead", "lookahead16"]
clairvoyant = true
bound_deals = 1
bound_players = [1]
""")
    return path


def test_the_tier_section_of_a_small_experiment(tmp_path, tiny_tier_experiment, monkeypatch):
    result = run_experiment(tiny_tier_experiment, n_jobs=1, progress=False,
                            cache=tmp_path / "cache", out=tmp_path / "report")
    text = result.report.read_text()
    assert "## Skill tiers: does the answer depend on the bakers?" in text
    assert "| Meister 1P signals |" in text and "lookahead minus team" in text
    assert "rank correlation" in text and (tmp_path / "report" / "tiers.png").exists()
    section = read_summary(tmp_path / "report")["sections"]
    tiers = section["tiers"]
    by_players = {s["players"]: s for s in tiers["settings"]}
    # The solver's bound on the first deals: the tiers never win a deal it cannot.
    bound = by_players[1]["bound"]
    assert bound["deals"] == 1 and by_players[3]["bound"] is None
    assert all(won <= bound["won"] + bound["unproven"] for won in bound["tiers_won"].values())
    # Paired on the deals both played: the lookahead's 60 against the team's first 60.
    lookahead = by_players[3]["tiers"]["lookahead"]
    assert lookahead["games"] == 60 and lookahead["minus_base"]["n"] == 60
    # The trace: lookahead16 minus lookahead on the 40 deals both played, and the
    # strongest tier's shortfall from the bound where there is one.
    assert tiers["trace"] == {"lookahead": 8, "lookahead16": 16}
    for players, setting in by_players.items():
        trace = setting["trace"]
        step = trace["steps"][0]
        assert (step["lower"], step["upper"], step["change"]["n"]) == ("lookahead",
                                                                       "lookahead16", 40)
        rates = setting["tiers"]
        assert rates["lookahead16"]["games"] == 40
        assert trace["strongest"] == "lookahead16"
        assert trace["moved"] == "unresolved"  # 40 deals cannot resolve ±1 pp
        # The same search told the deal, paired with it on the same 40 deals.
        told = trace["clairvoyant"]
        assert told["minus_strongest"]["n"] == 40 and told["win_rate"]["n"] == 40
        if players == 1:
            assert trace["short_of_bound"] == pytest.approx(
                bound["won"] / bound["deals"] - rates["lookahead16"]["win_rate"]["value"])
            assert told["short_of_bound"] == pytest.approx(
                bound["won"] / bound["deals"] - told["win_rate"]["value"])
            # Told the deal it cannot win a deal the solver proves lost.
            assert told["bound_deals_won"] <= bound["won"] + bound["unproven"]
        else:
            assert trace["short_of_bound"] is None and told["short_of_bound"] is None
    # A diagnostic, never a table of the experiment or a tier.
    assert "told the deal" not in " ".join(r.table.label for r in result.runs)
    assert set(bound["tiers_won"]) == {"novice", "team", "lookahead", "lookahead16"}
    assert "lookahead16 told the deal minus it" in text
    assert "### Skill trace" in text and "| Meister 3P signals | " in text
    assert "Skill trace (lookahead 8 worlds, lookahead16 16 worlds)" in text
    # The answer opens with the strongest tier's win rates; the team bakers' follow.
    def rate(s):
        return s["tiers"]["lookahead16"]["win_rate"]["value"]
    easiest = max(tiers["settings"], key=rate)
    hardest = min(tiers["settings"], key=rate)
    answer = read_summary(tmp_path / "report")["answer"]
    assert answer["paragraph"].startswith(
        "With the strongest bakers played, lookahead16 (16 sampled worlds a decision), the "
        "win rate over the 2 settings it plays runs from "
        f"{100 * rate(easiest):.0f} % (Meister {easiest['players']}P signals) down to "
        f"{100 * rate(hardest):.0f} % (Meister {hardest['players']}P signals)")
    extra = bound["won"] - bound["tiers_won"]["lookahead16"]
    assert (f"won up to {extra} of the same first 1 deals more than it" in answer["paragraph"]
            ) == (extra > 0)
    told = by_players[1]["trace"]["clairvoyant"]["bound_deals_won"]
    assert (f"told the deal, the same search wins {told} of them" in answer["paragraph"]) == (
        extra > 0)
    assert " For comparison: With team bakers (signals), " in answer["paragraph"]
    assert answer["line"].startswith("Strongest bakers (lookahead16): ")
    # A second run reads the bound back instead of solving again, and says the same.
    monkeypatch.setattr(solver, "upper_bound", _no_solving)
    run_experiment(tiny_tier_experiment, n_jobs=1, progress=False, cache=tmp_path / "cache",
                   out=tmp_path / "again")
    assert read_summary(tmp_path / "again")["sections"]["tiers"] == tiers


def test_a_setting_missing_a_tier_of_the_trace_has_no_trace():
    # lookahead to lookahead32 would read as one doubling of the search: it is two.
    trace = ("lookahead", "lookahead16", "lookahead32")
    by_tier = {"team": object(), "lookahead": object(), "lookahead32": object()}
    assert tiers_report._trace({"bound": None}, by_tier, trace) is None


@pytest.mark.parametrize("trace", [["lookahead"], ["team", "expert"], ["lookahead", "team"]])
def test_a_trace_is_two_or_more_tiers_in_their_order(trace):
    table = Table({"tiers": ["novice", "team", "lookahead"], "trace": trace}, "exp.toml",
                  "tiers")
    with pytest.raises(InputError) as refused:
        tiers_report.parse(table)
    assert "exp.toml" in str(refused.value) and "tiers.trace" in str(refused.value)
    assert "two or more of novice, team, lookahead, in that order" in str(refused.value)


def test_the_diagnostic_needs_a_trace():
    table = Table({"tiers": ["team", "lookahead"], "clairvoyant": True}, "exp.toml", "tiers")
    with pytest.raises(InputError) as refused:
        tiers_report.parse(table)
    assert str(refused.value) == ("exp.toml: tiers.clairvoyant: true is not allowed without a "
                                  "trace; allowed: false")


def test_a_tier_told_the_deal_is_refused(tmp_path, tiny_tier_experiment):
    text = tiny_tier_experiment.read_text().replace("samples = 16\n",
                                                    "samples = 16\nclairvoyant = 1\n")
    tiny_tier_experiment.write_text(text)
    with pytest.raises(InputError) as refused:
        run_experiment(tiny_tier_experiment, n_jobs=1, progress=False, games=40,
                       cache=tmp_path / "cache", out=tmp_path / "report")
    assert "tiers.tiers: 'lookahead16' is told the deal (clairvoyant = 1): a diagnostic, not " \
           "a tier" in str(refused.value)
    # Refused when the file was read: not one game was played and filed.
    assert not (tmp_path / "cache").exists()


def _no_solving(*args, **kwargs):
    raise AssertionError("the bound was solved again instead of read from the cache")


def test_the_recommenders_take_a_tier(capsys):
    assert main(["speedtorte", "budget", "--level", "Lehrling", "--players", "2",
                 "--target", "0.5", "--games", "60", "--n-jobs", "1", "--tier",
                 "lookahead"]) == 0
    assert "lookahead bakers" in capsys.readouterr().out
    with pytest.raises(SystemExit) as refused:
        main(["speedtorte", "levels", "--tier", "expert"])
    assert refused.value.code == 2
    assert "--tier: invalid choice: 'expert'" in capsys.readouterr().err


def test_a_shortfall_shown_as_5_pp_counts_as_within_5_pp():
    setting = {"level": "Meister", "players": 3, "variant": "eilauftrag", "profile": "adult",
               "trace": {"strongest": "lookahead32", "moved": "unresolved",
                         "short_of_bound": 40 / 40 - 0.95}}
    text = tiers_report.trace_headline({"settings": [setting],
                                        "trace": {"lookahead": 8, "lookahead32": 32}})
    assert "within 5 pp of what the deals allow at 1 of 1 bounded settings" in text
    assert "by 5 pp." in text


def test_the_worst_shortfall_is_split_into_information_and_play():
    told = {"win_rate": {"value": 0.85},
            "minus_strongest": {"value": 0.21, "low": 0.18, "high": 0.24},
            "short_of_bound": 0.10}
    setting = {"level": "Hofzuckerbäcker", "players": 1, "variant": "signals", "profile": "",
               "trace": {"strongest": "lookahead32", "moved": "moving",
                         "short_of_bound": 0.31, "clairvoyant": told}}
    text = tiers_report.trace_headline({"settings": [setting],
                                        "trace": {"lookahead": 8, "lookahead32": 32}})
    assert text.endswith(
        "it falls furthest short at Hofzuckerbäcker 1P signals, by 31 pp. Told the deal "
        "(every hand, the supply's order and the cards to come: a diagnostic, not a fair "
        "baker), the same search wins +21.0 pp [+18.0, +24.0] more there (paired by deal) "
        "and falls 10 pp short: that gain is what knowing the deal is worth to it, the rest "
        "is the search's own.")
    # A search that plays worse told the deal (its play-outs model the game wrongly):
    # nothing to split.
    told["minus_strongest"] = {"value": -0.09, "low": -0.13, "high": -0.05}
    text = tiers_report.trace_headline({"settings": [setting],
                                        "trace": {"lookahead": 8, "lookahead32": 32}})
    assert text.endswith("the same search wins -9.0 pp [-13.0, -5.0] there (less, paired by "
                         "deal): what it leaves is its search's, not missing information.")
    told["minus_strongest"] = {"value": -0.01, "low": -0.03, "high": 0.01}
    assert "there (no clear change, paired by deal)" in tiers_report.trace_headline(
        {"settings": [setting], "trace": {"lookahead": 8, "lookahead32": 32}})
    setting["trace"]["clairvoyant"] = None
    assert "Told the deal" not in tiers_report.trace_headline(
        {"settings": [setting], "trace": {"lookahead": 8, "lookahead32": 32}})
