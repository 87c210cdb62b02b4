"""Tools an author can trust: fmt and export never lose data and round-trip, output paths that
cannot be written are usage errors (issue 17, section 1)."""
from __future__ import annotations

import os
import stat

import pytest
import yaml

from helpers import DATA, run_cli
from unorules.language.authoring import new_card
from unorules.language.loader import load, parse_file, resolved_ir, shipped_names

SHIPPED = sorted(shipped_names().items())


# ---- fmt on YAML and JSON: their own format, never .uno text ---------------------------------

@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_fmt_write_keeps_a_yaml_or_json_rulebook_in_its_format(tmp_path, fmt):
    code, out, _ = run_cli("export", "classic", "--format", fmt)
    assert code == 0
    data = yaml.safe_load(out)
    # the same data with its keys shuffled and spaced differently: not canonical
    shuffled = {k: data[k] for k in reversed(list(data))}
    p = tmp_path / f"classic.{fmt}"
    p.write_text(yaml.safe_dump(shuffled, sort_keys=False) if fmt == "yaml" else
                 __import__("json").dumps(shuffled, indent=4))
    before = parse_file(p).ir
    code, _, err = run_cli("fmt", "--check", p)
    assert code == 1 and "would reformat" in err
    code, _, err = run_cli("fmt", "--write", p)
    assert code == 0, err
    assert parse_file(p).ir == before                     # it still loads, to the same IR
    assert not p.read_text().lstrip().startswith("rulebook")
    code, _, err = run_cli("fmt", "--check", p)           # and is now canonical
    assert code == 0, err
    assert load(p).ir == load("classic").ir


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_exported_yaml_and_json_are_already_canonical(tmp_path, fmt):
    code, out, _ = run_cli("export", "official", "--format", fmt)
    p = tmp_path / f"official.{fmt}"
    p.write_text(out)
    code, _, err = run_cli("fmt", "--check", p)
    assert code == 0, err


def test_fmt_refuses_to_drop_yaml_comments(tmp_path):
    p = tmp_path / "house.yaml"
    text = "# my notes\nname: house\nkind: rulebook   # a module would do too\nextends: classic\n"
    p.write_text(text)
    code, _, err = run_cli("fmt", "--write", p)
    assert code == 1
    assert "U0005" in err and "comments" in err and "house.yaml:1:" in err
    assert p.read_text() == text                           # untouched


def test_a_hash_inside_a_yaml_string_is_not_a_comment(tmp_path):
    from unorules.language.writer import yaml_comment_lines
    assert yaml_comment_lines("title: 'a # b'\nname: x # real\n") == [2]
    assert yaml_comment_lines('title: "#1"\n') == []


def test_fmt_write_is_atomic_and_keeps_the_mode(tmp_path):
    p = tmp_path / "house.uno"
    p.write_text("rulebook house extends classic\ncard wild_customizable { wild points 40 }\n")
    os.chmod(p, 0o640)
    code, _, err = run_cli("fmt", "--write", p)
    assert code == 0, err
    assert stat.S_IMODE(p.stat().st_mode) == 0o640
    assert "\nextends classic\n" in p.read_text()
    assert [f.name for f in tmp_path.iterdir()] == ["house.uno"]        # no temporary file left


def test_fmt_write_follows_a_link_to_its_file(tmp_path):
    real = tmp_path / "real.uno"
    real.write_text("rulebook r extends classic\n")
    link = tmp_path / "link.uno"
    link.symlink_to(real)
    code, _, err = run_cli("fmt", "--write", link)
    assert code == 0, err
    assert link.is_symlink() and real.read_text() == "rulebook r\n\nextends classic\n"


# ---- fmt keeps comments where they were --------------------------------------------------------

def test_the_new_card_template_is_fmt_clean(tmp_path):
    for name, existing, replace in (("wild_customizable", {"wild_customizable"}, None), ("boom", set(), None),
                                    ("blank", {"wild_customizable"}, "wild_customizable")):
        p = tmp_path / f"{name}.uno"
        p.write_text(new_card(name, "official", p.name, existing, replace))
        code, _, err = run_cli("fmt", "--check", p)
        assert code == 0, err


MESSY = """\
# header comment
rulebook messy "x"   # trailing the header
extends classic
card boom {   # after the brace
  wild
  points 50  # fifty
  # before the effect
  on play:
      choose color # pick
      # inside, before the if
      if me.hand.size > 3 { next draw 1 }   # trailing the if
      else {
        # in the else
        reverse
      }
  # closing the card
}
deck { 4 × boom }   # the deck
# the end
"""


def test_comments_stay_with_the_code_they_precede_or_follow(tmp_path):
    p = tmp_path / "messy.uno"
    p.write_text(MESSY)
    code, out, err = run_cli("fmt", p)
    assert code == 0, err
    lines = out.splitlines()

    def after(comment):                     # the line that follows a comment line
        return lines[[ln.strip() for ln in lines].index(comment) + 1].strip()

    assert lines[0] == "# header comment" and lines[1] == 'rulebook messy "x"   # trailing the header'
    assert "  points 50  # fifty" in lines
    assert after("# before the effect") == "on play:"
    assert "    choose color # pick" in lines
    assert after("# inside, before the if") == "if me.hand.size > 3 { next draw 1 }   # trailing the if"
    assert after("# in the else") == "reverse"
    assert after("# closing the card") == "}"
    assert "card boom {   # after the brace" in lines
    assert lines[-1] == "# the end"
    p.write_text(out)                                      # and formatting is idempotent
    assert run_cli("fmt", "--check", p)[0] == 0


def test_the_parser_keeps_no_state_between_parses():
    from unorules.language import parser
    assert not hasattr(parser, "_comments")


# ---- export --resolved loads back ----------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["yaml", "json"])
@pytest.mark.parametrize("name", [n for n, _ in SHIPPED])
def test_a_resolved_export_loads_to_the_same_rules(tmp_path, name, fmt):
    code, out, err = run_cli("export", name, "--resolved", "--format", fmt)
    assert code == 0, err
    assert "&id" not in out and "*id" not in out
    p = tmp_path / f"resolved.{fmt}"
    p.write_text(out)
    again = load(p)                                        # no conflicts, no anchors
    assert again.ir == resolved_ir(load(name))


def test_a_resolved_export_of_a_stack_of_modules_and_cards(tmp_path):
    code, out, err = run_cli("export", "official", "--resolved", "--include", "stacking", "--include", "jump_in",
                             "--with", "everyone_draws", "--format", "json")
    assert code == 0, err
    p = tmp_path / "stack.json"
    p.write_text(out)
    assert load(p).ir == resolved_ir(load("official", include=("stacking", "jump_in"), with_=("everyone_draws",)))


# ---- outputs that cannot be written: usage errors, exit 2 ------------------------------------------

@pytest.mark.parametrize("args", [
    ("simulate", "classic", "-n", "2", "--events", "/nonexistent/x.jsonl"),
    ("export", "classic", "-o", "/nonexistent/x.yaml"),
    ("new", "card", "boom", "-o", "/nonexistent/boom.uno"),
    ("export", "classic", "-o", "/dev/full"),
    ("simulate", "classic", "-n", "2", "--events", "/proc/version"),
])
def test_an_unwritable_output_is_a_usage_error(args):
    code, out, err = run_cli(*args)
    assert code == 2, (out, err)
    assert "cannot write" in err and "/" in err
    assert os.path.exists("/dev/full") and not os.path.isfile("/dev/full")     # a device is never replaced


def test_export_output_reads_back(tmp_path):
    p = tmp_path / "out.yaml"
    code, _, err = run_cli("export", DATA / "everything.uno", "-o", p)
    assert code == 0, err
    assert parse_file(p).ir == parse_file(DATA / "everything.uno").ir


# ---- output a user can rely on ---------------------------------------------------------------------

def test_an_events_file_replays_and_a_changed_event_is_found(tmp_path):
    import json
    events = tmp_path / "e.jsonl"
    code, out, err = run_cli("simulate", "official", "--include", "stacking", "-n", "12", "--agents", "random,greedy",
                             "--events", events)
    assert code == 0
    lines = events.read_text().splitlines()
    head = json.loads(lines[0])
    assert head["rulebook"] == "official" and head["include"] == ["stacking"] and head["agents"] == ["random", "greedy"]
    deal = next(json.loads(x) for x in lines if '"type":"deal"' in x)
    assert sum(len(h) for h in deal["hands"].values()) == 28          # the deal in full
    assert all("why" in json.loads(x) for x in lines if '"type":"draw"' in x)
    code, out, err = run_cli("replay", events)
    assert code == 0 and "12 games" in out and "replays the same" in out
    i = next(i for i, x in enumerate(lines) if '"type":"draw"' in x and i > 50)
    ev = json.loads(lines[i])
    ev["cards"] = ["red 0"] * ev["count"]
    lines[i] = json.dumps(ev)
    events.write_text("\n".join(lines) + "\n")
    code, out, err = run_cli("replay", events)
    assert code == 1 and "mismatch" in err and f"event {ev['seq']}" in err


def test_replay_refuses_a_file_that_is_not_an_events_file(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_text('{"a": 1}\n')
    code, out, err = run_cli("replay", p)
    assert code == 1 and "not an events file" in err


def test_compare_keeps_its_columns_apart_and_names_both_variants():
    import re
    code, out, err = run_cli("compare", "official", "--with", "everyone_draws", "--include", "stacking", "-n", "60")
    assert code == 0
    assert "official + stacking + everyone_draws" in out
    for line in out.splitlines():
        assert not re.search(r"of [\d,]*\d\.\d+%", line), line           # no cells run together
        cells = re.split(r"\s{3,}", line.strip())
        if line.startswith("played"):
            assert len(cells) == 3, line


def test_compare_json_names_the_variants_and_leaves_out_an_untracked_card():
    import json
    code, out, err = run_cli("compare", "official", "classic", "-n", "20", "--json")
    d = json.loads(out)
    assert [v["rulebook"] for v in d["variants"]] == ["official", "classic"]
    assert all("tracked_card" not in r for r in d["results"])
    code, out, err = run_cli("compare", "official", "--with", "everyone_draws", "-n", "20", "--json")
    d = json.loads(out)
    assert d["variants"][1]["with"] == ["everyone_draws"] and "tracked_card" in d["results"][1]


def test_simulate_json_names_the_variant_and_shows_progress_on_stderr():
    import json
    code, out, err = run_cli("simulate", "bts", "--include", "stacking", "--option", "dance_chance=0.25", "-n", "200",
                             "--json")
    d = json.loads(out)
    assert d["rulebook"] == "bts" and d["include"] == ["stacking"] and d["options"] == {"dance_chance": 0.25}
    assert "tracked_card" not in d and "simulating" in err
