"""Hostile input (issue 17, section 2): every class gets a located error with exit 1 (or 2 for a
usage error), never an internal error (exit 3), a hang or a blow-up. Cases that used to hang run
in a subprocess with a time limit, so a regression fails instead of stalling the suite."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from helpers import ROOT, run_cli, write


def cli(*args, timeout=60, cwd=None):
    """Run the installed entry point in a subprocess: (exit code, stderr)."""
    p = subprocess.run([sys.executable, "-c", "from unorules.cli import main; main()", *map(str, args)],
                       capture_output=True, text=True, timeout=timeout, cwd=cwd)
    return p.returncode, p.stdout + p.stderr


RULEBOOK = "rulebook h\nextends classic\n"

UNO_CASES = {
    "huge_int": (RULEBOOK + "card wild_customizable { wild points " + "9" * 5000 + " }\ndeck { 1 × wild_customizable }\n",
                 "U0303", "too large", 3),
    "huge_range": (RULEBOOK + "card 0..2000000 { number }\n", "U0503", "the limit is 1,000", 3),
    "huge_count": (RULEBOOK + "card z { wild }\ndeck { " + "9" * 3000 + " × z }\n", "U0303", "too large", 4),
    "not_chain": (RULEBOOK + "card wild { wild playable when " + "not " * 4900 + "true }\n", "U0003", "nested more than", 3),
    "plus_chain": (RULEBOOK + "card wild { wild points 0\n" + " + 1\n" * 3000 + " }\n", "U0003", "nested more than", None),
    "minus_chain": (RULEBOOK + "card wild { wild points " + "-" * 19000 + "1 }\n", "U0003", "nested more than", 3),
    "attack_in_trigger": (RULEBOOK + "on turn_start: attack next { draw 1 }\n", "U0403", "needs a card", 3),
    "top_before_first_card": (RULEBOOK + "on round_start if top.color == red: draw 1\n", "U0207", "`top`", 3),
    "several_piles_together": (RULEBOOK + "piles a b\nturn { play same face together }\n", "U0404", "not supported", 4),
}


@pytest.mark.parametrize("case", sorted(UNO_CASES))
def test_hostile_rule_text_gets_a_located_error(tmp_path, case):
    text, code, words, line = UNO_CASES[case]
    p = write(tmp_path, f"{case}.uno", text)
    rc, out = cli("validate", p)
    assert rc == 1, out
    assert f"error[{code}]" in out and words in out, out
    if line is not None:
        assert f"{case}.uno:{line}:" in out
    assert "internal error" not in out and "Traceback" not in out


YAML_CASES = {
    "deep_flow.yaml": ("kind: rulebook\nname: x\ntitle: " + "[" * 9000 + "]" * 9000 + "\n", "U0003", ":3:"),
    "deep_map.yaml": ("kind: rulebook\nname: x\ntitle: " + "{a: " * 4000 + "1" + "}" * 4000 + "\n", "U0003", ":3:"),
    "deep.json": ('{"kind": "rulebook", "name": "x", "title": ' + "[" * 9000 + "]" * 9000 + "}", "U0003", ":1:"),
    "dup.yaml": ("kind: rulebook\nname: x\nname: y\nextends: classic\n", "U0103", ":3:1"),
    "dup.json": ('{"kind": "rulebook", "name": "x", "name": "y", "extends": "classic"}', "U0103", ":1:"),
    "int_key.yaml": ("kind: rulebook\nname: x\n1: 2\nextends: classic\n", "U0103", ":3:"),
    "float_count.yaml": ("kind: rulebook\nname: x\nextends: classic\ndeck: [{entries: [{kind: copies, count: 2.0, "
                         "faces: [wild]}]}]\n", "U0401", ":4:"),
    "nan_count.yaml": ("kind: rulebook\nname: x\nextends: classic\ndeck: [{entries: [{kind: copies, count: .nan, "
                       "faces: [wild]}]}]\n", "U0103", ":4:"),
    "surrogate.json": ('{"kind": "rulebook", "name": "x", "title": "\\ud800", "extends": "classic"}', "U0103", ":1:"),
    "newline_name.json": ('{"kind": "rulebook", "name": "h\\n", "extends": "classic"}', "U0401", ":1:"),
    "huge_int.json": ('{"kind": "rulebook", "name": "x", "extends": "classic", "players": {"min": 2, "max": '
                      + "9" * 5000 + "}}", "U0303", ":1:"),
    "huge_int.yaml": ("kind: rulebook\nname: x\nextends: classic\nplayers: {min: 2, max: " + "9" * 5000 + "}\n",
                      "U0303", ":4:"),
    "list_rulebook.yaml": ("- 1\n- 2\n", "U0401", None),
}


@pytest.mark.parametrize("name", sorted(YAML_CASES))
def test_hostile_yaml_and_json_get_a_located_error(tmp_path, name):
    text, code, where = YAML_CASES[name]
    p = write(tmp_path, name, text)
    rc, out = cli("validate", p)
    assert rc == 1 and f"error[{code}]" in out, out
    if where:
        assert f"{name}{where}" in out, out
    assert "internal error" not in out


def test_special_files_and_links_are_refused_without_reading_them(tmp_path):
    fifo = tmp_path / "pipe.uno"
    os.mkfifo(fifo)
    (tmp_path / "a.uno").symlink_to(tmp_path / "b.uno")
    (tmp_path / "b.uno").symlink_to(tmp_path / "a.uno")
    for target, words in ((fifo, "not a regular file"), (tmp_path / "a.uno", "leads back to itself"),
                          (tmp_path / ("n" * 300 + ".uno"), "cannot read"), ("/dev/zero", "unknown file type")):
        rc, out = cli("validate", target, timeout=30)
        assert rc == 1 and words in out and "internal error" not in out, (target, out)
    rc, out = cli("test", fifo, timeout=30)
    assert rc == 1 and "not a regular file" in out


def test_an_include_diamond_is_assembled_once_per_file(tmp_path):
    depth = 24                       # 2^24 paths through the diamond; one visit per file
    for i in range(depth):
        inc = f"include m{i + 1}a, m{i + 1}b\n" if i < depth - 1 else "include leaf\n"
        for v in "ab":
            write(tmp_path, f"m{i}{v}.uno", f"module m{i}{v}\n{inc}")
    write(tmp_path, "leaf.uno", "module leaf\non play of 1: score 1\n")
    top = write(tmp_path, "top.uno", "rulebook top\nextends classic\ninclude m0a, m0b\n")
    rc, out = cli("validate", top, timeout=60)
    assert rc == 0, out
    from unorules.language.loader import load
    assert len(load(top).ir["triggers"]) == 1          # the shared module is laid once


def test_a_match_no_one_can_win_ends_stalled(tmp_path):
    p = write(tmp_path, "nowin.uno", RULEBOOK + "".join(
        f"card {k} {{ points 0 }}\n" for k in ("0..9", "skip", "reverse", "draw_two", "wild", "wild_draw_four"))
        + "scoring { target 500 }\n")
    from unorules import simulate
    summary = simulate(p, games=1, players=2, rounds="match")
    assert summary["outcomes"] == {"stalled": 1}


@pytest.mark.parametrize("body, words", [
    ("given: [1, 2]", "`given` must be a mapping"),
    ("given: {hands: [1, 2]}", "`given.hands` must be a mapping of seats"),
    ("given: {hands: {0: red 1}}", "`given.hands.0` must be a list"),
    ("seed: abc\ngiven: {hands: {0: [red 1]}, discard: [red 2]}", "`seed` must be a whole number"),
    ("given: {hands: {0: [red 1]}, discard: [red 2], scores: {0: lots}}", "`given.scores.0` must be a number"),
    ("given: {hands: {0: [red 1]}, discard: [red 2]}\nexpect: {scores: {9: 1}}", "seat `9` is out of range"),
    ("given: {hands: {0: [red 1]}, discard: [red 2]}\nexpect: [1]", "`expect` must be a mapping"),
    ("given: {hands: {0: [red 1]}, discard: [red 2]}\nexpect: {events: {type: play}}", "`expect.events` must be a list"),
    ("given: {hands: {0: [red 1]}, discard: [red 2]}\ndefaults: [1]", "`defaults` must be a mapping"),
    ("given: {hands: {0: [red 1]}, discard: [red 2]}\nscript: [{player: 0, play: [1, 2]}]", "must be text"),
    ("players: 2.5\ngiven: {hands: {0: [red 1]}, discard: [red 2]}", "`players` must be a whole number"),
    ("given: {hands: {0: [red 1]}, discard: [red 2], counters: [1]}", "`given.counters` must be a mapping"),
])
def test_scenario_values_of_the_wrong_shape_are_located_errors(tmp_path, body, words):
    p = write(tmp_path, "s.yaml", "name: s\nrulebook: classic\n" + ("" if "players" in body else "players: 2\n") + body
              + "\n")
    code, out, err = run_cli("test", p)
    assert code == 1 and words in out and "s.yaml:" in out, out


@pytest.mark.parametrize("rulebook", ["/etc/passwd.uno", "../../../etc/x.uno"])
def test_a_scenario_cannot_read_files_outside_its_folder(tmp_path, rulebook):
    p = write(tmp_path, "s.yaml", f"name: s\nrulebook: {rulebook}\nplayers: 2\n")
    code, out, err = run_cli("test", p)
    assert code == 1 and "outside the scenario's folder" in out


@pytest.mark.parametrize("args, words", [
    (("simulate", "classic", "-n", "2", "--include", "../x"), "not a module name"),
    (("simulate", "classic", "-n", "2", "--include", "/etc/passwd"), "not a module name"),
    (("compare", "official", "--with", "everyone_draws", "--agents", "greedy,,random"), "not a comma-separated list"),
    (("compare", "official", "--with", "everyone_draws", "--agents", "smart"), "unknown agent `smart`"),
    (("simulate", "bts", "-n", "2", "--option", "dance_chance=abc"), "takes a number"),
])
def test_bad_options_are_usage_errors(args, words):
    code, out, err = run_cli(*args)
    assert code == 2 and words in err, err


def test_titles_and_names_cannot_send_escape_sequences(tmp_path):
    p = write(tmp_path, "esc.uno", 'rulebook esc "\x1b[31mred\x1b[0m"\nextends classic\n')
    rc, out = cli("explain", p)
    assert rc == 0 and "\x1b" not in out and "\\x1b[31mred" in out


def test_ctrl_c_exits_130_and_an_events_file_says_it_was_cut(tmp_path):
    import signal
    import time
    events = tmp_path / "ev.jsonl"
    # the child answers Ctrl-C as a terminal's process would, whatever the test process's own
    # disposition of SIGINT (a child inherits SIG_IGN, and Python then installs no handler)
    child = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
             "from unorules.cli import main; main()")
    p = subprocess.Popen([sys.executable, "-c", child, "simulate", "classic", "-n", "1000000", "--events", str(events)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    for _ in range(200):
        time.sleep(0.1)
        if events.exists() and events.stat().st_size > 0:
            break
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)        # reads the pipes as it waits: a full pipe cannot stall the child
    assert p.returncode == 130, err
    last = events.read_text().splitlines()[-1]
    assert json.loads(last)["interrupted"] is True


def test_play_refuses_unicode_digits(tmp_path):
    code, out, err = run_cli("play", "classic", "--seed", "1", "--players", "2", input="²\n" * 3)
    assert code == 0 and "Please type a number" in out


def test_the_keyword_in_another_context_is_still_a_name():
    from unorules.language.parser import parse_uno
    ir = parse_uno("rulebook t card x { challenge: attacker draw 1 target draw 2 } card y { on play: attack next {} }")[0]
    acts = ir["cards"][0]["challenge"]
    assert [a["subject"]["name"] for a in acts] == ["attacker", "target"]


def test_events_with_workers_say_they_run_in_one_process(tmp_path):
    code, out, err = run_cli("simulate", "classic", "-n", "4", "--workers", "2", "--events", tmp_path / "e.jsonl")
    assert code == 0 and "uses one process" in err
