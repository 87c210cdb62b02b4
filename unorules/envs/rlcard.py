"""RLCard (extra `unorules[rlcard]`): an environment for any rulebook that RLCard's own agents
(RandomAgent, DQNAgent, NFSPAgent) run on unchanged.

    from unorules.envs.rlcard import make
    env = make(rulebook="official", players=4, seed=1)
    from rlcard.agents import RandomAgent
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    trajectories, payoffs = env.run()

The state's "obs" is the rulebook's observation tensor, "legal_actions" its legal action ids;
chance events draw on the game's own stream (seeded from the environment's). One round is one game.
The steps run on generated code where the code generator covers the rules (codegen/steps.py: the
engine's very games), else on the engine; `steps="engine"` asks for the engine, `steps="generated"`
for generated code or an error saying why not."""
from __future__ import annotations

from collections import OrderedDict

import numpy as np
from rlcard.envs.env import Env

from . import game_from_parameters, stepper_for

# RLCard's own config keys (rlcard.envs.env.Env reads them) and the adapter's (`obs`, `steps`); every
# other key is a rule (RULE_PARAMETERS)
RLCARD_KEYS = ("seed", "allow_step_back", "game_num_players", "game_num_cards", "game_num_decks", "obs", "steps")


OBSERVATIONS = ("unorules", "rlcard")


def _rlcard_words():
    """RLCard's colors and traits, in its order (rlcard.games.uno.card.UnoCard.info)."""
    from rlcard.games.uno.card import UnoCard
    return UnoCard.info["color"], UnoCard.info["trait"]


def rlcard_card(state, c, color=None) -> str:
    """Card c in RLCard's words: the rulebook's colors and kinds, in declaration order, stand for
    RLCard's colors and traits in its order (`obs="rlcard"` checks that they can). A wild is
    written with `color` (red by default: RLCard's planes mark a wild under every color)."""
    colors, traits = _rlcard_words()
    kind = state.rules.kinds[state.ckind[c]]
    col = color if kind.wild else state.ccolor[c]
    return f"{colors[col] if col is not None and col >= 0 else colors[0]}-{traits[kind.id]}"


def rlcard_planes(state, player):
    """RLCard's observation of `player`: its hand in planes 0-2 and the target card in plane 3."""
    from rlcard.games.uno.utils import encode_hand, encode_target
    obs = np.zeros((4, 4, 15), dtype=int)
    encode_hand(obs[:3], [rlcard_card(state, c) for c in state.hands[player]])
    if state.discard:
        encode_target(obs[3], rlcard_card(state, state.discard[-1], state.color))
    return obs


class RLCardWords:
    """A game's cards in RLCard's words and planes, made once per game (rlcard_card and
    rlcard_planes, the reference, are what they equal): per card its cell of the planes (color
    row, trait column; a wild's row is red's) and its string, and a wild's string per color."""

    def __init__(self, state):
        colors, traits = _rlcard_words()
        kinds = state.rules.kinds
        self.cell, self.word, self.wild = [], [], []
        for c in range(state.ncards):
            kind = kinds[state.ckind[c]]
            col = state.ccolor[c]
            row = 0 if kind.wild or col is None or col < 0 else col
            self.cell.append((row, kind.id, kind.wild))
            self.word.append(f"{colors[row]}-{traits[kind.id]}")
            self.wild.append([f"{colors[k]}-{traits[kind.id]}" for k in range(len(colors))] if kind.wild else None)

    def card(self, c, color) -> str:
        """rlcard_card(state, c, color)."""
        w = self.wild[c]
        if w is None:
            return self.word[c]
        return w[color] if color is not None and color >= 0 else w[0]

    def planes(self, state, player):
        """rlcard_planes(state, player): RLCard's encode_hand and encode_target, from the cells."""
        obs = np.zeros((4, 4, 15), dtype=int)
        obs[0] = 1
        held: dict = {}
        cell = self.cell
        for c in state.hands[player]:
            k = cell[c]
            held[k] = held.get(k, 0) + 1
        for (row, trait, wild), count in held.items():
            if wild:                             # a wild is marked under every color
                obs[0, :, trait] = 0
                obs[1, :, trait] = 1
            else:
                obs[0, row, trait] = 0
                obs[count, row, trait] = 1
        if state.discard:
            row, trait, wild = cell[state.discard[-1]]
            color = state.color
            obs[3, color if wild and color is not None and color >= 0 else row, trait] = 1
        return obs


def check_rlcard_cards(engine):
    """RLCard's planes have room for its 4 colors and 15 traits (10 numbers, 3 actions, 2 wilds):
    a rulebook fits when it has one side, 4 colors and 15 kinds in that shape, in that order."""
    rules = engine.rules
    colors, traits = _rlcard_words()
    shape = ["number"] * 10 + ["action"] * 3 + ["wild"] * 2
    if len(rules.sides) > 1 or len(rules.side_colors[0]) != len(colors) \
            or [k.category for k in rules.kinds] != shape or engine.action_space.player_actions != 61:
        raise ValueError("obs=\"rlcard\" gives RLCard's planes, which hold RLCard's cards only: one side, "
                         f"{len(colors)} colors, and {len(traits)} kinds declared as its are (10 numbers, "
                         "3 actions, 2 wilds, in that order)")


class _Round:
    """What RLCard's code reads of its game's round: whose turn it is."""

    def __init__(self, game):
        self.game = game

    @property
    def current_player(self):
        return self.game.get_player_id()


class UnoRulesGame:
    """The game interface RLCard's Env drives. With `obs="rlcard"` it speaks RLCard's language too:
    its raw state (hand, target, legal actions as RLCard's strings) for RLCard's rule agents, and
    actions given as those strings."""

    def __init__(self, engine, allow_step_back=False, obs="unorules", steps="auto"):
        self.engine = engine
        self.obs = obs
        self.stepper, self.steps_why = stepper_for(engine, steps)
        space = engine.action_space
        self._names = [space.name(i) for i in range(len(space))]       # raw_legal's, made once
        self._size = engine.observation_tensor_size()
        self.round = _Round(self)
        self.allow_step_back = allow_step_back
        self.np_random = np.random.RandomState()
        self.state = None
        self._history = []
        self._words = None         # obs="rlcard": RLCardWords, made at the first state

    def init_game(self):
        seed = int(self.np_random.randint(2 ** 31))
        # the game's chance events (a turned-up wild's color, a rule's chance) draw on the game's own
        # stream, as `simulate` draws them: on generated code (inside it) and on the engine alike,
        # so `steps="engine"` plays the very games generated code plays
        if self.stepper is not None:
            self.state = self.stepper.new_state(seed)
        else:
            self.state = self.engine.new_state(seed)
            self.state.play_chance()
        self._history = []
        return self.get_state(self.get_player_id()), self.get_player_id()

    def step(self, action):
        if self.allow_step_back:
            self._history.append(self.state.clone())
        if type(action) is not int:
            if isinstance(action, str):          # RLCard's own words (`r-5`, `draw`): obs="rlcard"
                ids = self.rlcard_ids()
                if action not in ids:
                    raise ValueError(f"{action!r} is not one of RLCard's actions here")
                action = ids[action]
            action = int(action)
        s = self.state
        s.apply_action(action)
        if self.stepper is None:
            s.play_chance()
        p = s.current_player()
        p = p if p >= 0 else 0
        return self.get_state(p), p

    def rlcard_actions(self) -> list:
        """The player's ids as RLCard names them (obs="rlcard": its colors and traits by position)."""
        if getattr(self, "_rlcard_names", None) is None:
            self._rlcard_names = self._rlcard_action_names()
        return self._rlcard_names

    def rlcard_ids(self) -> dict:
        """RLCard's action words -> the player's ids (the first id of a word)."""
        if getattr(self, "_rlcard_ids", None) is None:
            self._rlcard_ids = {}
            for i, name in enumerate(self.rlcard_actions()):
                self._rlcard_ids.setdefault(name, i)
        return self._rlcard_ids

    def _rlcard_action_names(self) -> list:
        colors, traits = _rlcard_words()
        space = self.engine.action_space
        out = []
        for i in range(space.player_actions):
            kind, face, color, _, _ = space.keys[i]
            if kind != "play":
                out.append(kind)
                continue
            c, k = self.engine.rules.faces[face]
            out.append(f"{colors[color if color is not None else c]}-{traits[k]}")
        return out

    def step_back(self):
        if not self._history:
            return False
        self.state = self._history.pop()
        return True

    def get_num_players(self):
        return self.engine.players

    def get_num_actions(self):
        """A player's actions: the ids below the chance outcomes (the environment plays chance)."""
        return self.engine.action_space.player_actions

    def get_player_id(self):
        p = self.state.current_player()
        return p if p >= 0 else 0

    def is_over(self):
        return self.state.terminal

    def get_state(self, player):
        s = self.state
        legal = s.legal_action_ids() if not s.terminal and s.current_player() == player else []
        if self.obs == "rlcard":
            names = self.rlcard_actions()
            words = self._words
            if words is None:
                words = self._words = RLCardWords(s)
            word, card, color = words.word, words.card, s.color
            return {"obs": words.planes(s, player), "legal": legal, "raw_legal": [names[i] for i in legal],
                    "raw_obs": {"hand": [word[c] for c in s.hands[player]],
                                "target": card(s.discard[-1], color) if s.discard else None,
                                "played_cards": [card(c, color) for c in s.discard],
                                "legal_actions": [names[i] for i in legal], "num_cards": [len(h) for h in s.hands],
                                "num_players": s.n, "current_player": self.get_player_id()}}
        obs = s.observation_tensor(player, np.zeros(self._size, np.float32))
        names = self._names
        raw_legal = [names[i] for i in legal]
        # already in the form the environment hands its agents (UnoRulesEnv._extract_state adds the rest)
        return {"obs": obs, "legal": legal, "raw_legal": raw_legal, "legal_actions": OrderedDict.fromkeys(legal),
                "raw_obs": obs, "raw_legal_actions": raw_legal}


class UnoRulesEnv(Env):
    name = "unorules"

    def __init__(self, config):
        rules = {k: v for k, v in config.items() if k not in RLCARD_KEYS}
        self.engine = game_from_parameters(rules, "the RLCard environment", defaults={"players": 4})
        obs = config.get("obs") or "unorules"
        if obs not in OBSERVATIONS:
            raise ValueError(f"`obs` is one of {', '.join(OBSERVATIONS)}, not {obs!r}")
        if obs == "rlcard":
            check_rlcard_cards(self.engine)
        self.game = UnoRulesGame(self.engine, config.get("allow_step_back", False), obs, config.get("steps") or "auto")
        super().__init__(config)
        shape = [4, 4, 15] if obs == "rlcard" else [self.engine.observation_tensor_size()]
        self.state_shape = [shape for _ in range(self.num_players)]
        self.action_shape = [None for _ in range(self.num_players)]

    def step(self, action, raw_action=False):
        """rlcard.envs.env.Env.step, asking for the player once: the same record, the same state."""
        if not raw_action:
            action = self._decode_action(action)
        self.timestep += 1
        p = self.game.state.current_player()
        self.action_recorder.append((p if p >= 0 else 0, action))
        next_state, player_id = self.game.step(action)
        return self._extract_state(next_state), player_id

    def seed(self, seed=None):
        self.np_random = np.random.RandomState(seed)
        self.game.np_random = self.np_random
        return seed

    def _extract_state(self, state):
        if "legal_actions" in state:          # the game's own state (made for this call), already in this form
            out = state
        else:
            out = {"obs": state["obs"], "legal_actions": OrderedDict.fromkeys(state["legal"]),
                   "raw_obs": state.get("raw_obs", state["obs"]), "raw_legal_actions": state["raw_legal"]}
        out["action_record"] = self.action_recorder
        out["unorules_state"] = self.game.state    # for PolicyAgent: the state now (engine_state() when stepped)
        return out

    def _decode_action(self, action_id):
        if self.game.obs == "rlcard":        # RLCard's string, as its own UNO env decodes
            return self.game.rlcard_actions()[int(action_id)]
        return action_id if type(action_id) is int else int(action_id)

    def _get_legal_actions(self):
        return self.game.state.legal_action_ids()

    def get_payoffs(self):
        return np.array(self.game.state.returns())

    def get_perfect_information(self):
        s = self.game.state
        return {"hands": [[s.card_name(c) for c in h] for h in s.hands],
                "top": s.card_name(s.discard[-1]) if s.discard else None, "current_player": s.current_player()}


class PolicyAgent:
    """An engine agent (`greedy`, `ismcts`, `random_play`, ...; unorules.envs.policies) as an RLCard
    agent: `env.set_agents([PolicyAgent("greedy"), ...])`."""
    use_raw = False

    def __init__(self, name: str = "greedy", seed: int = 0):
        from .policies import Policy
        self.policy = Policy(name, seed)

    def step(self, state):
        return self.policy(state["unorules_state"])

    def eval_step(self, state):
        return self.step(state), {}


def make(rulebook="official", players: int = 4, seed=None, allow_step_back=False, **kw):
    """An RLCard environment for a rulebook; the other rules as keywords (`include`, `with_` or
    `with`, `options`, `rounds`, `turn_cap`). An unknown keyword is a ValueError naming it."""
    config = {"rulebook": rulebook, "players": players, "seed": seed, "allow_step_back": allow_step_back}
    config.update(kw)
    return UnoRulesEnv(config)
