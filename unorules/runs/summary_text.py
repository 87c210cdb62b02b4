"""Results as text: a simulation summary and a comparison table, and how a run's variant is named
(for `simulate` and `compare`; the CLI prints what these return)."""
from __future__ import annotations

from pathlib import Path

from .comparison import cards_words

STALLS_SAID = 10        # a summary says in words what stalls mean when they are this percent of its games or more


def variant_of(spec) -> dict:
    """What a run played: the rulebook, its modules, custom files and options (for JSON)."""
    return {"rulebook": spec.source, "include": list(spec.include), "with": [str(w) for w in spec.with_],
            "options": dict(spec.options)}


def variant_label(spec) -> str:
    """The same in one line: `official + stacking + my_card.uno (stack_limit=8)`."""
    text = spec.source + "".join(f" + {m}" for m in spec.include) + "".join(f" + {Path(str(w)).name}" for w in spec.with_)
    if spec.options:
        text += " (" + ", ".join(f"{k}={v}" for k, v in spec.options) + ")"
    return text


def summary_text(d: dict, label: str) -> str:
    """A simulation summary (its --json dict) as the lines `unorules simulate` prints."""
    out = []
    echo = out.append
    echo(f"{label}: {d['games']} games")
    oc = d["outcomes"]
    echo("outcomes: " + ", ".join(f"{k} {v}" for k, v in oc.items()))
    echo("\nwins by seat (95% CI):")
    for seat, w in d["wins_by_seat"].items():
        lo, hi = w["ci95"]
        echo(f"  seat {seat}: {w['wins']:>7}  {w['rate']:6.1%}  [{lo:6.1%}, {hi:6.1%}]")
    if d.get("wins_by_team"):
        echo("wins by team (95% CI):")
        for team, w in d["wins_by_team"].items():
            lo, hi = w["ci95"]
            seats = "+".join(map(str, w["seats"]))
            echo(f"  team {team} (seats {seats}): {w['wins']:>7}  {w['rate']:6.1%}  [{lo:6.1%}, {hi:6.1%}]")
    echo("wins by agent (per seat played, 95% CI):")
    for name, w in d["wins_by_agent"].items():
        lo, hi = w["ci95"]
        echo(f"  {name:<11} {w['wins']:>7}  {w['rate']:6.1%}  [{lo:6.1%}, {hi:6.1%}]")
    t = d["turns_per_round"]
    echo(f"\nturns per round: mean {t['mean']}, median {t['median']}, p95 {t['p95']}")
    echo(f"rounds per game: {d['rounds_per_game']}   decisions per game: {d['decisions_per_game']}")
    echo(f"cards drawn per game: {d['cards_drawn_per_game']}")
    ch = d["challenges"]
    echo(f"challenges: {ch['made']} made, {ch['won']} won   UNO penalties: {d['uno_penalties']}   "
         f"reshuffles: {d['reshuffles']}   stalls: {d['stalls']}")
    if d["stalls"] and d["stalls"] * 100 >= STALLS_SAID * d["games"]:
        echo(f"note: {d['stalls']} of {d['games']} games ({d['stalls'] / d['games']:.0%}) stalled: a round reached its "
             "turn cap, or a turn its limit of decisions, with no winner. Wins count only the games that "
             "ended; the turns per round count the stalled rounds at the cap.")
    if d["errors"]:
        echo("runtime rule errors:")
        for msg, count in d["errors"].items():
            echo(f"  {count} x {msg}")
    return "\n".join(out)


def compare_table(labels, da, db, players, cards, ca, cb) -> str:
    """Two summaries side by side, each column as wide as its widest cell."""
    ta, tb = da["turns_per_round"], db["turns_per_round"]
    rows = [("", labels[0], labels[1]),
            ("turns per round (mean)", f"{ta['mean']} (sd {da['turns_per_round_sd']})",
             f"{tb['mean']} (sd {db['turns_per_round_sd']})"),
            ("turns per round (median, p95)", f"{ta['median']}, {ta['p95']}", f"{tb['median']}, {tb['p95']}"),
            ("stalls", str(da["stalls"]), str(db["stalls"]))]
    for seat in map(str, range(players)):
        fa, fb = da["wins_by_seat"][seat], db["wins_by_seat"][seat]
        rows.append((f"seat {seat} wins", f"{fa['rate']:.1%} [{fa['ci95'][0]:.1%}, {fa['ci95'][1]:.1%}]",
                     f"{fb['rate']:.1%} [{fb['ci95'][0]:.1%}, {fb['ci95'][1]:.1%}]"))
    for team in (da.get("wins_by_team") or {}):
        fa, fb = da["wins_by_team"][team], (db.get("wins_by_team") or {}).get(team)
        if fb is not None:
            rows.append((f"team {team} wins", f"{fa['rate']:.1%} [{fa['ci95'][0]:.1%}, {fa['ci95'][1]:.1%}]",
                         f"{fb['rate']:.1%} [{fb['ci95'][0]:.1%}, {fb['ci95'][1]:.1%}]"))
    if cards:
        def card_cell(c):
            return (f"{c['rate']:.1%} [{c['ci95'][0]:.1%}, {c['ci95'][1]:.1%}] of {c['players']:,}"
                    if c["players"] else "never played")
        rows.append((f"played {cards_words(cards)}: won", card_cell(ca), card_cell(cb)))
    lines = []
    widths = [max(len(r[i]) for r in rows) + 3 for i in range(2)]
    for r in rows:
        lines.append(f"{r[0]:<{widths[0]}}{r[1]:<{widths[1]}}{r[2]}".rstrip())
    return "\n".join(lines)


def differences_table(comparison: dict, labels) -> str:
    """Each figure's difference (second variant minus first) with its interval and Holm p-value:
    what the verdict is made of, in points of win rate and turns of game length."""
    looks = comparison.get("looks", 1)
    head = f"differences ({labels[1]} minus {labels[0]}, 95% intervals" + \
        (f" over {looks} looks)" if looks > 1 else ")") + ":"
    rows = []
    for f in comparison["figures"]:
        scale, unit = (100, "points") if f["kind"] == "rate" else (1, "turns")
        lo, hi = (x * scale for x in f["ci95"])
        p = f"{f['p_holm']:.2g}" if f["p_holm"] > 0 else "< 1e-300"
        rows.append((f["figure"], f"{f['diff'] * scale:+.2f} {unit}", f"[{lo:+.2f}, {hi:+.2f}]",
                     f"Holm p {'= ' if not p.startswith('<') else ''}{p}" + ("  *" if f["significant"] else "")))
    widths = [max(len(r[i]) for r in rows) + 3 for i in range(3)]
    return "\n".join([head] + [f"  {r[0]:<{widths[0]}}{r[1]:<{widths[1]}}{r[2]:<{widths[2]}}{r[3]}".rstrip()
                               for r in rows])
