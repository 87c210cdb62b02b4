"""`no points` (lazy scoring): rounds have winners and no totals; with `rounds N` the match goes to
the most rounds won (issue 29, item 4)."""
from __future__ import annotations

import random

from helpers import run_cli, write
from unorules.engine import Game
from unorules.engine.compiler import compile_rulebook
from unorules.language.loader import load


def test_a_match_of_rounds_without_points_goes_to_the_most_rounds_won(tmp_path):
    p = write(tmp_path, "lazy.uno", 'rulebook lazy "x"\nextends classic\ninclude lazy_scoring\nscoring { rounds 3 }\n')
    game = Game(compile_rulebook(load(p)), 3)
    for seed in range(8):
        s = game.new_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        if s.outcome != "win":
            continue
        assert s.scores == [0, 0, 0] and s.round == 3 and sum(s.rounds_won) == 3
        assert s.rounds_won[s.winner] == max(s.rounds_won)
        assert s.winner == min(q for q in range(3) if s.rounds_won[q] == max(s.rounds_won))


def test_a_target_without_points_is_refused(tmp_path):
    p = write(tmp_path, "bad.uno", 'rulebook bad "x"\nextends classic\nscoring { no points }\n')
    code, _, err = run_cli("validate", p)
    assert code == 1 and "U0403" in err and "`no points` keeps no totals, so `target` can never be reached" in err
    assert "remove scoring target" in err


def test_two_modules_that_remove_the_same_setting_compose(tmp_path):
    p = write(tmp_path, "both.uno", 'rulebook both "x"\nextends classic\ninclude lazy_scoring, fixed_rounds\n')
    code, _, err = run_cli("validate", p)
    assert code == 0, err
    q = write(tmp_path, "twice.uno", 'rulebook twice "x"\nextends classic\nremove scoring target\nremove scoring rounds\n')
    code, _, err = run_cli("validate", q)
    assert code == 1 and "there is no `scoring rounds` to remove" in err
