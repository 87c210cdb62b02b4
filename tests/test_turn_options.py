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


def test_may_play_any_card_keeps_to_the_tables_play_only_when(tmp_path):
    """`may play any card` offers every card of the hand, but not one the table's `play only when`
    forbids (as explain says: the table's rule holds on a turn and by `may play`)."""
    from helpers import run_cli, write
    write(tmp_path, "any.uno", 'rulebook any "x"\nextends classic\n'
                               'card skip { action; points 20; on play: may play any card }\n'
                               'play only when card.color != green\n')
    write(tmp_path, "any.yaml", """scenarios:
  - name: a green card may not be played by may play any card
    rulebook: any.uno
    players: 2
    given:
      hands: {0: [red skip, green 7, blue 4, red 1], 1: [yellow 3]}
      discard: [red 3]
      draw_pile: [yellow 1]
      turn: 0
    defaults: {challenge: false, catch: false, jump_in: false, respond: false}
    script:
      - {player: 0, play: red skip}
      - {player: 0, play: green 7}
    expect: {error: "not one of the cards this further play allows"}
  - name: another card may
    rulebook: any.uno
    players: 2
    given:
      hands: {0: [red skip, green 7, blue 4, red 1], 1: [yellow 3]}
      discard: [red 3]
      draw_pile: [yellow 1]
      turn: 0
    defaults: {challenge: false, catch: false, jump_in: false, respond: false}
    script:
      - {player: 0, play: red skip}
      - {player: 0, play: blue 4}
    expect: {top: blue 4}
""")
    code, out, err = run_cli("test", tmp_path / "any.yaml")
    assert code == 0, out + err
