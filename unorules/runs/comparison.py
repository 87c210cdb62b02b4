"""Two simulation summaries compared figure by figure: each difference with its 95% interval and
p-value, the p-values corrected for the number of figures tested (Holm's step-down method), and a
verdict in words. `compare` prints it; the report draws it."""
from __future__ import annotations

import math

from .stats import compare_means, compare_rates, z_for

LEVEL = 0.05
Z95 = 1.959964


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given: the k-th smallest of m is multiplied by
    m - k + 1, and the adjusted values are made non-decreasing in that order (capped at 1)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def _rounds(d: dict) -> int:
    return sum(c for _, c in d["histograms"]["turns_per_round"])


def _mean_figure(name, words, ma, sda, na, mb, sdb, nb, z=Z95):
    se = math.sqrt(sda ** 2 / max(na, 1) + sdb ** 2 / max(nb, 1))
    diff = mb - ma
    return {"figure": name, "words": words, "kind": "mean", "a": ma, "b": mb, "diff": round(diff, 4),
            "ci95": [round(diff - z * se, 4), round(diff + z * se, 4)], "half_width": z * se,
            "p": compare_means(ma, sda, na, mb, sdb, nb)}


def _rate_figure(name, words, wa, na, wb, nb, z=Z95):
    ra, rb = (wa / na if na else 0.0), (wb / nb if nb else 0.0)
    se = math.sqrt(ra * (1 - ra) / max(na, 1) + rb * (1 - rb) / max(nb, 1))
    diff = rb - ra
    return {"figure": name, "words": words, "kind": "rate", "a": round(ra, 4), "b": round(rb, 4),
            "diff": round(diff, 4), "ci95": [round(diff - z * se, 4), round(diff + z * se, 4)],
            "half_width": 100 * z * se, "p": compare_rates(wa, na, wb, nb)}


def cards_words(cards) -> str:
    """The tracked cards as the figure names them: `a`, or any of `a`, `b` or `c`."""
    names = [f"`{c}`" for c in cards]
    return names[0] if len(names) == 1 else f"any of {', '.join(names[:-1])} or {names[-1]}"


def compare_summaries(labels: list[str], da: dict, db: dict, players: int, cards: tuple = (), looks: int = 1) -> dict:
    """The figures tested, each with its Holm-adjusted p-value, and the verdicts in words. With
    `looks` > 1 (a run of --precision that planned that many looks, runs/precision.py) every
    interval is that many looks' Bonferroni interval, and every p-value is multiplied by `looks`
    before Holm's correction over the figures."""
    z = z_for(looks) if looks > 1 else Z95
    ta, tb = da["turns_per_round"], db["turns_per_round"]
    figures = [_mean_figure("turns per round", "rounds are {more} with {b} ({va} vs {vb} turns",
                            ta["mean"], da["turns_per_round_sd"], _rounds(da),
                            tb["mean"], db["turns_per_round_sd"], _rounds(db), z)]
    for seat in map(str, range(players)):
        wa, wb = da["wins_by_seat"][seat], db["wins_by_seat"][seat]
        figures.append(_rate_figure(f"seat {seat} win rate", f"seat {seat} wins {{more}} often with {{b}} ({{va}} vs {{vb}}",
                                    wa["wins"], da["games"], wb["wins"], db["games"], z))
    ca, cb = da.get("tracked_card"), db.get("tracked_card")
    if cards and ca and cb and ca["players"] and cb["players"]:
        played = cards_words(cards)
        figures.append(_rate_figure(f"win rate of who plays {played}",
                                    f"a player who plays {played} wins {{more}} often with {{b}} ({{va}} vs {{vb}}",
                                    ca["wins"], ca["players"], cb["wins"], cb["players"], z))
    for f in figures:
        f["p"] = min(1.0, f["p"] * looks)
    for f, adj in zip(figures, holm([f["p"] for f in figures])):
        f["p_holm"] = adj
        f["significant"] = adj < LEVEL
    verdicts = []
    for f in figures:
        if not f["significant"]:
            continue
        up = f["b"] > f["a"]
        if f["kind"] == "mean":
            more, va, vb = ("longer" if up else "shorter"), f["a"], f["b"]
        else:
            more, va, vb = ("more" if up else "less"), f"{f['a']:.1%}", f"{f['b']:.1%}"
        p = f"{f['p_holm']:.2g}" if f["p_holm"] > 0 else "< 1e-300"      # below what a float holds
        verdicts.append(f["words"].format(more=more, b=labels[1], va=va, vb=vb) + f", Holm p = {p})")
    for f in figures:
        del f["words"]
    note = (f"Each of the {len(figures)} figures is tested at the 95% level, its p-value corrected for their "
            "number (Holm)" + (f" and for the {looks} looks the run planned (Bonferroni)." if looks > 1 else "."))
    verdict = ("; ".join(verdicts) if verdicts else "no significant difference") + ". " + note
    for f in figures:
        f["half_width"] = round(f["half_width"], 4)
    return {"figures": figures, "verdicts": verdicts, "verdict": verdict, "level": LEVEL, "z": round(z, 4),
            "correction": "holm" if looks == 1 else "bonferroni over looks, then holm", "looks": looks}
