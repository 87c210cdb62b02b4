"""Turn options other engines have (issue 29, item 8), played whole: the greedy agent calls UNO
only when the call is true where a false call has a price, passes never, and games end."""
from __future__ import annotations

from helpers import ROOT
from unorules.agents.base import make_agents
from unorules.runs.simulation import RunSpec, make_game


def test_greedy_players_never_call_falsely_and_their_rounds_end():
    spec = RunSpec(str(ROOT / "tests" / "data" / "table_rules.uno"), players=4, agents=("greedy",), rounds="single")
    game = make_game(spec, log_events=True)
    for seed in range(10):
        s = game.new_state(seed)
        agents = make_agents(["greedy"] * 4, seed)
        while not s.terminal:
            d = s.decision
            a = s.rng.choices(d.options, d.probs)[0] if d.probs is not None else agents[s.seats[d.player]].act(s, d.options)
            s.apply_unchecked(a)
        types = [e["type"] for e in s.log]
        assert s.outcome == "win" and "false_call" not in types and "pass" not in types
        assert any(e["type"] == "play" and e.get("uno") for e in s.log) or "uno" not in types
