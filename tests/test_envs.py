"""The learning-library adapters (issue 15, section 2), each checked with its library's own tests;
skipped where the optional extra is not installed (.ci/run installs them all)."""
from __future__ import annotations

import os

import pytest

from helpers import ROOT

REQUIRED = bool(os.environ.get("UNORULES_REQUIRE_EXTRAS"))


def need(module):
    if REQUIRED:
        return __import__(module)
    return pytest.importorskip(module)


@pytest.mark.parametrize("kw", [dict(rulebook="official", players=4), dict(rulebook="triple_play", players=3),
                                dict(rulebook="classic", players=4, include=("partners",)),
                                dict(rulebook="official", players=2,
                                     with_=(str(ROOT / "rulebooks" / "custom" / "give_away.uno"),))])
def test_pettingzoo_api_test_passes(kw):
    need("pettingzoo")
    from pettingzoo.test import api_test
    from unorules.envs.pettingzoo import env
    api_test(env(**kw), num_cycles=300, verbose_progress=False)


def test_pettingzoo_episodes_follow_the_mask_and_are_seeded():
    need("pettingzoo")
    import numpy as np
    from unorules.envs.pettingzoo import env

    def episode(seed):
        e = env(rulebook="nonpartisan", players=3)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        moves, final = [], {}
        for agent in e.agent_iter(max_iter=3000):
            obs, reward, term, trunc, _ = e.last()
            if term or trunc:
                final[agent] = reward
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) > 0
            a = int(rng.choice(legal))
            moves.append(a)
            e.step(a)
        return moves, final
    a, b = episode(3), episode(3)
    assert a == b and len(a[0]) > 5
    assert episode(4)[0] != a[0]


@pytest.mark.parametrize("rulebook", ["official", "triple_play", "attack"])
def test_openspiel_random_simulation_test_passes(rulebook):
    pyspiel = need("pyspiel")
    import unorules.envs.openspiel  # noqa: F401  (registers the game)
    game = pyspiel.load_game("unorules", {"rulebook": rulebook, "players": 2, "turn_cap": 60})
    assert game.num_distinct_actions() > 100 and game.num_players() == 2
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_openspiel_deals_are_chance_outcomes():
    pyspiel = need("pyspiel")
    import unorules.envs.openspiel  # noqa: F401
    game = pyspiel.load_game("unorules", {"rulebook": "classic", "players": 3})
    hands = set()
    for deal in (0, 1, 2):
        s = game.new_initial_state()
        assert s.is_chance_node() and len(s.chance_outcomes()) == 1000
        s.apply_action(deal)
        assert s.current_player() in (0, 1, 2) or s.is_chance_node()
        hands.add(str(s.inner.hands))
    assert len(hands) == 3


@pytest.mark.parametrize("rulebook", ["rlcard", "official", "flip"])
def test_rlcard_agents_run_unchanged(rulebook):
    need("rlcard")
    from rlcard.agents import RandomAgent
    from unorules.envs.rlcard import make
    env = make(rulebook=rulebook, players=4, seed=7, turn_cap=400)
    assert env.state_shape[0] == [env.engine.observation_tensor_size()]
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    for _ in range(3):
        trajectories, payoffs = env.run(is_training=False)
        assert len(payoffs) == 4 and abs(sum(payoffs)) < 1e-9
        for p, traj in enumerate(trajectories):
            for state in traj[0::2][:-1]:
                assert len(state["obs"]) == env.engine.observation_tensor_size()


@pytest.mark.parametrize("rulebook, players", [("rlcard", 2), ("official", 4)])
def test_rlcard_steps_on_generated_code_and_plays_the_engine_s_very_games(rulebook, players):
    """Issue 30, item 3: where the generator covers the rules the adapter steps on generated code;
    `steps="engine"` plays the same games (chance on the game's own stream in both), so every
    state an agent sees, and every payoff, is the same."""
    need("rlcard")
    import random
    from unorules.envs.rlcard import make
    fast, slow = (make(rulebook=rulebook, players=players, seed=11, steps=steps) for steps in ("auto", "engine"))
    assert fast.game.stepper is not None and slow.game.stepper is None
    rng = random.Random(11)
    for _ in range(4):
        a, pa = fast.reset()
        b, pb = slow.reset()
        while True:
            assert pa == pb and list(a["legal_actions"]) == list(b["legal_actions"])
            assert (a["obs"] == b["obs"]).all() and a["raw_legal_actions"] == b["raw_legal_actions"]
            assert fast.is_over() == slow.is_over()
            if fast.is_over():
                break
            i = rng.choice(list(a["legal_actions"]))
            (a, pa), (b, pb) = fast.step(i), slow.step(i)
        assert (fast.get_payoffs() == slow.get_payoffs()).all()
        assert fast.action_recorder == slow.action_recorder


def test_pettingzoo_steps_on_generated_code_as_on_the_engine():
    need("pettingzoo")
    import random
    import numpy as np
    from unorules.envs.pettingzoo import env as pz_env
    fast, slow = pz_env(rulebook="official", players=3), pz_env(rulebook="official", players=3, steps="engine")
    assert fast.unwrapped.stepper is not None and slow.unwrapped.stepper is None
    for seed in range(3):
        fast.reset(seed=seed)
        slow.reset(seed=seed)
        rng = random.Random(seed)
        steps = 0
        for agent in fast.agent_iter():
            assert slow.agent_selection == agent
            (oa, ra, ta, tra, _), (ob, rb, tb, trb, _) = fast.last(), slow.last()
            assert (oa["observation"] == ob["observation"]).all() and (oa["action_mask"] == ob["action_mask"]).all()
            assert (ra, ta, tra) == (rb, tb, trb)
            action = None if ta or tra else rng.choice(np.flatnonzero(oa["action_mask"]).tolist())
            fast.step(action)
            slow.step(action)
            steps += 1
        assert steps > 20 and slow.agents == fast.agents == []


def test_rlcard_steps_say_where_generated_code_cannot_serve():
    need("rlcard")
    from unorules.envs.rlcard import make
    with pytest.raises(ValueError, match="cannot step on generated code: double-faced cards"):
        make(rulebook="flip", players=4, steps="generated")
    with pytest.raises(ValueError, match="`steps` is one of auto, generated, engine"):
        make(rulebook="rlcard", players=2, steps="fast")
    env = make(rulebook="flip", players=4)                  # auto: the engine, and why
    assert env.game.stepper is None and "double-faced cards" in env.game.steps_why


def test_rlcard_step_back_restores_the_state():
    need("rlcard")
    from unorules.envs.rlcard import make
    env = make(rulebook="official", players=3, seed=2, allow_step_back=True)
    state, p = env.reset()
    before = state["obs"].tolist()
    env.step(next(iter(state["legal_actions"])))
    back, q = env.step_back()
    assert q == p and back["obs"].tolist() == before


def test_rlcard_dqn_agent_takes_the_environment():
    need("rlcard")
    pytest.importorskip("torch")
    from rlcard.agents import DQNAgent, RandomAgent
    from unorules.envs.rlcard import make
    env = make(rulebook="rlcard", players=2, seed=0, turn_cap=300)
    agent = DQNAgent(num_actions=env.num_actions, state_shape=env.state_shape[0], mlp_layers=[32, 32],
                     replay_memory_init_size=50, train_every=1)
    env.set_agents([agent, RandomAgent(num_actions=env.num_actions)])
    for _ in range(3):
        trajectories, payoffs = env.run(is_training=True)
        from rlcard.utils import reorganize
        for ts in reorganize(trajectories, payoffs)[0]:
            agent.feed(ts)


def _doc_blocks():
    import re
    text = (ROOT / "docs" / "researchers.md").read_text()
    return re.findall(r"```python\n(.*?)```", text, re.S)


@pytest.mark.parametrize("i", range(len(_doc_blocks())))
def test_the_researchers_page_examples_run(i):
    block = _doc_blocks()[i]
    for lib, module in (("pettingzoo", "pettingzoo"), ("pyspiel", "pyspiel"), ("rlcard", "rlcard")):
        if lib in block:
            need(module)
    exec(compile(block, f"docs/researchers.md block {i}", "exec"), {})


# ---- every adapter takes every rule (issue 30, item 2) ------------------------------------------
def _custom_rule(engine):
    """What `with skip_two` changes: the blank card's play skips the next two players."""
    k = engine.rules.kinds[engine.rules.kind_by_name["wild_customizable"]]
    return len(k.effects.get("play", ()))


def test_rlcard_takes_every_rule_and_refuses_what_it_does_not_know(tmp_path):
    need("rlcard")
    from unorules.envs.rlcard import make
    from unorules.errors import RulebookError
    plain, custom = make("official", players=3), make("official", players=3, with_=("skip_two",))
    assert _custom_rule(custom.engine) > _custom_rule(plain.engine)       # the custom file is played, not dropped
    assert _custom_rule(make("official", players=3, **{"with": "skip_two"}).engine) == _custom_rule(custom.engine)
    env = make("fast", players=4, include=["stacking"], options={"stack_limit": 8}, rounds="match", turn_cap=300)
    assert env.engine.rules.options["stack_limit"] == 8 and env.engine.rounds == "match" and env.engine.turn_cap == 300
    with pytest.raises(ValueError, match="no parameter `bogus`"):
        make("official", bogus=1)
    with pytest.raises(RulebookError, match="nope"):
        make("official", with_=(str(tmp_path / "nope.uno"),))
    with pytest.raises(ValueError, match="`rounds` is one of"):
        make("official", rounds="forever")


def test_openspiel_takes_every_rule_as_game_parameters(tmp_path):
    pyspiel = need("pyspiel")
    import unorules.envs.openspiel  # noqa: F401
    game = pyspiel.load_game("unorules", {"rulebook": "official", "players": 3, "with": "skip_two",
                                          "include": "stacking", "options": '{"stack_limit": 6}', "rounds": "single"})
    assert _custom_rule(game.engine) > _custom_rule(pyspiel.load_game("unorules", {"players": 3}).engine)
    assert game.engine.rules.options["stack_limit"] == 6
    listed = pyspiel.load_game("unorules", {"players": 3, "with": '["skip_two"]'})
    assert _custom_rule(listed.engine) == _custom_rule(game.engine)
    with pytest.raises(Exception, match="bogus"):
        pyspiel.load_game("unorules", {"bogus": 1})
    with pytest.raises(Exception, match="nope"):
        pyspiel.load_game("unorules", {"with": str(tmp_path / "nope.uno")})


def test_pettingzoo_takes_every_rule(tmp_path):
    need("pettingzoo")
    from unorules.envs.pettingzoo import UnoRulesEnv
    from unorules.errors import RulebookError
    e = UnoRulesEnv(rulebook="official", players=3, with_=("skip_two",), rounds="single", turn_cap=500)
    assert _custom_rule(e.game) > _custom_rule(UnoRulesEnv(rulebook="official", players=3).game)
    assert e.possible_agents == ["player_0", "player_1", "player_2"] and e.game.turn_cap == 500
    with pytest.raises(TypeError, match="bogus"):
        UnoRulesEnv(rulebook="official", bogus=1)
    with pytest.raises(RulebookError, match="nope"):
        UnoRulesEnv(rulebook="official", with_=(str(tmp_path / "nope.uno"),))


def test_copies_of_states_and_games_never_compile_again(monkeypatch):
    pyspiel = need("pyspiel")
    import copy
    import pickle
    import unorules.envs.openspiel  # noqa: F401
    import unorules.engine.compiler as compiler
    game = pyspiel.load_game("unorules", {"rulebook": "official", "players": 3})
    state = game.new_initial_state()
    state.apply_action(5)                      # the deal
    compiled = []
    real = compiler.compile_rulebook
    monkeypatch.setattr(compiler, "compile_rulebook", lambda *a, **k: compiled.append(1) or real(*a, **k))
    for _ in range(3):
        c = copy.deepcopy(state)
        assert c.inner.game is state.inner.game
        state.clone()
        s = pickle.loads(pickle.dumps(state.inner))
        assert s.game is state.inner.game and s.legal_actions() == state.inner.legal_actions()
    assert compiled == []


# ---- agents to play against (issue 30, item 4) ---------------------------------------------------
def test_rlcard_plays_greedy_and_search_agents_and_greedy_beats_random():
    need("rlcard")
    from rlcard.agents import RandomAgent
    from unorules.envs.rlcard import PolicyAgent, make
    import numpy as np
    np.random.seed(0)                                          # RLCard's RandomAgent draws from numpy's
    env = make(rulebook="rlcard", players=2, seed=3)
    env.set_agents([PolicyAgent("greedy", seed=1), RandomAgent(num_actions=env.num_actions)])
    wins = sum(env.run(is_training=False)[1][0] > 0 for _ in range(100))
    assert wins > 50                                           # greedy beats RLCard's random player (about 61%)
    env.set_agents([PolicyAgent("ismcts:4", seed=2), PolicyAgent("greedy", seed=3)])
    trajectories, payoffs = env.run(is_training=False)
    assert abs(sum(payoffs)) < 1e-9


def test_pettingzoo_and_openspiel_loops_take_a_policy():
    need("pettingzoo")
    pyspiel = need("pyspiel")
    import random
    import unorules.envs.openspiel  # noqa: F401
    from unorules.envs.pettingzoo import env
    from unorules.envs.policies import Policy, openspiel_action, pettingzoo_action
    greedy, rand = Policy("greedy", 0), Policy("random", 1)
    e = env(rulebook="official", players=2)
    won = 0
    for game in range(20):
        e.reset(seed=game)
        for agent in e.agent_iter():
            obs, reward, done, trunc, _ = e.last()
            if done or trunc:
                won += agent == "player_0" and reward > 0
                e.step(None)
                continue
            e.step(pettingzoo_action(e, greedy if agent == "player_0" else rand))
    assert won > 12
    game = pyspiel.load_game("unorules", {"rulebook": "official", "players": 2})
    rng = random.Random(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(openspiel_action(state, greedy if state.current_player() == 0 else rand))
    assert sum(state.returns()) == 0


def test_rlcard_rulebook_has_rlcard_s_own_61_actions_in_its_order_and_its_planes():
    """Issue 30, item 1: on `rulebooks/rlcard.uno` a player's ids are RLCard's, action for action,
    and `obs="rlcard"` gives RLCard's own 4×4×15 planes, equal to what RLCard encodes."""
    need("rlcard")
    import numpy as np
    from rlcard.games.uno.utils import ACTION_LIST, encode_hand, encode_target
    from unorules.envs.rlcard import make, rlcard_card
    env = make("rlcard", players=2, seed=4, obs="rlcard")
    space = env.engine.action_space
    assert env.num_actions == 61 == space.player_actions
    ours = [space.name(i).replace("play ", "") for i in range(61)]
    theirs = [a if "-" not in a else {"r": "red", "g": "green", "b": "blue", "y": "yellow"}[a[0]] + " " + a[2:]
              for a in ACTION_LIST]
    theirs = [t.replace("draw_2", "draw_two").replace("wild_draw_4", "wild_draw_four") for t in theirs]
    fix = {f"{c} {w}": f"{w} ({c})" for c in ("red", "green", "blue", "yellow") for w in ("wild", "wild_draw_four")}
    assert ours == [fix.get(t, t) for t in theirs]
    state, player = env.reset()
    s = env.game.state
    expected = np.zeros((4, 4, 15), dtype=int)
    encode_hand(expected[:3], [rlcard_card(s, c) for c in s.hands[player]])
    encode_target(expected[3], rlcard_card(s, s.discard[-1], s.color))
    assert env.state_shape[0] == [4, 4, 15] and (state["obs"] == expected).all()
    assert state["obs"][:3].sum() > 0 and state["obs"][3].sum() == 1
    deck = [rlcard_card(s, c) for c in range(s.ncards)]
    assert set(deck) <= set(ACTION_LIST) and len(set(deck)) == 54     # every card in RLCard's words
    with pytest.raises(ValueError, match="RLCard.s cards only"):
        make("official", players=2, obs="rlcard")


@pytest.mark.parametrize("steps", ["generated", "engine"])
def test_rlcard_s_planes_and_words_from_the_per_card_table_equal_rlcard_s_own_encoding(steps):
    """obs="rlcard" reads each card's cell and words from a table made once (RLCardWords): at every
    step of random games, equal to RLCard's encode_hand / encode_target of the cards' strings."""
    need("rlcard")
    import random
    from unorules.envs.rlcard import make, rlcard_card, rlcard_planes
    env = make("rlcard", players=3, seed=7, obs="rlcard", steps=steps)
    rng = random.Random(7)
    wilds_seen = 0
    for _ in range(6):
        state, player = env.reset()
        while not env.is_over():
            s = env.game.state
            for p in range(3):
                mine = env.game.get_state(p)
                assert (mine["obs"] == rlcard_planes(s, p)).all()
                raw = mine["raw_obs"]
                assert raw["hand"] == [rlcard_card(s, c) for c in s.hands[p]]
                assert raw["target"] == rlcard_card(s, s.discard[-1], s.color)
                assert raw["played_cards"] == [rlcard_card(s, c, s.color) for c in s.discard]
            wilds_seen += env.engine.rules.kinds[s.ckind[s.discard[-1]]].wild
            name = env.game.rlcard_actions()[rng.choice(list(state["legal_actions"]))]
            state, player = env.step(name, raw_action=True)        # RLCard's words, decoded by table
    assert wilds_seen > 0


def test_on_rlcard_the_adapter_behaves_as_rlcard_s_own_uno_env_and_its_rule_agent_plays():
    """What RLCard's own UNO env tests check of its env, here of the adapter on `rlcard` with
    obs="rlcard": 240 numbers of observation, legal ids up to 60, the step's player is the round's
    current player, step back, payoffs that sum to 0, ids decoded to RLCard's strings, the perfect
    information's current player, deterministic with a seed; and RLCard's rule agent plays in it."""
    need("rlcard")
    import numpy as np
    from rlcard.agents import RandomAgent
    from rlcard.games.uno.utils import ACTION_LIST
    from rlcard.models.uno_rule_models import UNORuleAgentV1
    from unorules.envs.rlcard import make
    np.random.seed(1)
    env = make("rlcard", players=2, seed=5, obs="rlcard", allow_step_back=True)
    state, player = env.reset()
    assert state["obs"].size == 240 and all(a <= 60 for a in env._get_legal_actions())
    assert [env._decode_action(a) for a in state["legal_actions"]] == [ACTION_LIST[a] for a in state["legal_actions"]]
    assert player == env.get_perfect_information()["current_player"]
    _, nxt = env.step(np.random.choice(list(state["legal_actions"])))
    assert nxt == env.game.round.current_player
    env.step_back()
    assert env.game.round.current_player == player
    runs = []
    for _ in range(2):
        e = make("rlcard", players=2, seed=9, obs="rlcard")
        e.set_agents([UNORuleAgentV1(), RandomAgent(num_actions=e.num_actions)])
        np.random.seed(3)
        trajectories, payoffs = e.run(is_training=False)
        assert len(trajectories) == 2 and sum(payoffs) == 0
        runs.append((list(payoffs), [len(t) for t in trajectories]))
    assert runs[0] == runs[1]                       # seeded: the same game twice
    env = make("rlcard", players=2, seed=2, obs="rlcard")
    env.set_agents([UNORuleAgentV1(), UNORuleAgentV1()])
    wins = [env.run(is_training=False)[1][0] for _ in range(20)]
    assert all(abs(w) == 1 for w in wins)
