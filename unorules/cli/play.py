"""A terminal game, you against bots: the table and your hand shown, numbered legal moves, the
bots' moves told in words, other hands hidden. The loop reads and writes through the callables it
is given (the CLI passes the terminal's), so it can be driven through standard input and tested.
"""
from __future__ import annotations

import random

from unorules.agents.base import make_agents
from unorules.engine.table_text import PROMPTS, menu, narrate, seat_name, stakes, table


class Quit(Exception):
    pass


def _choose_line(read, write, count) -> int:
    while True:
        prompt = f"Your choice [1{f'-{count}' if count > 1 else ''}, q to quit]: "
        line = read(prompt).strip().lower()
        if line in ("q", "quit", "exit"):
            raise Quit()
        if line.isascii() and line.isdigit() and len(line) <= 9 and 1 <= int(line) <= count:   # int() of 4,300 digits fails
            return int(line) - 1
        write(f"Please type a number from 1 to {count}." if count > 1 else "Please type 1.")


def play_game(game, *, seed: int, you: int = 0, agents=("greedy",), read, write) -> object:
    """Play one game with a person at original seat `you`; `read(prompt)` returns a line (EOFError
    when input ends), `write(text)` shows text. Returns the final state."""
    s = game.new_state(seed)
    bots = make_agents([agents[i % len(agents)] for i in range(game.players)], seed)
    rng = random.Random(seed)
    shown = 0
    while True:
        log = s.log or []
        me_seat = s.seats.index(you)
        previous = log[shown - 1] if shown else None
        for ev in log[shown:]:
            if ev["type"] == "round_start" and ev["round"] > 1:
                write("Scores: " + ", ".join(f"{seat_name(s, q, me_seat)} {s.scores[q]}" for q in range(s.n)))
                read("Press Enter for the next round. ")
            jumped = previous is not None and previous["type"] == "jump_in" and ev["type"] == "play" \
                and ev.get("player") == previous.get("player")        # told once, as the jump
            text = None if jumped else narrate(s, ev, me_seat)
            if text:
                write(text)
            previous = ev
        shown = len(log)
        if s.terminal:
            break
        d = s.decision
        if d.probs is not None:
            s.apply_action(rng.choices(d.options, d.probs)[0])
            continue
        if s.seats[d.player] != you:
            bot = bots[s.seats[d.player]]
            s.apply_action(bot.act(s, d.options))
            continue
        me = d.player
        write("")
        write(table(s, me))
        if d.kind == "challenge":
            text = stakes(s, d, me)
            if text:
                write(text)
        prompt = PROMPTS.get(d.kind, d.kind)
        write(prompt if prompt.endswith("?") else f"{prompt}:")
        entries = menu(s, d)
        for i, (label, _) in enumerate(entries, 1):
            write(f"  {i}) {label}")
        acts = entries[_choose_line(read, write, len(entries))][1]
        if len(acts) > 1:                      # a play that names a color: which one
            write("Name a color:")
            for i, a in enumerate(acts, 1):
                write(f"  {i}) {s.rules.color_names[a.color]}")
            acts = [acts[_choose_line(read, write, len(acts))]]
        s.apply_action(acts[0])
    if s.outcome == "win":
        winner = s.seats[s.winner]
        write(f"\nGame over: {'you win' if winner == you else f'seat {s.winner} wins'}. "
              f"Scores: {', '.join(f'{seat_name(s, q, s.seats.index(you))} {s.scores[q]}' for q in range(s.n))}")
    else:
        write(f"\nGame over ({s.outcome}).")
    return s
