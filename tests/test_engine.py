"""The interpreter: invariants after every action over many seeded games of every shipped rulebook,
replay, clone, determinism, limits and runtime errors."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import unorules
from unorules.agents.base import GreedyAgent, RandomAgent, RandomPlayAgent, make_agents
from unorules.engine import CHANCE, TERMINAL, IllegalAction
from unorules.language.loader import load, shipped_names
from unorules.runs.simulation import RunSpec, game_seed, make_game, play_one, simulate

from helpers import DATA, run_cli, write

RULEBOOKS = sorted(n for n, p in shipped_names().items() if "modules" not in p.parts and "custom" not in p.parts)


def check_invariants(s):
    assert s.invariant_violations() == []


def play(game, seed, agent_kinds=("random", "greedy"), check=True):
    s = game.new_state(seed)
    agents = [(RandomAgent if agent_kinds[i % len(agent_kinds)] == "random" else GreedyAgent)(seed + i)
              for i in range(game.players)]
    chooser = random.Random(seed)
    while not s.terminal:
        if check:
            check_invariants(s)
        d = s.decision
        if d.probs is not None:
            a = chooser.choices(d.options, d.probs)[0]
        else:
            ag = agents[s.seats[d.player]]
            a = ag.choose(s.observe(d.player), d.options)
        s.apply_action(a)
    check_invariants(s)
    return s


def test_invariant_checks_catch_a_broken_state():
    s = unorules.Game("classic", 2, rounds="single").new_state(1)
    assert s.invariant_violations() == []
    s.hands[0].append(s.hands[1][0])
    assert "cards are not conserved" in s.invariant_violations()[0]


@pytest.mark.parametrize("name", RULEBOOKS)
@pytest.mark.parametrize("players", [2, 4])
def test_invariants_hold_after_every_action(name, players):
    game = unorules.Game(name, players, rounds="single", log_events=False)
    outcomes = set()
    for seed in range(40):
        s = play(game, seed)
        outcomes.add(s.outcome)
        assert s.outcome in ("win", "stalled"), s.error
    assert "win" in outcomes


@pytest.mark.parametrize("name", RULEBOOKS + [str(DATA / "everything.uno")])
def test_the_log_replays_to_the_same_state(name):
    game = unorules.Game(name, 3, rounds="single", log_events=True)
    for seed in range(5):
        s = play(game, seed, check=False)
        again = game.state_from_history(seed, s.history())      # by action ids, chance outcomes included
        assert again.log == s.log
        assert again.hands == s.hands and again.scores == s.scores and again.terminal


def test_match_rounds_and_scores_to_the_target():
    game = unorules.Game("classic", 3, rounds="match")
    s = play(game, 3, ("greedy",))
    assert s.outcome == "win" and s.round > 1
    assert max(s.scores) >= 500 and s.scores[s.winner] == max(s.scores)


def test_each_scores_own_hand_makes_the_lowest_total_win(tmp_path):
    p = write(tmp_path, "own.uno", "rulebook own\nextends classic\nscoring { each scores own hand target 100 }\n")
    game = unorules.Game(str(p), 3, rounds="match")
    s = play(game, 1, ("greedy",))
    assert s.outcome == "win" and max(s.scores) >= 100
    assert s.scores[s.winner] == min(s.scores)


def test_clone_is_independent():
    game = unorules.Game("official", 4, rounds="single", log_events=True)
    s = game.new_state(11)
    for _ in range(10):
        s.apply_action(s.legal_actions()[0])
    c = s.clone()
    before = (json.dumps(s.log), [list(h) for h in s.hands])
    while not c.terminal:
        c.apply_action(c.legal_actions()[-1])
    assert (json.dumps(s.log), [list(h) for h in s.hands]) == before
    assert c.terminal and not s.terminal


def test_a_clone_copies_the_flat_lists_and_keeps_what_refers_to_them():
    """clone copies lists of numbers flat: the copy's discard pile must still be one of its piles,
    its generator must go on as the original's, and nothing the copy does may reach the original."""
    game = unorules.Game("official", 4, rounds="single")
    s = game.new_state(4)
    for _ in range(12):
        s.apply_action(s.legal_actions()[0])
    kept = (list(s.draw_pile), [list(p) for p in s.piles], [list(h) for h in s.hands], s.history(),
            list(s.recent_plays), s.rng.getstate())
    c = s.clone()
    assert c.discard is c.piles[c.pile] and c.discard is not s.discard
    assert c.rng is not s.rng and c.rng.getstate() == s.rng.getstate()
    twin = s.clone()
    while not c.terminal:
        c.apply_action(c.legal_actions()[-1])
        twin.apply_action(twin.legal_actions()[-1])
    assert (list(s.draw_pile), [list(p) for p in s.piles], [list(h) for h in s.hands], s.history(),
            list(s.recent_plays), s.rng.getstate()) == kept
    assert twin.history() == c.history() and twin.winners == c.winners and twin.piles == c.piles


def test_openspiel_surface():
    game = unorules.Game("classic", 2, rounds="single")
    s = game.new_state(5)
    assert s.current_player() in (0, 1)
    acts = s.legal_actions()
    assert acts == sorted(acts, key=lambda a: (a.kind != "play", acts.index(a)))   # plays first, draw last
    assert all(s.action_name(a) for a in acts)
    with pytest.raises(IllegalAction):
        s.apply_action(unorules.Action("color", 0))
    rng = random.Random(0)
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            s.apply_action(s.chance_outcomes()[0][0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    assert s.current_player() == TERMINAL and s.legal_actions() == []
    r = s.returns()
    if s.outcome == "win":
        assert r[s.winner] == 1.0 and sum(r) == pytest.approx(0.0)
    else:
        assert r == [0.0, 0.0]


def test_an_observation_shows_only_the_players_own_cards():
    game = unorules.Game("classic", 3, rounds="single")
    s = game.new_state(2)
    p = s.decision.player
    obs = s.observe(p)
    assert sorted(cv.card for cv in obs.hand) == sorted(s.hands[p])
    assert obs.hand_sizes == [len(h) for h in s.hands]
    assert not any(hasattr(obs, f) for f in ("hands", "draw_pile"))


def test_turn_cap_ends_a_stalled_round_and_is_counted(tmp_path):
    p = write(tmp_path, "slow.uno", "rulebook slow\nextends classic\nturn { cap 5 turns }\n")
    d = unorules.simulate(str(p), games=20, players=4, rounds="single")
    assert d["outcomes"].get("stalled", 0) > 0 and d["stalls"] == d["outcomes"]["stalled"]
    assert d["turns_per_round"]["p95"] <= 5


def test_simulate_says_what_stalls_mean_when_many_games_stall(tmp_path):
    """A run where most games stall gets a line of words (its wins count only the games that
    ended); a run with no stall, or a few below STALLS_SAID percent, does not."""
    from unorules.runs.summary_text import STALLS_SAID, summary_text
    slow = write(tmp_path, "slow.uno", "rulebook slow\nextends classic\nturn { cap 5 turns }\n")
    code, out, err = run_cli("simulate", str(slow), "-n", "20", "--rounds", "single")
    assert code == 0, err
    stalls = int(out.split("stalls: ")[1].split()[0])
    assert stalls * 100 >= STALLS_SAID * 20
    assert f"note: {stalls} of 20 games ({stalls / 20:.0%}) stalled: a round reached its turn cap" in out
    code, out, err = run_cli("simulate", "classic", "-n", "20", "--rounds", "single")
    assert code == 0 and "stalls: 0" in out and "stalled:" not in out
    d = unorules.simulate("classic", games=20, players=4, rounds="single")
    few = dict(d, stalls=1, games=100)                       # 1%: the count alone
    assert "stalled:" not in summary_text(few, "x") and "stalls: 1" in summary_text(few, "x")
    assert "note: 10 of 100 games (10%) stalled" in summary_text(dict(few, stalls=10), "x")


def test_a_runtime_rule_error_stops_the_game_naming_the_rule(tmp_path):
    p = write(tmp_path, "bad.uno", "rulebook bad\nextends classic\ncard wild {\n  on play:\n"
                                   "    chance coin { heads weight 0 {} tails weight 0 {} }\n}\n")
    game = unorules.Game(str(p), 2, rounds="single")
    errors = [s.error for s in (play(game, seed, ("greedy",), check=False) for seed in range(30)) if s.error]
    assert errors
    assert f"{p}:5:5: chance `coin` has no outcome with a positive weight" in str(errors[0])


def test_triggers_that_chain_forever_hit_the_depth_cap(tmp_path):
    p = write(tmp_path, "loop.uno", "rulebook loop\nextends classic\non draw if me.hand.size < 500: draw 1\n")
    game = unorules.Game(str(p), 2, rounds="single")
    s = play(game, 0, ("random",), check=False)
    assert s.outcome in ("error", "win", "stalled")
    if s.outcome == "error":
        assert "triggered each other more than" in str(s.error) or "loop.uno" in str(s.error)


def test_wrong_player_count_is_a_clear_error():
    with pytest.raises(unorules.RuleRuntimeError, match="for 2 to 10 players"):
        unorules.Game("classic", 11)


# ---- simulate ------------------------------------------------------------------------------------

def test_simulate_same_seed_gives_identical_json():
    args = ("simulate", "official", "--games", "60", "--players", "4", "--seed", "9", "--agents", "greedy,random",
            "--rounds", "single", "--json")
    a = run_cli(*args)
    b = run_cli(*args)
    assert a[0] == 0
    da, db = json.loads(a[1]), json.loads(b[1])
    assert da.pop("seconds") >= 0 and db.pop("seconds") >= 0      # the time taken, for the report
    assert da == db
    d = da
    assert d["games"] == 60 and sum(w["wins"] for w in d["wins_by_seat"].values()) + d["stalls"] == 60
    assert set(d["wins_by_agent"]) == {"greedy", "random"}
    for key in ("turns_per_round", "cards_drawn_per_game", "challenges", "uno_penalties", "reshuffles", "stalls"):
        assert key in d


def test_simulate_text_summary():
    code, out, err = run_cli("simulate", "classic", "--games", "30", "--agents", "greedy", "--rounds", "single")
    assert code == 0
    assert "wins by seat (95% CI):" in out and "turns per round: mean" in out and "challenges:" in out


@pytest.mark.parametrize("agents", [("greedy", "random"), ("random",), ("random_play",)])
def test_workers_give_the_same_totals_as_one_process(agents):
    spec = RunSpec("classic", players=3, seed=4, agents=agents, rounds="single")
    one = simulate(spec, 40, workers=1).as_dict(3)
    two = simulate(spec, 40, workers=2).as_dict(3)
    assert one == two
    assert one["games"] == 40


def test_workers_default_to_the_cores_and_keep_the_totals(monkeypatch):
    import os
    from unorules.runs import simulation
    assert simulation.default_workers() == len(os.sched_getaffinity(0))
    used = []
    real = simulation.run_range
    monkeypatch.setattr(simulation, "default_workers", lambda: 3)
    monkeypatch.setattr(simulation, "run_range", lambda *a, **k: used.append(a[1:3]) or real(*a, **k))
    spec = RunSpec("classic", players=3, seed=5, agents=("greedy",), rounds="single")
    by_default = simulate(spec, 60).as_dict(3)           # 3 worker processes: this process plays none
    assert used == []
    assert by_default == simulate(spec, 60, workers=1).as_dict(3) and used == [(0, 60)]
    games = sorted(g for a, b in simulation.chunks(1001, 3) for g in range(a, b))
    assert games == list(range(1001))                     # every game once, whatever the chunking


@pytest.mark.parametrize("name", ["rlcard", "official", "flip"])
def test_play_one_plays_the_games_its_agents_choose(name):
    """play_one is the agents' loop: the same seeds give the same games as driving them by hand."""
    spec = RunSpec(name, players=3, seed=2, agents=("random",), rounds="single")
    game = make_game(spec)
    for i in range(15):
        fast = play_one(game, spec, i)
        seed = game_seed(spec.seed, i)
        agents = make_agents(["random"] * 3, seed)
        s = game.new_state(seed)
        while not s.terminal:
            d = s.decision
            if d.probs is not None:
                s.apply_action(s.rng.choices(d.options, d.probs)[0])
            else:
                s.apply_action(agents[s.seats[d.player]].choose(None, d.options))
        assert (fast.winner, fast.counts, fast.scores, fast.turns) == (s.winner, s.counts, s.scores, s.turns)


def test_random_play_plays_whenever_it_can():
    game = unorules.Game("official", 4, rounds="single")
    agent = RandomPlayAgent(5)
    seen_draw = seen_play = 0
    for seed in range(30):
        s = game.new_state(seed)
        for _ in range(60):
            if s.terminal:
                break
            d = s.decision
            if d.probs is not None:
                s.apply_action(s.rng.choices(d.options, d.probs)[0])
                continue
            a = agent.choose(None, d.options)
            plays = [o for o in d.options if o.kind in ("play", "play_many")]
            if d.kind in ("turn", "drawn"):
                if plays:
                    assert a in plays
                    seen_play += 1
                else:
                    assert a.kind == "draw"
                    seen_draw += 1
            s.apply_action(a)
    assert seen_play > 100 and seen_draw > 10


def test_random_play_is_uniform_over_the_plays():
    game = unorules.Game("classic", 2, rounds="single")
    s = game.new_state(0)
    opts = s.decision.options
    assert opts[-1].kind == "draw" and len(opts) >= 2
    agent = RandomPlayAgent(1)
    picks = [agent.choose(None, opts) for _ in range(4000)]
    counts = [picks.count(o) for o in opts[:-1]]
    assert picks.count(opts[-1]) == 0
    assert min(counts) > 0.8 * 4000 / len(counts) and max(counts) < 1.2 * 4000 / len(counts)


def test_shuffle_is_a_uniform_permutation():
    s = unorules.Game("classic", 2, rounds="single").new_state(0, deal=False)
    seen = {}
    for _ in range(6000):
        cards = [0, 1, 2]
        s.shuffle(cards)
        seen[tuple(cards)] = seen.get(tuple(cards), 0) + 1
    assert len(seen) == 6 and all(800 < v < 1200 for v in seen.values())


def test_the_deal_goes_round_the_table_one_card_at_a_time():
    game = unorules.Game("classic", 3, rounds="single")
    s = game.new_state(0, deal=False)
    s.setup_cards(None)
    s.draw_pile = list(range(s.ncards))
    s.dealer = 2
    from unorules.engine import deal
    s.agenda.clear()
    deal(s)
    top = list(range(s.ncards))[::-1]           # the pile's end is its top
    assert s.hands[0] == top[0:21:3] and s.hands[1] == top[1:21:3] and s.hands[2] == top[2:21:3]
    assert len(s.draw_pile) == s.ncards - 21


def test_event_logs_are_byte_identical_for_the_same_seed(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for f in (a, b):
        code, out, err = run_cli("simulate", "official", "--games", "5", "--seed", "3", "--rounds", "single",
                                 "--events", f)
        assert code == 0
    assert a.read_bytes() == b.read_bytes()
    head, *events = [json.loads(l) for l in a.read_text().splitlines()]
    assert head["unorules_events"] == 2 and head["resolved"]["name"] == "official" and head["seed"] == 3
    assert {e["game"] for e in events} == set(range(5))
    assert {"play", "draw", "turn_up", "round_end", "game_end"} <= {e["type"] for e in events}


def test_game_seeds_do_not_depend_on_the_worker():
    assert game_seed(1, 5) == game_seed(1, 5) != game_seed(1, 6) != game_seed(2, 5)


def test_simulate_api_matches_the_cli():
    d = unorules.simulate("classic", games=10, players=2, seed=1, agents=("greedy",), rounds="single")
    code, out, err = run_cli("simulate", "classic", "-n", "10", "-p", "2", "-s", "1", "--agents", "greedy",
                             "--rounds", "single", "--json")
    cli = json.loads(out)
    for k in ("games", "wins_by_seat", "turns_per_round", "outcomes"):
        assert d[k] == cli[k]


def test_unknown_agent_and_bad_option_are_usage_errors():
    assert run_cli("simulate", "classic", "--agents", "genius")[0] == 2
    assert run_cli("simulate", "classic", "--option", "nope=1")[0] == 2


def test_setting_a_color_of_the_other_side_is_a_named_runtime_error(tmp_path):
    p = write(tmp_path, "sides.uno", "rulebook sides\nside light colors red blue\nside dark colors pink teal\n"
                                     "card 1..9 { number }\ncard w { wild on play: set color teal }\n"
                                     "deck side light { per color: 4 × 1..9\n 4 × w }\n"
                                     "deck side dark { per color: 4 × 1..9\n 4 × w }\n")
    game = unorules.Game(str(p), 2, rounds="single")
    errors = [s.error for s in (play(game, seed, ("greedy",), check=False) for seed in range(20)) if s.error]
    assert errors and "`teal` is not a color of the side in play (`light`)" in str(errors[0])
    assert f"{p}:5:24" in str(errors[0])


def test_scripted_agent_plays_its_script_then_falls_back():
    from unorules.agents.base import ScriptedAgent
    game = unorules.Game("classic", 2, rounds="single")
    s = game.new_state(3)
    first = s.action_name(s.legal_actions()[-1])          # "draw"
    agent = ScriptedAgent([first], s.action_name)
    a = agent.choose(s.observe(s.decision.player), s.legal_actions())
    assert s.action_name(a) == first and agent.script == []
    s.apply_action(a)
    if not s.terminal and s.decision.probs is None:
        assert agent.choose(s.observe(s.decision.player), s.legal_actions()) in s.legal_actions()
    with pytest.raises(ValueError, match="is not legal now"):
        ScriptedAgent(["color purple"], s.action_name).choose(None, s.legal_actions())


# ---- editions and modules ------------------------------------------------------------------------

def test_list_shows_rulebooks_and_modules_with_descriptions():
    code, out, err = run_cli("list")
    assert code == 0
    assert "Rulebooks:" in out and "Rule modules (--include NAME):" in out
    for name in ("classic", "official", "killer", "killer_red_zero", "fast", "flip", "bts", "mario", "mario_kart",
                 "stacking", "jump_in", "seven_o", "draw_to_match", "force_play", "multi_play"):
        assert f"  {name} " in out, name
    data = json.loads(run_cli("list", "--json")[1])
    assert {r["name"]: r["kind"] for r in data}["stacking"] == "module"


def test_modules_combine_and_conflicts_are_reported():
    ok = run_cli("validate", "classic", "--include", "stacking", "--include", "jump_in", "--include", "seven_o",
                 "--include", "draw_to_match", "--include", "force_play", "--include", "multi_play")
    assert ok[0] == 0, ok[2]
    code, out, err = run_cli("validate", "classic", "--include", "stacking", "--include", "defend_two")
    assert code == 1 and "error[U0702]" in err and "both answer `draw_two` with `draw_two`" in err


def test_modules_setting_the_same_rule_differently_conflict(tmp_path):
    write(tmp_path, "keep.uno", "module keep\nfor classic\nturn { drawn card is kept }\n")
    p = write(tmp_path, "house.uno", "rulebook house\nextends classic\ninclude force_play, keep\n")
    code, out, err = run_cli("validate", p)
    assert code == 1 and "`keep` and `force_play` both set `turn drawn card`, differently" in err


def test_a_module_validates_and_simulates_over_the_rulebook_it_is_for():
    assert run_cli("validate", "stacking")[0] == 0
    d = unorules.simulate("stacking", games=20, players=3, rounds="single")
    assert d["outcomes"] == {"win": 20}


def test_simulate_include_and_option():
    d = unorules.simulate("killer", games=20, players=4, rounds="single", options={"red_zero_draws_ten": True})
    assert d["games"] == 20 and not d["errors"]
    code, out, err = run_cli("simulate", "classic", "--include", "seven_o", "-n", "20", "--json", "--rounds", "single")
    assert code == 0 and json.loads(out)["games"] == 20
    code, out, err = run_cli("simulate", "bts", "-n", "20", "--perform-chance", "0", "--json", "--rounds", "single")
    assert code == 0


def test_flip_deck_pairs_112_double_faced_cards():
    from unorules.engine.compiler import compile_rulebook
    rules = compile_rulebook(load("flip"))
    assert [len(d) for d in rules.deck] == [112, 112]
    assert len(compile_rulebook(load("mario_kart")).deck[0]) == 112
    s = unorules.Game("flip", 2, rounds="single").new_state(0)
    assert len(s.card_faces) == 2 and s.invariant_violations() == []


def test_the_engine_knows_no_card_or_edition_names():
    import re
    from helpers import ROOT
    names = re.compile(r"draw_two|wild_draw_four|draw_five|draw_one|skip_everyone|wild_shuffle|wild_customizable|"
                       r"wild_star|item_box|wild_dance|killer|mario")
    paths = sorted((ROOT / "unorules").rglob("*.py"))
    assert len(paths) > 60 and ROOT / "unorules/engine/primitives.py" in paths
    for path in paths:
        for i, line in enumerate(path.read_text().splitlines(), 1):
            code_part = line.split("#", 1)[0]
            assert not names.search(code_part), f"{path.name}:{i}: {line.strip()}"


def test_greedy_names_the_color_it_holds_most_and_keeps_wilds_for_last(tmp_path):
    from unorules.agents.base import GreedyAgent
    from unorules.scenarios.runner import build, load_scenarios
    p = write(tmp_path, "s.yaml", "name: greedy\nrulebook: classic\nplayers: 2\ngiven:\n"
                                  "  hands: {0: [wild, blue 1, blue 2, green 7], 1: [green 3]}\n"
                                  "  discard: [red 5]\n  draw_pile: [yellow 1]\n  turn: 0\n")
    s, _ = build(load_scenarios(p)[0])
    a = GreedyAgent(0).choose(s.observe(0), s.decision.options)
    assert s.action_name(a) == "play wild (blue)"
    p2 = write(tmp_path, "t.yaml", "name: greedy\nrulebook: classic\nplayers: 2\ngiven:\n"
                                   "  hands: {0: [wild, red 1, blue 2], 1: [green 3]}\n"
                                   "  discard: [red 5]\n  draw_pile: [yellow 1]\n  turn: 0\n")
    s, _ = build(load_scenarios(p2)[0])
    assert s.action_name(GreedyAgent(0).choose(s.observe(0), s.decision.options)) == "play red 1"


def test_observed_points_follow_the_state_when_the_rule_reads_it(tmp_path):
    """Points that depend on the card alone are computed once per card; points that read the
    game (here the holder's hand size) are computed at every observation."""
    p = write(tmp_path, "heavy.uno", "rulebook heavy\nextends classic\ncard 0..9 { points card.rank + 1 }\n"
                                     "card skip { points me.hand.size }\n")
    game = unorules.Game(str(p), 2, rounds="single")
    s = game.new_state(3)
    skip = game.rules.kind_by_name["skip"]
    card = next(c for c in range(s.ncards) if s.ckind[c] == skip)
    for q in (0, 1):
        if card in s.hands[q]:
            s.hands[q].remove(card)
    s.hands[0].append(card)
    before = {v.card: v.points for v in s.observe(0).hand}
    assert before[card] == len(s.hands[0])
    s.hands[0].append(s.draw_pile.pop())
    after = {v.card: v.points for v in s.observe(0).hand}
    assert after[card] == len(s.hands[0]) == before[card] + 1
    numbers = [c for c in s.hands[0] if game.rules.kinds[s.ckind[c]].category == "number"]
    assert numbers and all(after[c] == game.rules.kinds[s.ckind[c]].rank + 1 for c in numbers)
    assert game.rules.kinds[skip].points_of_card is False
    assert game.rules.kinds[s.ckind[numbers[0]]].points_of_card is True


def test_jump_in_conditions_of_faces_alone_are_recognised():
    """A jump-in condition that reads only the faces of the card and the top card is judged once
    per face; one that reads the player is judged for each player."""
    assert unorules.Game("killer", 4).rules.jump_in_of_faces is True
    assert unorules.Game("classic", 4).rules.jump_in is None
    assert unorules.Game(str(DATA / "picky_jump.uno"), 4).rules.jump_in_of_faces is False


def test_each_player_of_a_round_won_by_a_player_out_is_each_player_still_in_once(tmp_path):
    """`on round_end: each player as g give 1 card to g.next at once` with places: the winner is
    out, and each player still in gives once (a card had been put in the batch twice: exit 3)."""
    import random
    import unorules
    p = tmp_path / "batch.uno"
    p.write_text("rulebook batch\nextends classic\non round_end: each player as g give 1 card to g.next at once\n"
                 "scoring {\n  winner scores others\n  places 2\n}\n")
    game = unorules.Game(str(p), 4, rounds="single", log_events=True)
    for seed in range(20):
        s = game.new_state(seed)
        rng = random.Random(seed)
        while not s.terminal:
            d = s.decision
            s.apply_action(rng.choices(d.options, d.probs)[0] if d.probs else rng.choice(d.options))
        assert s.outcome == "win", s.error
        givers = [e["player"] for e in s.log if e["type"] == "give"]
        assert len(givers) == len(set(givers)) == 2
    s = game.new_state(0)
    s.out = [True, False, False, True]
    assert s.others_in_order(0) == (1, 2) and s.others_in_order(3) == (0, 1, 2)[1:]


@pytest.mark.parametrize("mercy, mercy_hand", [(0, 0), (9, 0), (12, 0), (0, 10)])
def test_eliminated_players_hold_nothing_take_no_turn_and_are_back_in_the_next_round(mercy, mercy_hand):
    """tests/data/elimination.uno over whole matches: after every action no eliminated player holds
    a card or is asked anything (invariant_violations), every round that starts deals in everyone
    still in the game, and a round ended by elimination is a round of the count, with a winner."""
    game = unorules.Game(str(DATA / "elimination.uno"), 4, rounds="match", log_events=True,
                         options={"mercy": mercy, "mercy_hand": mercy_hand})
    ends = Counter()
    back = 0
    for seed in range(25):
        s = play(game, seed)
        assert s.outcome in ("win", "stalled"), s.error
        benched, out_for_good = set(), set()
        for ev in s.log:
            if ev["type"] == "eliminated":
                (benched if ev.get("from") == "round" else out_for_good).add(ev["player"])
            elif ev["type"] == "deal":
                dealt = {int(q) for q, cards in ev["hands"].items() if cards}
                assert not dealt & out_for_good
                back += len(benched & dealt)
                benched = set()
            elif ev["type"] == "round_end":
                ends[ev["reason"]] += 1
                assert ev["winner"] is not None or ev["reason"] == "stalled"
        assert len(s.turns_per_round) == sum(1 for ev in s.log if ev["type"] == "round_end")
        if s.outcome == "win" and sum(s.eliminated) == 3:
            assert s.winner == next(p for p in range(4) if not s.eliminated[p])
    assert ends["last_standing"] > 0
    if mercy or mercy_hand:
        assert back > 0
