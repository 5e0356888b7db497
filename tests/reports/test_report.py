"""Reports: the headline answer, the sample-size section and the index of all reports."""


from cakesim.app.api import run_experiment
from cakesim.app.cli import main
from cakesim.reports.report import write_index
from cakesim.reports.summary_file import read_summary


def test_the_index_lists_every_report_with_its_headline(tmp_path, tiny_experiment):
    path = tiny_experiment(games=600, extra="\n[plan]\npilot_games = 300\n")
    result = run_experiment(path, n_jobs=1, progress=False, cache=False,
                            out=tmp_path / "reports" / "tiny")
    summary = read_summary(tmp_path / "reports" / "tiny")
    gap = summary["tables"][0]["seats"][0]["verdict"]["gap"]["value"]
    assert summary["headline"].startswith("First waiter against fair, greedy-balanced: 3P "
                                          f"{100 * gap:+.1f} pp")
    assert "Worst seat: " in summary["headline"]
    assert summary["answer"]["line"] == summary["headline"]
    assert (tmp_path / "reports" / "tiny" / "report.html").exists()
    assert summary["sample_size"]["pilot_games"] == 300
    assert len(summary["sample_size"]["seats"]) == 3 + 3 + 4 + 4
    assert "## Sample size and duplicate deals" in result.report.read_text()
    page = tmp_path / "reports" / "tiny" / "report.html"
    page.unlink()  # as in a fresh clone: pages are built, not committed
    index = write_index(tmp_path / "reports").read_text()
    assert f"| [Tiny](tiny/report.md) | {summary['headline']} | 11, 600 |" in index
    assert (tmp_path / "reports" / "index.html").exists() and page.exists()


def test_plan_and_sprt_on_the_command_line(tiny_experiment, capsys):
    path = str(tiny_experiment())
    assert main(["plan", path, "--half-width", "0.02", "--pilot", "300", "--n-jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "a 95 % interval of ±2 pp" in out and "4P compensation greedy-balanced" in out
    assert main(["sprt", path, "--table", "4P base greedy-balanced", "--delta", "0.05"]) == 0
    assert "seat 1: deficit of at least 5.0 pp" in capsys.readouterr().out
    assert main(["sprt", path, "--table", "2P", "--delta", "0.05"]) == 2
    assert "no table '2P'" in capsys.readouterr().err


def test_plan_refuses_a_team_game_in_one_line(capsys):
    assert main(["plan", "order_card_difficulty", "--half-width", "0.05", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "cakesim plan: experiment:" in err and "no seat's win share" in err
    assert "Traceback" not in err


NEVER_WINS = """
[experiment]
name = "never_wins"
question = "Does random play ever win against the tuned bot?"
game = "piece-o-cake"
seed = 3
games = 60

[skill]
enabled = false

[strategies.tuned]
builtin = "tuned"

[strategies.random]
chooser = "random"
cutter = "random"

[[tables]]
players = 2
seats = ["random", "tuned"]
"""


def test_a_seat_that_never_wins_is_reported_and_plotted(tmp_path):
    # Wilson's lower end at a share of 0 is a rounding error above 0: the plot's error bar
    # must not come out negative (matplotlib refuses it).
    path = tmp_path / "never_wins.toml"
    path.write_text(NEVER_WINS)
    out = tmp_path / "out"
    assert main(["run", str(path), "--out", str(out), "--quiet", "--n-jobs", "1"]) == 0
    seat = read_summary(out)["tables"][0]["seats"][0]["win_share"]
    assert seat["value"] == 0.0
    assert (out / "seat_win_share.png").is_file()
