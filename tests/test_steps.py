"""The step API on generated code (codegen/steps.py, issue 30 item 3): a game played by generated
code stopped at each decision answers as the engine's State does, step by step, for every shipped
rulebook it covers: the player to move, the legal action ids, every seat's observation, the
returns. Needs no optional extra (the RLCard adapter's use of it: tests/test_envs.py)."""
from __future__ import annotations

import glob
import os
import random

import pytest

import unorules
from helpers import ROOT
from unorules.codegen.steps import Stepper
from unorules.errors import IllegalAction

# every shipped rulebook generated code steps through today (test_which_rulebooks_step pins the list)
STEPPED = ["all_wild", "attack", "bts", "classic", "dare", "fast", "fifty", "flex", "hot_death", "killer",
           "killer_red_zero", "mario", "mario_kart", "nonpartisan", "official", "official_swap", "rlcard", "showdown"]


def stepper(name, players=4, rounds="single"):
    game = unorules.Game(name, players=players, rounds=rounds)
    found, why = Stepper.of(game)
    assert found is not None, why
    return game, found


def official_stepper(include=(), with_=(), players=4, rounds="single", source="official"):
    """A game of `source` with these modules and custom files, and its Stepper (it must step)."""
    from unorules.engine import Game
    from unorules.engine.compiler import compile_rulebook
    from unorules.language.loader import load
    game = Game(compile_rulebook(load(source, include=include, with_=with_), {}), players, rounds=rounds)
    found, why = Stepper.of(game)
    assert found is not None, why
    return game, found


def written(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def walk_both(game, st, seed, check_every=1):
    """Random legal actions on the engine and on generated code from one seed; every answer
    compared at each step (every `check_every`-th step for the observations). Returns the steps."""
    rng = random.Random(seed)
    e = game.new_state(seed)
    e.play_chance()
    s = st.new_state(seed)
    steps = 0
    while True:
        where = (seed, steps)
        assert s.terminal == e.terminal and s.current_player() == e.current_player(), where
        assert s.legal_action_ids() == e.legal_action_ids(), where
        if steps % check_every == 0 or e.terminal:
            for p in range(game.players):
                assert s.observation_tensor(p) == e.observation_tensor(p), (where, p)
        if e.terminal:
            assert s.returns() == e.returns() and s.scores == e.scores, where
            return steps
        i = rng.choice(e.legal_action_ids())
        e.apply_action(i)
        e.play_chance()
        s.apply_action(i)
        steps += 1


@pytest.mark.parametrize("name, players, rounds, games, every", [
    ("rlcard", 2, "single", 40, 1), ("rlcard", 4, "single", 20, 1),
    ("official", 4, "single", 12, 3),            # the UNO call, its catch, the challenge
    ("official", 3, "rulebook", 2, 7),           # a match: rounds, scores, the dealer moving on
    ("classic", 4, "single", 10, 3), ("bts", 4, "single", 6, 3), ("dare", 4, "single", 8, 3),
    ("hot_death", 4, "single", 4, 5),            # stacked answers to attacks, a color chosen inside one
    ("mario", 4, "single", 5, 3), ("all_wild", 4, "single", 5, 3), ("attack", 3, "rulebook", 1, 3),
    ("fifty", 4, "single", 3, 5), ("mario_kart", 4, "single", 2, 9), ("official_swap", 4, "single", 5, 3),
    ("showdown", 2, "single", 3, 9), ("killer", 4, "single", 1, 9),       # killer: jumping in
    ("flex", 4, "single", 2, 9), ("nonpartisan", 3, "rulebook", 1, 9),    # a flag per player, one for a turn
    ("fast", 4, "single", 3, 5)])            # the cut and its bets, swapping seats
def test_generated_steps_answer_as_the_engine_does(name, players, rounds, games, every):
    game, st = stepper(name, players, rounds)
    total = sum(walk_both(game, st, seed, every) for seed in range(games))
    assert total > games * 20


def test_which_rulebooks_step_and_why_the_others_do_not():
    stepped, why = [], {}
    for path in sorted(glob.glob(str(ROOT / "rulebooks" / "*.uno"))):
        name = os.path.basename(path)[:-4]
        game = unorules.Game(name, players=2 if name == "showdown" else 4)
        found, reason = Stepper.of(game)
        if found is not None:
            stepped.append(name)
        else:
            why[name] = reason
    assert stepped == STEPPED
    assert all(reason and "Traceback" not in reason for reason in why.values())
    assert "several discard piles" in why["triple_play"] and "double-faced" in why["flip"] and "`may play`" in why["emoji"]


@pytest.mark.parametrize("include, with_", [(("jump_in",), ()), (("stacking",), ()), (("seven_o",), ()),
                                           (("draw_to_match",), ()), ((), ("rock_paper_scissors",)),
                                           ((), ("swap_with_fewest",)), ((), ("everyone_draws",)),
                                           ((), ("name_a_number",)),      # a number kind named: a stop
                                           ((), ("double_next_draw",))])  # an `on attacked` rule
def test_modules_and_custom_cards_step_as_the_engine_does(include, with_):
    game, st = official_stepper(include, with_, players=4, rounds="single")
    assert sum(walk_both(game, st, seed, 5) for seed in range(3)) > 60


def test_an_observation_into_a_numpy_array_equals_the_list():
    np = pytest.importorskip("numpy")
    game, st = stepper("official", 4)
    s = st.new_state(5)
    rng = random.Random(5)
    for _ in range(60):
        for dtype in (np.float32, np.float64):
            out = s.observation_tensor(s.current_player(), np.zeros(game.observation_layout.size, dtype))
            assert out.tolist() == s.observation_tensor(s.current_player())
        s.apply_action(rng.choice(s.legal_action_ids()))
    with pytest.raises(ValueError, match="seat from 0 to 3"):
        s.observation_tensor(4)
    with pytest.raises(ValueError, match="seat from 0 to 3"):
        s.observation_tensor(True)
    with pytest.raises(ValueError, match="places"):
        s.observation_tensor(0, [0.0] * 3)


def test_an_illegal_action_is_refused_by_name_and_a_finished_game_takes_none():
    game, st = stepper("rlcard", 2)
    s = st.new_state(1)
    legal = s.legal_action_ids()
    outside = next(i for i in range(game.action_space.player_actions) if i not in legal)
    with pytest.raises(IllegalAction, match=f"`{game.action_space.name(outside)}` is not one of the legal actions"):
        s.apply_action(outside)
    assert s.legal_action_ids() == legal                 # nothing changed
    rng = random.Random(1)
    while not s.terminal:
        s.apply_action(rng.choice(s.legal_action_ids()))
    assert s.current_player() < 0 and s.legal_action_ids() == [] and sorted(s.returns()) == [-1.0, 1.0]
    with pytest.raises(IllegalAction, match="over"):
        s.apply_action(legal[0])


def played(st, seed, moves):
    """A stepped game of this seed after `moves` random legal actions, and the random stream."""
    s = st.new_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        s.apply_action(rng.choice(s.legal_action_ids()))
    return s, rng


def test_a_clone_is_the_same_position_and_goes_its_own_way():
    game, st = stepper("official", 4)
    s, _ = played(st, 9, 25)
    c = s.clone()
    assert c.history() == s.history() and c.legal_action_ids() == s.legal_action_ids()
    assert c.observation_tensor(c.current_player()) == s.observation_tensor(s.current_player())
    before = s.observation_tensor(s.current_player())
    c.apply_action(c.legal_action_ids()[-1])
    assert s.observation_tensor(s.current_player()) == before and len(c.history()) == len(s.history()) + 1


def test_the_engine_state_of_a_stepped_game_is_its_position_and_keeps_in_step():
    game, st = stepper("official", 4)
    s, rng = played(st, 3, 30)
    e = s.engine_state()
    for _ in range(40):
        if s.terminal:
            break
        assert e.legal_action_ids() == s.legal_action_ids()
        assert e.observation_tensor(s.current_player()) == s.observation_tensor(s.current_player())
        s.apply_action(rng.choice(s.legal_action_ids()))
    assert s.engine_state() is e and e.terminal == s.terminal


def test_stepped_code_keeps_no_rulebook_text():
    """Only names the compiler makes: the action ids are numbers in tables, never text in the code."""
    game, st = stepper("official", 4)
    source = st.program.source
    assert "yield (p, ids," in source and "PID" in source
    assert "official" not in source and "wild_draw_four" not in source


CHOICES = """module choices "a rule's choices, each a stop"
for official
card wild_customizable {
  on play:
    choose one of calm, loud, wild as how
    if how == "loud" { next draw 1 }
    if how == "wild" { reverse }
    choose number from 1 to 3 as k
    next draw k
    choose kind where candidate != wild as q
    each player discard all q
}
"""


def test_a_rules_named_option_number_and_kind_are_stops_answered_as_on_the_engine(tmp_path):
    game, st = official_stepper(with_=(written(tmp_path, "choices.uno", CHOICES),), players=3, rounds="single")
    kinds = {game.action_space.keys[i][0] for i in range(len(game.action_space))}
    assert {"option", "number", "kind"} <= kinds
    asked = set()
    for seed in range(12):
        s = st.new_state(seed)
        rng = random.Random(seed)
        e = game.new_state(seed)
        e.play_chance()
        while not e.terminal:
            assert s.legal_action_ids() == e.legal_action_ids() and s.current_player() == e.current_player()
            ids = e.legal_action_ids()
            asked |= {game.action_space.keys[i][0] for i in ids}
            i = rng.choice(ids)
            e.apply_action(i)
            e.play_chance()
            s.apply_action(i)
        assert s.terminal and s.returns() == e.returns()
    assert {"option", "number", "kind"} <= asked          # each choice was asked, and answered alike


COUNTERS = """module counters "counters and flags of every kind, read and shown"
for official
counter plays per player
counter secret per player hidden reset each round
counter table_count
counter this_turn reset each turn
flag marked per player reset after next turn
on play of 7: next set marked
on play:
  add 1 to plays
  add 2 to secret
  add 1 to table_count
  add 1 to this_turn
on draw if me.marked and table_count > 8: draw 1
"""


def test_counters_and_flags_step_as_on_the_engine_and_show_in_every_observation(tmp_path):
    """Counters per player (one hidden) and for the table, one kept for a turn, a flag kept until
    after its player's next turn: the code keeps them at each stop, every seat's observation shows
    them as the engine's does (others' hidden values unseen), and a rule reads them."""
    game, st = official_stepper(with_=(written(tmp_path, "counters.uno", COUNTERS),), players=4, rounds="rulebook")
    offsets = game.observation_layout.offsets
    seen = set()
    for seed in range(4):
        walk_both(game, st, seed, 2)
        s = st.new_state(seed)
        rng = random.Random(seed)
        for _ in range(60):
            if s.terminal:
                break
            obs = s.observation_tensor(s.current_player())
            seen |= {name for name in ("counter:plays", "counter:secret", "counter:table_count", "counter:marked")
                     if obs[offsets[name]:offsets[name] + 4] != [0.0] * 4}
            s.apply_action(rng.choice(s.legal_action_ids()))
    assert seen == {"counter:plays", "counter:secret", "counter:table_count", "counter:marked"}


@pytest.mark.parametrize("include, with_", [(("zero_passes_one",), ()), (("five_exchange",), ()),
                                           ((), ("tribute",)), ((), ("give_away",)), ((), ("take_a_card",))])
def test_a_card_chosen_to_give_take_or_exchange_is_a_stop_answered_as_on_the_engine(include, with_):
    """Giving cards (one at a time, or every giver at once), taking one (the taker sees the hand:
    every observation shows it as the engine's does), exchanging them, giving a whole hand: each
    card chosen is a stop with the engine's "card" actions, and the games go alike."""
    game, st = official_stepper(include, with_, players=4, rounds="single")
    keys, asked, shown = game.action_space.keys, 0, game.observation_layout.offsets["shown"]
    seen = 0
    for seed in range(6):
        walk_both(game, st, seed, 7)
        s, e, rng = st.new_state(seed), game.new_state(seed), random.Random(seed)
        e.play_chance()
        while not e.terminal:
            ids = e.legal_action_ids()
            assert s.legal_action_ids() == ids and s.current_player() == e.current_player()
            asked += any(keys[i][0] == "card" for i in ids)
            seen += any(s.observation_tensor(e.current_player())[shown:shown + 4 * len(game.rules.faces)])
            i = rng.choice(ids)
            e.apply_action(i)
            e.play_chance()
            s.apply_action(i)
        assert s.returns() == e.returns()
    assert asked >= (0 if with_ == ("give_away",) else 3)       # a whole hand given: no card to choose
    assert bool(seen) == (with_ == ("take_a_card",))              # only a take shows a hand


LOOK = """module look "a look at another's hand, and nothing taken"
for official
card wild_customizable {
  on play:
    choose color
    choose other player
    look at chosen.hand
}
"""


def test_a_look_at_a_hand_shows_in_the_lookers_observation_as_on_the_engine(tmp_path):
    game, st = official_stepper(with_=(written(tmp_path, "look.uno", LOOK),), players=3, rounds="single")
    shown, nf = game.observation_layout.offsets["shown"], len(game.rules.faces)
    seen = 0
    for seed in range(8):
        walk_both(game, st, seed, 1)
        s, rng = st.new_state(seed), random.Random(seed)
        while not s.terminal:
            seen += any(any(s.observation_tensor(p)[shown:shown + 3 * nf]) for p in range(3))
            s.apply_action(rng.choice(s.legal_action_ids()))
    assert seen


CUT_BETS = """rulebook cutbets "a cut with bets before the deal"
extends official
counter bet per player reset each round
setup {
  cut chance 0.5:
    score -50
}
on cut:
  each other as p {
    choose one of low, high as guess
    set bet to if guess == "high" then 1 else 2
  }
"""


def test_a_cut_and_its_bets_before_the_deal_step_as_on_the_engine(tmp_path):
    """The bets are decisions before any card is up: the position shown then (the current seat
    among it) is the engine's, and the cut is drawn on the game's stream as the engine draws it."""
    game, st = official_stepper(players=3, rounds="rulebook", source=written(tmp_path, "cutbets.uno", CUT_BETS))
    assert walk_both(game, st, 0, 1) > 100
