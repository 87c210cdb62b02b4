"""The learning API's core (issue 15, section 1): a fixed integer action space with masks, the
observation tensor (nothing hidden in it), pickling and serialized histories, and hidden-information
resampling for search. Over every shipped rulebook and a custom card."""
from __future__ import annotations

import hashlib
import pickle
import random
import subprocess
import sys

import pytest

import unorules
from unorules.agents.base import GreedyAgent
from unorules.engine.compiler import compile_rulebook
from unorules.engine import Game
from unorules.language.loader import load, shipped_names

from helpers import ROOT

RULEBOOKS = sorted(n for n, p in shipped_names().items() if "custom" not in p.parts)


def make(name, players=4, with_=()):
    return Game(compile_rulebook(load(name, with_=with_)), players, rounds="single")


def walk(game, seed, steps=120, check=None):
    """Play by action ids (uniform over the legal ones; chance by its odds), calling check(state)."""
    s = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.terminal:
            break
        if check:
            check(s)
        if s.is_chance_node():
            a = rng.choices(s.decision.options, s.decision.probs)[0]
            s.apply_action(s.action_id(a))
        else:
            s.apply_action(rng.choice(s.legal_action_ids()))
    return s


def space_digest(game) -> str:
    return hashlib.sha256(repr(game.action_space.keys).encode()).hexdigest()


@pytest.mark.parametrize("name", RULEBOOKS)
def test_every_legal_action_has_its_own_id_and_the_mask_says_which(name):
    game = make(name)

    def check(s):
        ids = [s.action_id(a) for a in s.decision.options]
        assert len(set(ids)) == len(ids)                    # one id per legal action, never shared
        mask = s.legal_actions_mask()
        assert len(mask) == game.num_distinct_actions() and sum(mask) == len(ids)
        assert all(mask[i] for i in ids)
        for i in ids[:3]:
            assert s.action_to_string(i)
            assert s.action_of_id(i) in s.decision.options
    for seed in range(4):
        walk(game, seed, check=check)


def test_an_id_that_is_not_legal_now_is_refused():
    s = make("classic").new_state(1)
    illegal = next(i for i, m in enumerate(s.legal_actions_mask()) if not m)
    with pytest.raises(unorules.IllegalAction, match="is not one of the legal actions"):
        s.apply_action(illegal)


@pytest.mark.parametrize("card", sorted(p.stem for p in (ROOT / "rulebooks" / "custom").glob("*.uno")))
def test_every_custom_card_plays_by_ids(card):
    game = make("official", with_=(ROOT / "rulebooks" / "custom" / f"{card}.uno",))
    for seed in range(4):
        walk(game, seed, check=lambda s: s.legal_actions_mask())


def test_a_rule_that_offers_named_options_adds_them_to_the_space():
    base, fast = make("killer"), make("fast")
    options = {k[1] for k in fast.action_space.keys if k[0] == "option"}
    assert {"exact", "missed"} <= options and not any(k[0] == "option" for k in base.action_space.keys)


def test_ids_are_stable_across_processes():
    here = space_digest(make("flip", 4))
    code = ("import hashlib; from unorules.engine.compiler import compile_rulebook; from unorules.engine import Game; "
            "from unorules.language.loader import load; g = Game(compile_rulebook(load('flip')), 4); "
            "print(hashlib.sha256(repr(g.action_space.keys).encode()).hexdigest())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == here


@pytest.mark.parametrize("name", ["official", "flip", "triple_play", "nonpartisan", "fast"])
def test_the_observation_tensor_never_shows_another_players_hidden_cards(name):
    game = make(name, 4)
    for seed in range(3):
        s = walk(game, seed, steps=30)
        if s.terminal:
            continue
        p = 0
        before = s.observation_tensor(p)
        assert len(before) == game.observation_tensor_size() == game.observation_tensor_shape()[0]
        # swap a hidden card of seat 1 with one of seat 2 (hand sizes unchanged), and with the draw
        # pile; with double-faced cards the backs are public, so only cards with the same back
        back = s.card_faces[(s.side + 1) % len(s.card_faces)]
        t = s.clone()
        swapped = 0
        for a, b in ((t.hands[1], t.hands[2]), (t.hands[3], t.draw_pile[:-1])):
            pair = next(((i, j) for i, x in enumerate(a) for j, y in enumerate(b)
                         if len(s.card_faces) == 1 or back[x] == back[y]), None)
            if pair is not None:
                i, j = pair
                other = t.hands[2] if b is t.hands[2] else t.draw_pile
                a[i], other[j] = other[j], a[i]
                swapped += 1
        assert t.observation_tensor(p) == before
        if name != "flip":
            assert swapped == 2
        # while a change to p's own hand shows
        u = s.clone()
        if u.draw_pile:
            u.hands[p].append(u.draw_pile.pop())
            assert u.observation_tensor(p) != before


@pytest.mark.parametrize("name", ["official", "flip", "triple_play", "fast", "attack"])
def test_the_observation_written_into_a_buffer_is_the_list(name):
    """An adapter's zeroed buffer (any sequence with item assignment) gets the very numbers of the
    list, for every seat, along a game; a buffer of another size is refused."""
    import array
    game = make(name, 4)
    for seed in range(2):
        for steps in (0, 15, 40):
            s = walk(game, seed, steps=steps)
            for p in range(4):
                buffer = array.array("d", bytes(8 * game.observation_tensor_size()))
                assert list(s.observation_tensor(p, buffer)) == s.observation_tensor(p)
    with pytest.raises(ValueError, match="places"):
        s.observation_tensor(0, [0.0] * 3)


@pytest.mark.parametrize("name", ["official", "flip", "triple_play", "partners_table", "attack"])
def test_states_pickle_and_serialize_and_play_on_identically(name):
    game = make("classic", 4) if name == "partners_table" else make(name, 4)
    if name == "partners_table":
        game = Game(compile_rulebook(load("classic", include=("partners",))), 4, rounds="single")
    for seed in range(3):
        s = walk(game, seed, steps=25)
        for copy in (pickle.loads(pickle.dumps(s)), game.deserialize_state(s.serialize()),
                     game.state_from_history(seed, s.history())):
            assert copy.hands == s.hands and copy.draw_pile == s.draw_pile and copy.history() == s.history()
            assert copy.observation_tensor(1) == s.observation_tensor(1)
            a, b = walk_on(s.clone(), seed), walk_on(copy, seed)
            assert a.hands == b.hands and a.history() == b.history() and a.outcome == b.outcome


def same_state(a, b) -> bool:
    return (a.hands == b.hands and a.draw_pile == b.draw_pile and a.piles == b.piles and a.scores == b.scores
            and a.history() == b.history() and a.rng.getstate() == b.rng.getstate()
            and a.terminal == b.terminal and a.winners == b.winners)


@pytest.mark.parametrize("name", RULEBOOKS)
def test_a_game_whose_chance_was_drawn_on_its_own_generator_replays_exactly(name):
    """simulate's loop draws chance outcomes with state.rng.choices, and the generator also
    shuffles the cards: a replay of the history must draw on it alike, or a later shuffle differs
    (in `fast` the replay stopped at an action no longer legal)."""
    game = make(name, 4)
    drawn_somewhere = False
    for seed in range(12):
        s = game.new_state(seed)
        agents = [GreedyAgent(random.Random(seed + q)) for q in range(4)]
        steps = 0
        while not s.terminal and steps < 600:
            d = s.decision
            s.apply_unchecked(s.rng.choices(d.options, d.probs)[0] if d.probs is not None
                              else agents[d.player].act(s, d.options))
            steps += 1
        drawn_somewhere |= bool(s.chance_drawn())
        for copy in (pickle.loads(pickle.dumps(s)), game.deserialize_state(s.serialize()),
                     game.state_from_history(seed, s.history(), s.chance_drawn())):
            assert same_state(copy, s)
    assert drawn_somewhere or name not in CHANCE_IN_PLAY


# the rulebooks whose chance nodes twelve greedy games reach (so the test above replays draws)
CHANCE_IN_PLAY = {"attack", "bts", "dare", "emoji", "fast", "fifty", "nonpartisan", "showdown", "triple_play"}


def test_a_chance_outcome_drawn_otherwise_than_by_choices_is_refused_on_replay():
    game = make("attack", 4)
    for seed in range(40):
        s = game.new_state(seed)
        while not s.terminal and not s.is_chance_node():
            s.apply_unchecked(GreedyAgent(0).act(s, s.decision.options))
        if not s.terminal and len(s.decision.options) > 1:
            break
    d = s.decision
    by_id = s.clone()
    by_id.apply_action(by_id.action_id(d.options[0]))     # chosen by the caller's own generator
    assert by_id.chance_drawn() == []
    probe = random.Random()
    probe.setstate(s.rng.getstate())
    other = next(a for a in d.options if a != probe.choices(d.options, d.probs)[0])
    s.rng.random()                                          # drawn on the game's generator, but not by choices
    s.apply_unchecked(other)
    assert s.chance_drawn() == [len(s.history()) - 1]
    with pytest.raises(ValueError, match="cannot be replayed"):
        game.state_from_history(seed, s.history(), s.chance_drawn())


def walk_on(s, seed, steps=60):
    rng = random.Random(seed + 99)
    for _ in range(steps):
        if s.terminal:
            break
        ids = s.legal_action_ids() if not s.is_chance_node() else [s.action_id(s.decision.options[0])]
        s.apply_action(rng.choice(ids))
    return s


def test_a_game_pickles_as_its_rulebook_and_compiles_again():
    game = make("official", 4)
    again = pickle.loads(pickle.dumps(game))
    assert again.num_distinct_actions() == game.num_distinct_actions()
    assert space_digest(again) == space_digest(game)
    assert again.new_state(5).hands == game.new_state(5).hands


def test_a_state_set_up_by_hand_says_it_cannot_be_pickled():
    from unorules.scenarios.runner import build, load_scenarios
    sc = load_scenarios(ROOT / "tests" / "scenarios" / "bts" / "wild_dance_failed.yaml")[0]
    s, _ = build(sc)
    with pytest.raises(TypeError, match="only a state made by game.new_state"):
        pickle.dumps(s)


@pytest.mark.parametrize("name", ["official", "flip", "triple_play", "official_swap"])
def test_resampling_hidden_cards_keeps_what_the_player_knows_and_changes_the_future(name):
    game = make(name, 4)
    changed = futures = 0
    for seed in range(6):
        s = walk(game, seed, steps=40)
        if s.terminal:
            continue
        p = 2
        for k in range(3):
            r = s.resample_hidden(p, random.Random(k))
            assert r.invariant_violations() == []
            assert r.observation_tensor(p) == s.observation_tensor(p)
            assert r.hands[p] == s.hands[p] and [len(h) for h in r.hands] == [len(h) for h in s.hands]
            shown = s.shown.get(p, {}) if s.shown else {}
            for q, cards in shown.items():
                assert all(c in r.hands[q] for c in cards if c in s.hands[q])    # what p saw stays put
            changed += any(r.hands[q] != s.hands[q] for q in range(4) if q != p)
            futures += r.draw_pile[-3:] != s.draw_pile[-3:] or r.rng.random() != s.clone().rng.random()
    assert changed and futures


def challenges_faced_by_seat_0(game, seeds):
    """States where seat 0 may challenge another player's pending attack, greedy play to there."""
    for seed in seeds:
        s = game.new_state(seed)
        agents = [GreedyAgent(random.Random(seed + q)) for q in range(4)]
        while not s.terminal:
            d = s.decision
            if d.kind == "challenge" and d.player == 0:
                yield s
                break
            s.apply_unchecked(s.rng.choices(d.options, d.probs)[0] if d.probs is not None
                              else agents[d.player].act(s, d.options))


def test_resampling_judges_a_pending_plays_legality_again_on_the_dealt_hand():
    """Whether a Wild Draw Four was played legally was judged on its player's hidden hand: a
    resampled copy judges it again on the dealt hand, so the challenger's search cannot read it."""
    from unorules.agents.search import ISMCTSAgent
    game = make("official", 4)
    judged = set()
    states = list(challenges_faced_by_seat_0(game, range(60)))
    assert len(states) >= 8
    for s in states:
        q, card = s.attack.attacker, s.attack.card
        color_then = s.judged[card][1]
        copies = []
        for legal in (True, False):
            t = s.clone()
            t.attack.legal = legal
            copies.append(t.resample_hidden(0, random.Random(5)))
        a, b = copies
        assert a.hands == b.hands and a.attack.legal == b.attack.legal
        assert a.attack.legal == (not any(a.color_of(c) == color_then for c in a.hands[q]))
        judged.add(a.attack.legal)
        picks = set()
        for legal in (True, False):
            t = s.clone()
            t.attack.legal = legal
            picks.add(ISMCTSAgent(random.Random(1), determinizations=12, infer=False).act(t, t.decision.options))
        assert len(picks) == 1
    assert judged == {True, False}


def test_resampling_depends_only_on_what_the_player_cannot_see():
    game = make("official", 4)
    s = walk(game, 2, steps=20)
    t = s.clone()
    t.hands[1], t.hands[3] = list(t.hands[1]), list(t.hands[3])
    if t.hands[1] and t.hands[3]:
        t.hands[1][0], t.hands[3][0] = t.hands[3][0], t.hands[1][0]      # another truth, the same knowledge
    a, b = s.resample_hidden(0, random.Random(9)), t.resample_hidden(0, random.Random(9))
    assert a.hands == b.hands and a.draw_pile == b.draw_pile


def test_the_search_agent_plays_legal_moves_and_reads_no_hidden_card():
    from unorules.agents.search import ISMCTSAgent
    game = make("official", 4)
    checked = 0
    for seed in range(6):
        s = walk(game, seed, steps=15)
        if s.terminal or s.is_chance_node():
            continue
        p = s.current_player()
        t = s.clone()
        others = [q for q in range(4) if q != p and t.hands[q]]
        if len(others) >= 2:
            x, y = others[:2]
            t.hands[x][0], t.hands[y][0] = t.hands[y][0], t.hands[x][0]
        a = ISMCTSAgent(random.Random(1), determinizations=12).act(s, s.decision.options)
        b = ISMCTSAgent(random.Random(1), determinizations=12).act(t, t.decision.options)
        assert a in s.decision.options and s.action_id(a) == t.action_id(b)
        checked += 1
    assert checked >= 3


def test_the_search_agent_is_named_in_simulate_and_its_budget_checked():
    from helpers import run_cli
    code, out, _ = run_cli("simulate", "classic", "--games", "2", "--players", "2", "--agents", "ismcts:5,greedy",
                           "--rounds", "single", "--json")
    assert code == 0 and "ismcts:5" in out
    code, _, err = run_cli("simulate", "classic", "--games", "2", "--agents", "ismcts:fast")
    assert code == 2 and "the budget is a number of determinizations" in err


def instant_win_game(tmp_path, rounds="single"):
    """official with a `--with` blank wild that wins the round at once (greedy keeps it for last)."""
    rule = tmp_path / "instant_win.uno"
    rule.write_text('module instant_win "wins the round at once"\nfor official\n'
                    'card wild_customizable {\n  on play:\n    choose color\n    win round\n}\n')
    return Game(compile_rulebook(load("official", with_=(str(rule),))), 4, rounds=rounds)


def instant_win_openings(game):
    """(state, its options, greedy's play) at each first turn where greedy plays a card other than
    the instant-win wild it holds."""
    from unorules.agents.base import GreedyAgent
    for seed in range(400):
        s = game.new_state(seed)
        if s.is_chance_node() or s.decision.kind != "turn":
            continue
        opts = s.decision.options
        greedy = GreedyAgent(random.Random(0)).act(s, opts)
        if greedy.kind != "play" or s.card_name(greedy.value) == "wild_customizable" or not any(
                a.kind == "play" and s.card_name(a.value) == "wild_customizable" for a in opts):
            continue
        yield s, opts, greedy


def test_the_search_plays_out_to_the_end_of_the_round_in_a_match(tmp_path):
    """In a match, a playout stops when the round ends (a match's 400 steps would end no
    playout, and every action would count 0): a blank wild that wins the round at once is seen
    to win, and played."""
    from unorules.agents.search import ISMCTSAgent
    for s, opts, greedy in instant_win_openings(instant_win_game(tmp_path, rounds="match")):
        search = ISMCTSAgent(random.Random(1), determinizations=20)
        gains, default, ids = search.gains(s, opts)
        best = max(gains, key=lambda i: gains[i][1])
        assert s.card_name(ids[best].value) == "wild_customizable" and gains[best][1] > 0.1
        search = ISMCTSAgent(random.Random(1), determinizations=80)
        assert s.card_name(search.act(s, opts).value) == "wild_customizable"
        return
    pytest.fail("no opening with the blank wild and another play")


def test_the_search_agent_keeps_the_heuristics_play_unless_the_evidence_is_clear(tmp_path):
    """The greedy heuristic keeps wilds for last; with a blank wild that wins the round at once, the
    search sees every playout of it won and plays it. Where no action is clearly better (a budget
    of 2 determinizations), it plays the heuristic's own choice."""
    from unorules.agents.search import ISMCTSAgent
    found = 0
    for s, opts, greedy in instant_win_openings(instant_win_game(tmp_path)):
        found += 1
        search = ISMCTSAgent(random.Random(1), determinizations=40)
        pick = search.act(s, opts)
        assert s.card_name(pick.value) == "wild_customizable" and search.overridden == 1
        gains, default, _ = search.gains(s, opts)
        assert default == s.action_id(greedy) and gains[s.action_id(pick)][1] > 0
        blind = ISMCTSAgent(random.Random(1), determinizations=2, confidence=50.0)   # no evidence can pass
        assert blind.act(s, opts) == greedy and blind.overridden == 0
        if found == 3:
            break
    assert found == 3, f"only {found} openings with the blank wild and another play"


def _fits(hand, groups):
    """Whether the cards of `hand` can be shared among `groups` ([count, cards it cannot hold]):
    the groups' sets are nested, so counting from the most constrained one down is exact."""
    need = 0
    for count, out in sorted(groups, key=lambda g: -len(g[1])):
        need += count
        if sum(c not in out for c in hand) < need:
            return False
    return True


@pytest.mark.parametrize("name", RULEBOOKS + ["official+instant_win"])
def test_the_search_belief_never_rules_out_a_card_a_greedy_player_holds(name, tmp_path):
    """Greedy players play whenever they can, so one who draws on their turn held nothing playable:
    the belief rules those cards out of the hand they had, and each deal keeps to it. It must
    never rule out a card the player truly holds (swaps and new deals start a hand afresh), and
    every deal must keep the sizes, the searching player's hand and the cards. On every shipped
    rulebook and with a custom card; then the search, with its belief, plays a game through."""
    from unorules.agents.base import GreedyAgent
    from unorules.agents.belief import Belief
    from unorules.agents.search import ISMCTSAgent
    game = instant_win_game(tmp_path) if name == "official+instant_win" else make(name, 4)
    ruled_out = dealt = 0
    seeds = 25 if name in ("official", "official_swap", "flip", "classic") else 6
    for seed in range(seeds):
        s = game.new_state(seed)
        belief = Belief(0, GreedyAgent(random.Random(0)))
        agents = [GreedyAgent(random.Random(seed + k)) for k in range(4)]
        chance = random.Random(seed)           # not the game's generator: the history replays
        while not s.terminal:
            d = s.decision
            if d.probs is not None:
                s.apply_unchecked(chance.choices(d.options, d.probs)[0])
                continue
            if d.player == 0:
                assert belief.follow(s) and belief.follows(s, 0)
                for q in (1, 2, 3):
                    assert sum(g[0] for g in belief.groups[q]) == len(s.hands[q])
                    assert _fits(s.hands[q], belief.groups[q]), (seed, q)
                    ruled_out += sum(g[0] for g in belief.groups[q] if g[1])
                r = belief.deal(s, random.Random(seed))
                assert r.hands[0] == s.hands[0] and [len(h) for h in r.hands] == [len(h) for h in s.hands]
                assert sorted(sum(r.hands, []) + r.draw_pile) == sorted(sum(s.hands, []) + s.draw_pile)
                assert all(_fits(r.hands[q], belief.groups[q]) for q in (1, 2, 3))
                dealt += 1
            s.apply_unchecked(agents[d.player].act(s, d.options))
    assert dealt > 4 * seeds and ruled_out > 0                 # it does learn something
    if seeds == 25:
        assert ruled_out > dealt / 4
    s = game.new_state(99)
    agents[0] = search = ISMCTSAgent(random.Random(0), determinizations=2)
    while not s.terminal:
        d = s.decision
        a = s.rng.choices(d.options, d.probs)[0] if d.probs is not None else agents[d.player].act(s, d.options)
        assert a in d.options
        if d.player == 0 and len(d.options) > 1 and d.probs is None:
            # chance drawn on the game's generator, as simulate does: the replay follows it too
            assert search.belief.follows(s, 0) and search.belief.lost is None
        s.apply_unchecked(a)
    assert s.outcome in ("win", "stalled") and search.searched > 0


def test_the_search_belief_rules_out_what_a_player_could_have_played():
    """After a player draws on their turn, every deal keeps from them each card they could have
    played then; a state with no history to follow (a resampled copy) is dealt as resample_hidden."""
    from unorules.agents.base import GreedyAgent
    from unorules.agents.belief import Belief
    from unorules.agents.search import ISMCTSAgent
    game = make("official", 4)
    for seed in range(200):
        s = game.new_state(seed)
        greedy = GreedyAgent(random.Random(seed))
        while not s.terminal and not (s.decision.probs is None and s.decision.kind == "turn"
                                      and s.decision.player == 1 and greedy.act(s, s.decision.options).kind == "draw"):
            d = s.decision
            s.apply_unchecked(s.rng.choices(d.options, d.probs)[0] if d.probs else greedy.act(s, d.options))
        if s.terminal:
            continue
        playable = {a.value for a in s.play_options(1, list(range(s.ncards))) if a.kind == "play"}
        playable_faces = {s.face_of(c) for c in playable}
        held = list(s.hands[1])
        s.apply_unchecked(s.decision.options[-1])                   # draw
        belief = Belief(0, GreedyAgent(random.Random(0)))
        belief.follow(s)
        old = [g for g in belief.groups[1] if g[1]]
        assert sum(g[0] for g in old) == len(held)                  # the cards held then, all constrained
        for k in range(20):
            r = belief.deal(s, random.Random(k))
            kept_from = sum(s.face_of(c) in playable_faces for c in r.hands[1])
            assert kept_from <= len(r.hands[1]) - len(held)         # only the drawn cards may match
        search = ISMCTSAgent(random.Random(0))
        copy = s.resample_hidden(0, random.Random(1))
        search.follow(copy, 0)
        assert not search.belief.follows(copy, 0)                   # nothing to follow: no belief used
        return
    pytest.fail("no greedy player drew on a turn")


def test_the_search_belief_reads_a_greedy_play():
    """Greedy keeps wilds for last: a greedy player who plays a wild while the next player is not
    close held no other playable card, and every deal keeps those cards from the rest of its hand.
    Without the policy to say so, nothing is read from the play."""
    from unorules.agents.base import GreedyAgent
    from unorules.agents.belief import Belief
    game = make("official", 4)
    for seed in range(300):
        s = game.new_state(seed)
        greedy = GreedyAgent(random.Random(seed))
        pick = None
        while not s.terminal:
            d = s.decision
            if d.probs is not None:
                s.apply_unchecked(s.rng.choices(d.options, d.probs)[0])
                continue
            pick = greedy.act(s, d.options)
            if (d.kind == "turn" and d.player == 1 and pick.kind == "play" and s.card_view(1, pick.value).wild
                    and len(s.hands[s.next_of(1)]) > 2 and len(s.hands[1]) > 2):
                break
            s.apply_unchecked(pick)
        if s.terminal:
            continue
        plain = [c for c in range(s.ncards) if not s.card_view(1, c).wild]
        playable_faces = {s.face_of(a.value) for a in s.play_options(1, plain) if a.kind == "play"}
        rest = len(s.hands[1]) - 1
        s.apply_unchecked(pick)
        while not s.terminal and s.decision.player == 1 and s.decision.kind == "color":
            s.apply_unchecked(greedy.act(s, s.decision.options))
        told, blind = Belief(0, GreedyAgent(random.Random(0))), Belief(0)
        told.follow(s)
        blind.follow(s)
        assert sum(g[0] for g in told.groups[1] if g[1]) >= rest
        assert not any(g[1] for g in blind.groups[1])
        for k in range(20):
            r = told.deal(s, random.Random(k))
            matching = sum(s.face_of(c) in playable_faces for c in r.hands[1])
            assert matching <= len(r.hands[1]) - rest
        return
    pytest.fail("no greedy player played a wild with other cards in hand")


def test_resampling_while_cards_are_passed_at_once_chooses_the_others_cards_again():
    """zero_passes_one: everyone chooses a card, then all move at once. A player deciding while
    others have chosen may not know their cards: a resampled copy chooses them again among the
    new hands, and plays on (before, the old choices pointed at cards no longer held)."""
    from unorules.engine.hands import commit_batch
    game = make("zero_passes_one", 4)
    found = 0
    for seed in range(300):
        s = game.new_state(seed)
        rng = random.Random(seed)
        while not s.terminal:
            d = s.decision
            batches = [f[1] for f in s.agenda if f[0] is commit_batch]
            if d.probs is None and d.kind == "card" and any(p != d.player for b in batches for p, _, _ in b):
                break
            s.apply_unchecked(rng.choices(d.options, d.probs)[0] if d.probs else rng.choice(d.options))
        if s.terminal:
            continue
        me = s.decision.player
        for k in range(5):
            r = s.resample_hidden(me, random.Random(k))
            for batch in [f[1] for f in r.agenda if f[0] is commit_batch]:
                for p, _, card in batch:
                    assert card in r.hands[p]
            walk_on(r, k, steps=400)
            assert r.outcome != "error", r.error
        found += 1
        if found == 3:
            return
    pytest.fail(f"only {found} passes with others' choices made")


ALL_FILES = sorted(shipped_names())          # editions, modules and custom cards (laid on the rulebook each is for)


@pytest.mark.parametrize("name", ALL_FILES)
def test_the_compact_action_space_holds_every_action_whole_random_games_ask(name):
    """Issue 30, item 1: the space is derived from the rulebook (bench/action_space.py plays 2,000
    games of each and reports the sizes); every legal action of whole random games is inside it."""
    game = make(name)
    seen = set()
    for seed in range(6):
        s = game.new_state(seed)
        rng = random.Random(seed)
        while not s.terminal:
            ids = s.legal_action_ids()                 # raises if an action is outside the space
            seen.update(ids)
            if s.is_chance_node():
                d = s.decision
                s.apply_action(rng.choices(d.options, d.probs)[0])
            else:
                s.apply_action(rng.choice(ids))
    assert seen and max(seen) < game.num_distinct_actions()


def test_resampling_keeps_the_hands_open_to_all(tmp_path):
    """A hand shown to the table (`shows hand until round ends`) is seen by every player: a
    resampled state keeps it, and the player's observation with it (it was dealt again)."""
    card = tmp_path / "glass.uno"
    card.write_text('module glass "g"\ncard glass { wild  points 50\n  on play: choose color; next shows hand until round ends }\n'
                    "deck { 12 × glass }\n")
    game = make("official", 4, with_=(str(card),))
    checked = 0
    for seed in range(30):
        s = walk(game, seed, steps=30)
        if s.terminal or not s.open_hands:
            continue
        for p in range(4):
            if p in s.open_hands:
                continue
            r = s.resample_hidden(p, random.Random(seed))
            assert all(r.hands[q] == s.hands[q] for q in s.open_hands)
            assert r.observe(p).open_hands == s.observe(p).open_hands
            assert r.observation_tensor(p) == s.observation_tensor(p)
            checked += 1
    assert checked >= 10
