"""The HTML report of simulate and compare (issue 16): what it shows, that the JSON rebuilds it,
that a real browser renders it, and compare's Holm correction."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from unorules.cli import cli
from unorules.runs.comparison import compare_summaries, holm

pytest.importorskip("matplotlib")

ARTIFACTS = Path(os.environ.get("UNORULES_ARTIFACTS", Path(__file__).parent / "artifacts"))


def run(*args):
    r = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return r.exit_code, r.output


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """The three reports the issue names, each with its JSON, made once for the module."""
    d = tmp_path_factory.mktemp("reports")
    made = {}
    for name, args in {
        "simulate": ["simulate", "official", "--games", "60"],
        "compare": ["compare", "official", "--with", "everyone_draws", "--games", "60"],
        "match": ["simulate", "classic", "--games", "12", "--rounds", "match", "--events", str(d / "ev.jsonl")],
    }.items():
        html, js = d / f"{name}.html", d / f"{name}.json"
        code, out = run(*args, "--report", str(html), "--json")
        assert code == 0, out
        js.write_text(out[out.index("{"):])
        made[name] = (html, js)
    return made


def sections(page: str) -> list[str]:
    return re.findall(r"<h2>([^<]+)</h2>", page)


def test_a_simulation_report_has_its_header_every_plot_and_a_table_beside_each(reports):
    page = reports["simulate"][0].read_text()
    assert sections(page) == ["The run", "Round length", "Wins by seat", "Wins by agent", "Cards drawn",
                              "Match length", "Final score spread", "Outcomes"]      # official plays to 500
    for word in ("rulebooks/classic.uno, rulebooks/official.uno", "greedy", "unorules", "time taken", "seed"):
        assert word in page
    figures = re.findall(r"<figure>(.*?)</figure><div class=numbers>(.*?)</div>", page, re.S)
    assert len(figures) == 6 and all(f.startswith("<svg") and "<table>" in t for f, t in figures)
    # self-contained: no script, no stylesheet or image fetched, no web font
    assert not re.search(r"<script|<link|<img|src=|@import|url\((?!#)|href=\"http", page)


def test_a_comparison_report_shows_both_variants_the_differences_and_the_holm_verdict(reports):
    page = reports["compare"][0].read_text()
    assert sections(page)[:3] == ["The run", "What changes", "Round length"]
    assert "The tracked card" in sections(page)
    assert "official + everyone_draws" in page and "wild_customizable" in page and "everyone_draws.uno" in page
    assert "Verdict:" in page and "Holm" in page
    verdict = json.loads(reports["compare"][1].read_text())["comparison"]["verdict"]
    assert verdict.replace("'", "&#x27;") in page


def test_a_match_report_shows_rounds_per_game_score_spread_and_the_events_file(reports):
    page = reports["match"][0].read_text()
    assert {"Match length", "Final score spread"} <= set(sections(page))
    single = reports["compare"][0].read_text()             # compare plays single rounds: no match plots
    assert "Match length" not in sections(single)
    assert "ev.jsonl" in page
    d = json.loads(reports["match"][1].read_text())
    assert sum(c for _, c in d["histograms"]["rounds_per_game"]) == 12
    assert max(v for v, _ in d["histograms"]["rounds_per_game"]) > 1


@pytest.mark.parametrize("name", ["simulate", "compare", "match"])
def test_the_json_rebuilds_the_same_report(reports, name, tmp_path):
    html, js = reports[name]
    again = tmp_path / "again.html"
    code, out = run("report", str(js), "-o", str(again))
    assert code == 0, out
    assert again.read_bytes() == html.read_bytes()


def test_the_summary_json_carries_every_histogram_and_the_tracked_card_against_the_others(reports):
    d = json.loads(reports["compare"][1].read_text())
    r = d["results"][1]
    assert set(r["histograms"]) == {"turns_per_round", "cards_drawn_per_round", "rounds_per_game",
                                    "final_score_spread", "winning_score"}
    rounds = sum(c for _, c in r["histograms"]["turns_per_round"])
    assert rounds == sum(c for _, c in r["histograms"]["cards_drawn_per_round"]) == r["games"]
    t = r["tracked_card"]
    assert t["players"] + t["others"]["players"] == r["games"] * d["players"]
    assert t["wins"] + t["others"]["wins"] == sum(w["wins"] for w in r["wins_by_seat"].values())


def test_report_without_matplotlib_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    r = CliRunner().invoke(cli, ["simulate", "classic", "--games", "2", "--report", str(tmp_path / "r.html")])
    assert r.exit_code == 2
    assert "pip install 'unorules[report]'" in r.output and "Traceback" not in r.output
    assert not (tmp_path / "r.html").exists()


def test_report_refuses_a_file_that_is_not_a_result(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text('{"hello": 1}')
    code, out = run("report", str(bad), "-o", str(tmp_path / "o.html"))
    assert code == 2 and "not the JSON of" in out
    bad.write_text("{")
    code, out = run("report", str(bad), "-o", str(tmp_path / "o.html"))
    assert code == 2 and "cannot read" in out


# ---- Holm ---------------------------------------------------------------------------------------

def test_holm_multiplies_the_kth_smallest_by_m_minus_k_plus_one_and_keeps_the_order():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.001]) == pytest.approx([0.5, 0.002])
    assert holm([0.9, 0.3]) == pytest.approx([0.9, 0.6])
    assert holm([0.8, 0.6]) == pytest.approx([1.0, 1.0])          # capped at 1, never decreasing


def _summary(seat_wins, games, mean=40.0, sd=10.0, rounds=None):
    rounds = rounds or games
    return {"games": games, "turns_per_round": {"mean": mean}, "turns_per_round_sd": sd,
            "histograms": {"turns_per_round": [[int(mean), rounds]]},
            "wins_by_seat": {str(i): {"wins": w} for i, w in enumerate(seat_wins)}}


def test_a_difference_significant_alone_is_not_after_holm_and_the_verdict_says_so():
    # seat 0: 500 vs 560 wins of 2000: p about 0.03 alone; with 5 figures tested, Holm p > 0.05
    a, b = _summary([500, 500, 500, 500], 2000), _summary([560, 480, 480, 480], 2000)
    c = compare_summaries(["a", "b"], a, b, 4)
    seat0 = c["figures"][1]
    assert seat0["p"] < 0.05 and seat0["p_holm"] >= 0.05 and not seat0["significant"]
    assert c["verdict"].startswith("no significant difference") and "Holm" in c["verdict"]
    far = _summary([700, 433, 433, 434], 2000)
    c = compare_summaries(["a", "b"], a, far, 4)
    assert c["figures"][1]["significant"] and "seat 0 wins more often with b" in c["verdict"]


# ---- a real browser -----------------------------------------------------------------------------

def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("UNORULES_REQUIRE_BROWSER"):
        pytest.fail("UNORULES_REQUIRE_BROWSER is set and no chromium is installed")
    pytest.skip("no chromium here (Debian's `chromium` package; .ci/run installs it)")


def headless(browser, profile, *args):
    return subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                           "--no-first-run", "--disable-background-networking", "--disable-component-update",
                           "--disable-sync", f"--user-data-dir={profile}", "--hide-scrollbars", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", ["simulate", "compare", "match"])
def test_a_real_browser_renders_the_report_and_keeps_a_screenshot(reports, name, tmp_path):
    from matplotlib.image import imread
    browser = chromium()
    html = reports[name][0]
    url = html.resolve().as_uri()
    dom = headless(browser, tmp_path / "p1", "--dump-dom", url)
    assert dom.returncode == 0, dom.stderr[-2000:]
    # the browser parsed the whole page: every section and every plot is in its DOM
    page = html.read_text()
    assert re.findall(r"<h2>([^<]+)</h2>", dom.stdout) == sections(page)
    assert dom.stdout.count("<svg") == page.count("<svg") >= 4
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / f"report_{name}.png"
    r = headless(browser, tmp_path / "p2", "--window-size=1280,2400", f"--screenshot={shot}", url)
    assert r.returncode == 0 and shot.stat().st_size > 20_000, r.stderr[-2000:]
    assert "ERR_" not in r.stderr                          # nothing the page asked for failed to load
    pixels = imread(shot)[:, :, :3]
    blue = ((abs(pixels[:, :, 0] - 0x3b / 255) < 0.03) & (abs(pixels[:, :, 1] - 0x6f / 255) < 0.03)
            & (abs(pixels[:, :, 2] - 0xb6 / 255) < 0.03)).sum()
    assert blue > 2000                                     # the plots were drawn: the first variant's colour shows
