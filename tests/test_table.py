"""The table's shape across rounds and games (issue 13): who deals and leads the next round, teams
winning and scoring together, observations, returns and summaries; what one scenario (one round)
cannot show."""
from __future__ import annotations

import json
import random

import pytest

from unorules.engine.compiler import compile_rulebook
from unorules.engine import Game, RuleRuntimeError
from unorules.language.loader import load
from unorules.runs.simulation import RunSpec, make_game, play_one

from helpers import run_cli


def game(name, include=(), players=4, **kw):
    return Game(compile_rulebook(load(name, include=include)), players, **kw)


def rounds_of(log):
    """Per round: (its round_start event, the seat of its first turn, its round_end event)."""
    out = {}
    for ev in log:
        r = out.setdefault(ev["round"], {})
        if ev["type"] == "round_start":
            r["start"] = ev
        elif ev["type"] == "turn" and "first" not in r:
            r["first"] = ev["player"]
        elif ev["type"] == "turn_up":
            r.setdefault("up", ev["card"])
        elif ev["type"] == "round_end":
            r["end"] = ev

    return out


def test_lazy_scoring_the_next_round_is_dealt_by_the_most_points_and_led_by_the_winner():
    spec = RunSpec("classic", include=("lazy_scoring", "fixed_rounds"), players=4, agents=("greedy", "random"),
                   rounds="match")
    g = make_game(spec, log_events=True)
    checked = 0
    for seed in range(12):
        s = play_one(g, spec, seed)
        rounds = rounds_of(s.log)
        for n in range(2, len(rounds) + 1):
            before, this = rounds[n - 1], rounds[n]
            winner = before["end"]["winner"]
            assert this["start"]["leader"] == winner
            if this["up"].split()[-1].isdigit():         # a number turned up: nothing moves the first turn
                assert this["first"] == winner
                checked += 1
            assert this["start"]["dealer"] != winner          # the most points left: never the winner's empty hand
    assert checked > 10


def test_without_a_rule_the_deal_passes_left_and_no_leader_is_named():
    spec = RunSpec("classic", players=4, agents=("greedy",), rounds="match")
    s = play_one(make_game(spec, log_events=True), spec, 3)
    rounds = rounds_of(s.log)
    dealers = [rounds[n]["start"]["dealer"] for n in sorted(rounds)]
    assert dealers == [(3 + k) % 4 for k in range(len(dealers))]
    assert all("leader" not in r["start"] for r in rounds.values())


def test_partners_win_the_match_together_on_their_summed_score():
    spec = RunSpec("classic", include=("partners",), players=4, agents=("greedy",), rounds="match")
    g = make_game(spec)
    for i in range(8):
        s = play_one(g, spec, i)
        assert s.outcome == "win"
        team = s.team_members(s.winner)
        assert s.winners == team and team in ([0, 2], [1, 3])
        assert sum(s.scores[q] for q in team) >= 500
        r = s.returns()
        assert [r[q] for q in team] == [1.0, 1.0] and sum(r) == 0


def test_partners_sit_opposite_and_observations_say_so():
    s = game("classic", ("partners",)).new_state(1)
    assert s.team_of == [0, 1, 0, 1] and s.partner_of(0) == 2 and s.partner_of(3) == 1
    assert s.observe(s.decision.player).teams == (0, 1, 0, 1)
    assert game("classic").new_state(1).observe(0).teams == ()


def test_a_team_game_needs_a_multiple_of_the_team_size(tmp_path):
    path = tmp_path / "trios.uno"
    path.write_text("rulebook trios\nextends classic\nteams of 3 partners adjacent\n")
    rules = compile_rulebook(load(path))
    with pytest.raises(RuleRuntimeError, match="teams of 3: it needs a multiple of 3 players"):
        Game(rules, 4)
    s = Game(rules, 6).new_state(2)
    assert s.team_of == [0, 0, 0, 1, 1, 1] and s.partner_of(2) == 0


def test_the_summary_reports_wins_by_team_and_each_partner_wins_with_the_team():
    code, out, _ = run_cli("simulate", "classic", "--include", "partners", "--games", "40", "--agents", "greedy",
                           "--rounds", "single", "--json")
    assert code == 0
    d = json.loads(out)
    teams = d["wins_by_team"]
    assert {t: v["seats"] for t, v in teams.items()} == {"0": [0, 2], "1": [1, 3]}
    assert sum(v["wins"] for v in teams.values()) == 40
    seat = d["wins_by_seat"]
    assert seat["0"]["wins"] == seat["2"]["wins"] == teams["0"]["wins"]
    code, text, _ = run_cli("simulate", "classic", "--include", "partners", "--games", "20", "--rounds", "single")
    assert "wins by team (95% CI):" in text and "team 0 (seats 0+2)" in text


def test_a_veto_holder_is_asked_only_when_the_player_about_to_play_talked_politics():
    g = game("nonpartisan", players=3, log_events=True)
    asked = politics = 0
    for seed in range(4):                   # seeds 0 and 2 talk politics; 1 and 3 do not
        s = g.new_state(seed)
        moves = random.Random(seed)
        while not s.terminal:
            d = s.decision
            if d.kind == "any_time":
                asked += 1
                assert s.memory["talked_politics"] and d.player != s.current
            s.apply_action(moves.choice(d.options) if d.probs is None else d.options[seed % 2])
        politics += sum(1 for ev in s.log if ev["type"] == "perform" and ev["success"])
    assert asked > 0 and politics > 0


def test_several_piles_keep_their_own_colors_through_a_game():
    g = game("triple_play", players=3)
    for seed in range(10):
        s = g.new_state(seed)
        while not s.terminal:
            assert s.invariant_violations() == []
            colors = s.pile_colors_now()
            for pile, c in zip(s.piles, colors):
                if pile and not s.rules.wild_kind[s.ckind[pile[-1]]]:
                    assert c == s.ccolor[pile[-1]]          # a colored top card sets its own pile's color
            d = s.decision
            s.apply_action(d.options[seed % len(d.options)] if d.probs is None else d.options[-1])


def test_the_launcher_is_the_only_way_to_draw_on_a_turn_in_attack():
    g = game("attack", players=2, log_events=True)
    for seed in range(10):
        s = g.new_state(seed)
        while not s.terminal and s.round == 1:
            d = s.decision
            a = next((a for a in d.options if a.kind == "draw"), d.options[0]) if d.probs is None else d.options[0]
            s.apply_action(a)
        presses = [ev for ev in s.log if ev["type"] == "chance" and ev["name"] == "launcher"]
        assert presses
        assert all(ev["why"] != "draw" or ev["count"] <= 3 for ev in s.log if ev["type"] == "draw")
