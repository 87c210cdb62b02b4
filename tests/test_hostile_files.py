"""Files from elsewhere are hostile: an events file's header and lines, a result given to `report`,
the Python API's arguments; and no command replaces its own input or writes a format its file name
does not say. Each case was an exit 3, a hang or a silent wrong answer."""
from __future__ import annotations

import json
import os
import random
import re

import pytest

import unorules
from helpers import run_cli, write


@pytest.fixture(scope="module")
def events(tmp_path_factory):
    path = tmp_path_factory.mktemp("events") / "run.jsonl"
    code, out, err = run_cli("simulate", "classic", "--games", "3", "--workers", "1", "--events", path)
    assert code == 0, err
    return path


def forged(tmp_path, events, change=None, lines=None, raw_head=None):
    head, *rest = events.read_text().splitlines()
    d = json.loads(head)
    if change:
        change(d)
    body = rest if lines is None else lines
    text = (raw_head if raw_head is not None else json.dumps(d)) + "\n" + "".join(line + "\n" for line in body)
    return write(tmp_path, "forged.jsonl", text)


def test_an_events_file_replays(events):
    code, out, err = run_cli("replay", events)
    assert code == 0 and "every event replays the same" in out


@pytest.mark.parametrize("key, value", [("players", "2"), ("seed", 1.5), ("seed", "x"), ("rounds", "weird"),
                                        ("agents", ["nobody"]), ("options", [1]), ("perform_chance", 7),
                                        ("simulator", "fast"), ("resolved", "official")])
def test_a_header_field_of_the_wrong_shape_is_refused_by_name(tmp_path, events, key, value):
    p = forged(tmp_path, events, lambda d: d.__setitem__(key, value))
    code, out, err = run_cli("replay", p)
    assert code == 1 and f"`{key}`" in err and "Traceback" not in err


def test_a_header_missing_a_field_or_nested_without_end_is_refused(tmp_path, events):
    p = forged(tmp_path, events, lambda d: d.pop("seed"))
    code, out, err = run_cli("replay", p)
    assert code == 1 and "no `seed`" in err
    p = forged(tmp_path, events, raw_head="[" * 100_000)
    code, out, err = run_cli("replay", p)
    assert code == 1 and "not JSON" in err


def test_the_header_paths_are_never_read(tmp_path, events):
    secret = write(tmp_path, "secret.uno", "rulebook secret\nextends classic\ncard skip { on play: draw bleu }\n")
    p = forged(tmp_path, events, lambda d: d.update(rulebook=str(secret), **{"with": [str(secret)]}))
    code, out, err = run_cli("replay", p)
    assert code == 0 and "bleu" not in out + err          # the merged rulebook in the header is what plays
    extends = forged(tmp_path, events, lambda d: d["resolved"].update(extends=str(secret)))
    code, out, err = run_cli("replay", extends)
    assert code == 1 and "bleu" not in out + err


def test_events_without_a_game_or_out_of_order_do_not_replay(tmp_path, events):
    head, *rest = events.read_text().splitlines()
    stripped = [json.dumps({k: v for k, v in json.loads(line).items() if k != "game"}) for line in rest]
    code, out, err = run_cli("replay", forged(tmp_path, events, lines=stripped))
    assert code == 1 and "names its `game`" in err
    code, out, err = run_cli("replay", forged(tmp_path, events, lines=[]))
    assert code == 1 and "holds no game" in err
    changed = list(rest)
    changed[5] = json.dumps({**json.loads(changed[5]), "player": 9})
    code, out, err = run_cli("replay", forged(tmp_path, events, lines=changed))
    assert code == 1 and "mismatch" in err


# ---- report: a result is checked against the schema of results first --------------------------

@pytest.fixture(scope="module")
def result(tmp_path_factory):
    code, out, err = run_cli("simulate", "classic", "--games", "10", "--workers", "1", "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(games=10 ** 30), "`games`"),
    (lambda d: d.update(players=10 ** 9), "`players`"),
    (lambda d: d["wins_by_seat"]["0"].update(wins="many"), "`wins_by_seat/0/wins`"),
    (lambda d: d["histograms"].update(turns_per_round=[[1, 2, 3]]), "`histograms/turns_per_round/0`"),
])
def test_report_refuses_a_result_simulate_never_writes(tmp_path, result, change, words):
    d = json.loads(json.dumps(result))
    change(d)
    p = write(tmp_path, "r.json", json.dumps(d))
    code, out, err = run_cli("report", p, "-o", tmp_path / "r.html")
    assert code == 2 and words in err and not (tmp_path / "r.html").exists()


def test_report_refuses_infinity_and_nesting(tmp_path, result):
    p = write(tmp_path, "r.json", json.dumps(result).replace('"turns_per_round_sd": ', '"turns_per_round_sd": Infinity, "x": ', 1))
    code, out, err = run_cli("report", p, "-o", tmp_path / "r.html")
    assert code == 2 and "Infinity" in err
    p = write(tmp_path, "n.json", "[" * 100_000 + "]" * 100_000)
    code, out, err = run_cli("report", p, "-o", tmp_path / "r.html")
    assert code == 2


# ---- the Python API names the argument it cannot take -----------------------------------------

def test_the_api_refuses_bad_arguments_by_name():
    game = unorules.Game("official", players=3)
    s = game.new_state(1)
    cases = [(lambda: s.observation_tensor(-1), "`p`"), (lambda: s.resample_hidden(-1, random.Random(1)), "`player`"),
             (lambda: s.resample_hidden(99, random.Random(1)), "`player`"), (lambda: game.deserialize_state("[1]"), "`text`"),
             (lambda: game.deserialize_state("[" * 100_000), "`text`"),
             (lambda: unorules.simulate("official", games=2, seed="x"), "`seed`"),
             (lambda: unorules.simulate("official", games=2, players=10 ** 9), "`players`")]
    for call, name in cases:
        with pytest.raises(ValueError) as e:
            call()
        assert name in str(e.value)
    assert game.deserialize_state(s.serialize()).history() == s.history()


# ---- no file overwritten, no output in the wrong format ----------------------------------------

def test_no_command_replaces_its_own_input(tmp_path):
    from helpers import DATA
    p = write(tmp_path, "my.uno", (DATA / "house.uno").read_text())
    before = p.read_text()
    for args in (("export", p, "-o", p), ("simulate", p, "--games", "2", "--events", p),
                 ("simulate", p, "--games", "2", "--report", p), ("compare", p, "classic", "--games", "2", "--report", p)):
        code, out, err = run_cli(*args)
        assert code == 2 and "one of this command's inputs" in err, args
    assert p.read_text() == before
    r = write(tmp_path, "r.json", "{}")
    code, out, err = run_cli("report", r, "-o", r)
    assert code == 2 and r.read_text() == "{}"


@pytest.mark.parametrize("name", ["new.uno", "new.json", "new.yaml", "new.yml"])
def test_export_writes_the_format_its_file_name_says(tmp_path, name):
    out = tmp_path / name
    code, _, err = run_cli("export", "classic", "--resolved", "-o", out)
    assert code == 0, err
    code, _, err = run_cli("validate", out)
    assert code == 0, err
    code, _, err = run_cli("export", "classic", "-o", tmp_path / "x.json", "--format", "yaml")
    assert code == 2 and "names json" in err


def test_a_full_disk_a_long_card_name_and_a_number_key_are_errors_not_crashes(tmp_path):
    code, out, err = run_cli("simulate", "classic", "--games", "2", "--workers", "1", "--events", "/dev/full")
    assert code == 2 and "No space left" in err
    code, out, err = run_cli("new", "card", "a" * 300, "-o", tmp_path / "x.uno")
    assert code == 2 and "at most 64" in err
    code, out, err = run_cli("new", "card", "ok", "-o", tmp_path / ("b" * 300 + ".uno"))
    assert code == 2 and "cannot write" in err
    p = write(tmp_path, "k.yaml", "kind: rulebook\nname: k\nextends: classic\ncounters:\n"
                                  "- {kind: counter, name: c, per: game}\n- {1: x, a: y}\n")
    code, out, err = run_cli("validate", p)
    assert code == 1 and "k.yaml:6:4" in err and "a key must be text" in err


# the fourth audit (issue 59): outputs, replays and results

def test_events_onto_a_hard_link_of_the_rulebook_is_refused(tmp_path):
    rulebook = write(tmp_path, "mine.uno", "rulebook mine\nextends classic\n")
    link = tmp_path / "events.jsonl"
    os.link(rulebook, link)
    code, out, err = run_cli("simulate", rulebook, "-n", "2", "--events", link)
    assert code == 2 and "is one of this command's inputs" in err
    assert rulebook.read_text() == "rulebook mine\nextends classic\n"


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1", "many"])
def test_precision_must_be_a_finite_number_above_zero(value):
    code, out, err = run_cli("simulate", "classic", "-n", "2", "--precision", value)
    assert code == 2 and "--precision" in err and "internal error" not in err


def rule_error_rulebook(tmp_path):
    """classic whose next dealer is nobody when no other player holds over 500 cards: a rule error."""
    return write(tmp_path, "located.uno", "rulebook located\nextends classic\nscoring {\n  winner scores others\n"
                 "  rounds 3\n  next dealer most(each other as q where q.hand.size > 500: q.score)\n}\n")


@pytest.mark.parametrize("simulator", ["engine", "counted"])
def test_a_run_whose_games_end_in_a_rule_error_replays(tmp_path, simulator):
    path = rule_error_rulebook(tmp_path)
    events = tmp_path / "e.jsonl"
    code, out, err = run_cli("simulate", path, "-n", "2", "--players", "3", "--simulator", simulator, "--events", events)
    assert code == 1 and "runtime rule errors" in out and "located.uno:6:15" in events.read_text()
    code, out, err = run_cli("replay", events)
    assert code == 0 and "2 games" in out, err
    events.write_text(events.read_text().replace("not nobody", "not anybody"))   # the words still count
    code, out, err = run_cli("replay", events)
    assert code == 1 and "mismatch: game 0" in err


def test_a_replay_stops_at_the_first_difference(tmp_path, monkeypatch):
    from unorules.runs import replay as replaying
    events = tmp_path / "e.jsonl"
    assert run_cli("simulate", "classic", "-n", "1", "--events", events)[0] == 0
    lines = events.read_text().splitlines()
    first = json.loads(lines[3])
    first["type"] = "changed"
    lines[3] = json.dumps(first)
    events.write_text("\n".join(lines) + "\n")
    made = []
    original = replaying._Against.append
    monkeypatch.setattr(replaying._Against, "append", lambda self, ev: (made.append(ev), original(self, ev)))
    report = replaying.replay(events)
    assert report.mismatch and "event 2" in report.mismatch
    assert len(made) == 3                       # no event made past the first that differs


def test_a_time_budget_is_said_not_repeatable_and_its_run_not_replayed(tmp_path):
    events = tmp_path / "e.jsonl"
    code, out, err = run_cli("simulate", "classic", "-n", "1", "--agents", "ismcts:0.001s,greedy", "--events", events)
    assert code == 0 and "not repeatable" in err
    code, out, err = run_cli("replay", events)
    assert code == 1 and "time budget" in err and "ismcts:200" in err
    head, *rest = events.read_text().splitlines()
    header = json.loads(head)
    header["agents"] = ["ismcts:600s"]
    events.write_text("\n".join([json.dumps(header), *rest]) + "\n")
    code, out, err = run_cli("replay", events)                # refused at once, never searched for 600 s a move
    assert code == 1 and "time budget" in err


def test_a_header_naming_native_for_rules_native_code_does_not_run_is_refused(tmp_path):
    events = tmp_path / "e.jsonl"
    assert run_cli("simulate", "flip", "-n", "1", "--simulator", "engine", "--events", events)[0] == 0
    head, *rest = events.read_text().splitlines()
    header = json.loads(head)
    header["simulator"] = "native"
    events.write_text("\n".join([json.dumps(header), *rest]) + "\n")
    code, out, err = run_cli("replay", events)
    assert code == 1 and "names native code, which does not run its rulebook" in err


def test_report_reads_a_team_games_json(tmp_path):
    result = tmp_path / "team.json"
    code, out, err = run_cli("simulate", "official", "--include", "partners", "-n", "4", "--players", "4", "--json")
    assert code == 0 and '"seats"' in out
    result.write_text(out)
    code, out, err = run_cli("report", result, "-o", tmp_path / "team.html")
    assert code == 0, err
    assert (tmp_path / "team.html").exists()


def test_report_refuses_a_followed_card_nested_deep(tmp_path):
    code, out, err = run_cli("simulate", "classic", "-n", "2", "--json")
    d = json.loads(out)
    node = d["tracked_card"] = {"players": 1, "wins": 0, "rate": 0, "ci95": [0, 0]}
    for _ in range(400):
        node["others"] = {"players": 1, "wins": 0, "rate": 0, "ci95": [0, 0]}
        node = node["others"]
    (tmp_path / "deep.json").write_text(json.dumps(d))
    code, out, err = run_cli("report", tmp_path / "deep.json", "-o", tmp_path / "deep.html")
    assert code == 2 and "nested more than" in err and "internal error" not in err


def _deep(levels):
    node = top = {}
    for _ in range(levels):
        node["x"] = {}
        node = node["x"]
    return top


@pytest.mark.parametrize("params, said", [
    ({"players": float("inf")}, "`players` is a whole number"),
    ({"players": "inf"}, "`players` is a whole number"),
    ({"players": True}, "`players` is a whole number"),
    ({"players": 10 ** 30}, "`players` is a whole number from 2"),
    ({"turn_cap": float("inf")}, "`turn_cap` is a whole number"),
    ({"options": {1: 2}}, "1 is not a name"),
    ({"options": {"x": float("nan")}}, "the option `x` takes a number"),
    ({"options": _deep(100_000)}, "the option `x` takes a number"),
    ({"options": "[" * 100_000}, "`options` is not a JSON object"),
])
def test_the_adapters_parameters_are_refused_by_name(params, said):
    """players=inf, deep options and option names that are not text were exits 3 (an
    OverflowError, a RecursionError, a TypeError): each is a ValueError that says which."""
    from unorules.envs import game_from_parameters
    with pytest.raises(ValueError, match=re.escape(said)):
        game_from_parameters(params, "the test")


def test_an_adapter_refuses_infinite_players():
    pytest.importorskip("pettingzoo")
    from unorules.envs.pettingzoo import env
    with pytest.raises(ValueError, match="`players` is a whole number"):
        env(players=float("inf"))
