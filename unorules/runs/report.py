"""A simulation or a comparison as one self-contained HTML page: the run's header, plots drawn by
matplotlib as inline SVG, and beside each plot the numbers behind it. Built from the summary JSON
alone (`simulate --json`, `compare --json`), so `unorules report RESULT.json` rebuilds the same page.

matplotlib is an optional extra (`pip install 'unorules[report]'`); without it, `MissingExtra`."""
from __future__ import annotations

import html
import io
import math
import re

from unorules.errors import UnorulesError
from .comparison import cards_words

COLORS = ("#3b6fb6", "#d9822b")          # first variant, second variant
MAX_BINS = 30


class MissingExtra(UnorulesError):
    """A feature needs an optional package that is not installed."""


def _matplotlib():
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingExtra("the HTML report draws its plots with matplotlib, which is not installed: "
                           "pip install 'unorules[report]'") from None
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "unorules", "font.size": 9,
                                "axes.spines.top": False, "axes.spines.right": False})
    return Figure


def _svg(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _e(x) -> str:
    return html.escape(str(x))


def _pct(x) -> str:
    return "–" if x is None else f"{x:.1%}"


def _table(head: list[str] | None, rows: list[list], cls: str = "") -> str:
    out = [f"<table class={cls}>" if cls else "<table>"]
    if head:
        out += ["<thead><tr>", *(f"<th>{_e(h)}</th>" for h in head), "</tr></thead>"]
    out.append("<tbody>")
    for r in rows:
        out.append("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in r) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _section(title: str, svg: str, table: str, note: str = "", below: bool = False) -> str:
    """A plot with its numbers beside it (or below it, for a wide table)."""
    note = f"<p class=note>{_e(note)}</p>" if note else ""
    row = "row below" if below else "row"
    return (f"<section><h2>{_e(title)}</h2>{note}<div class='{row}'><figure>{svg}</figure>"
            f"<div class=numbers>{table}</div></div></section>")


# ---- histograms ---------------------------------------------------------------------------------

def _bins(pair_lists: list[list[list[int]]]) -> tuple[int, int, int]:
    """A common binning for several histograms: (low, width, count of bins)."""
    values = [v for pairs in pair_lists for v, _ in pairs]
    if not values:
        return 0, 1, 1
    lo, hi = min(values), max(values)
    width = max(1, math.ceil((hi - lo + 1) / MAX_BINS))
    return lo, width, (hi - lo) // width + 1


def _binned(pairs, lo, width, nbins) -> list[int]:
    counts = [0] * nbins
    for v, c in pairs:
        counts[(v - lo) // width] += c
    return counts


def _bin_label(lo, width, i) -> str:
    a = lo + i * width
    return str(a) if width == 1 else f"{a}–{a + width - 1}"


def _histogram(Figure, title: str, xlabel: str, labels: list[str], pair_lists: list) -> tuple[str, str]:
    lo, width, nbins = _bins(pair_lists)
    series = [_binned(p, lo, width, nbins) for p in pair_lists]
    totals = [max(1, sum(s)) for s in series]
    fig = Figure(figsize=(6.4, 3.0))
    ax = fig.add_subplot()
    xs = [lo + i * width for i in range(nbins)]
    for k, (s, label) in enumerate(zip(series, labels)):
        share = [c / totals[k] for c in s]
        if len(series) == 1:
            ax.bar(xs, share, width=width * 0.9, align="edge", color=COLORS[k], label=label)
        else:
            ax.step(xs + [xs[-1] + width], share + [share[-1]], where="post", color=COLORS[k], linewidth=1.6,
                    label=label)
            ax.fill_between(xs + [xs[-1] + width], share + [share[-1]], step="post", color=COLORS[k], alpha=0.15)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share")
    ax.set_title(title, loc="left")
    if len(series) > 1:
        _legend(ax)
    ax.xaxis.get_major_locator().set_params(integer=True)
    rows = [[_bin_label(lo, width, i)] + [s[i] for s in series] for i in range(nbins) if any(s[i] for s in series)]
    head = [xlabel] + (["count"] if len(labels) == 1 else labels)
    return _svg(fig), _table(head, rows)


def _mean(pairs) -> float:
    n = sum(c for _, c in pairs)
    return sum(v * c for v, c in pairs) / n if n else 0.0


# ---- rates with intervals -------------------------------------------------------------------------

def _rates(Figure, title: str, groups: list[str], labels: list[str], cells: list[list[dict]], even=None) -> str:
    """Grouped bars of rates with their 95% intervals: cells[variant][group] = {rate, ci95}."""
    fig = Figure(figsize=(6.4, 2.2 + 0.08 * len(groups)))
    ax = fig.add_subplot()
    k = len(labels)
    width = 0.8 / k
    for v, (label, row) in enumerate(zip(labels, cells)):
        xs = [g + (v - (k - 1) / 2) * width for g in range(len(groups))]
        rates = [c["rate"] or 0 for c in row]
        err = [[r - c["ci95"][0] for r, c in zip(rates, row)], [c["ci95"][1] - r for r, c in zip(rates, row)]]
        ax.bar(xs, rates, width=width * 0.92, color=COLORS[v], label=label, yerr=err, capsize=3,
               error_kw={"elinewidth": 1, "ecolor": "#333"})
    if even is not None:
        ax.axhline(even, color="#555", linewidth=0.8, linestyle="--")
        ax.annotate(f"even share {even:.0%}", (len(groups) - 0.5, even), xytext=(0, 3), textcoords="offset points",
                    ha="right", fontsize=7, color="#555")
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylabel("win rate (95% CI)")
    ax.yaxis.set_major_formatter(lambda y, _: f"{y:.0%}")
    ax.set_title(title, loc="left")
    if k > 1:
        _legend(ax)
    return _svg(fig)


def _legend(ax):
    ax.legend(frameon=False, loc="lower left", bbox_to_anchor=(0, 1.08), ncol=2, fontsize=8)


def _rate_rows(groups, labels, cells, count_key, count_name):
    one = len(labels) == 1
    head = [""] + [f"{what}" if one else f"{lab}: {what}" for lab in labels
                   for what in (f"wins of {count_name}", "rate [95% CI]")]
    rows = []
    for g, name in enumerate(groups):
        row = [name]
        for cellrow in cells:
            c = cellrow[g]
            row += [f"{c['wins']:,} of {c.get(count_key, 0):,}",
                    f"{_pct(c['rate'])} [{_pct(c['ci95'][0])}, {_pct(c['ci95'][1])}]"]
        rows.append(row)
    return _table(head, rows)


# ---- the page -------------------------------------------------------------------------------------

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:1180px;color:#222;
padding:0 1rem;line-height:1.4}
h1{font-size:1.5rem;margin-bottom:.2rem}h2{font-size:1.1rem;margin:0 0 .4rem}
section{border-top:1px solid #ddd;padding:1rem 0}
.row{display:flex;gap:1.5rem;align-items:flex-start;flex-wrap:wrap}.below{flex-direction:column}
.below .numbers{max-height:none}
figure{margin:0;flex:0 0 auto}figure svg{max-width:640px;height:auto}
.numbers{flex:1 1 300px;max-height:340px;overflow:auto}
table{border-collapse:collapse;font-size:.82rem}th,td{padding:.15rem .5rem;text-align:right;border-bottom:1px solid #eee}
td{white-space:nowrap}th{font-weight:600;vertical-align:bottom}
th:first-child,td:first-child{text-align:left}thead th{position:sticky;top:0;background:#fafafa}
.header td{text-align:left}.header td:first-child{color:#555}.verdict{font-size:1.05rem;background:#f4f7fb;border-left:4px solid #3b6fb6;
padding:.6rem .9rem}.note{color:#555;font-size:.85rem;margin:.2rem 0 .6rem}
"""


def _header_rows(d: dict) -> list[list]:
    variant = d.get("variant") or d
    rows = [["rulebook", variant.get("rulebook", "")],
            ["files", ", ".join(variant.get("files", [])) or "–"],
            ["modules added", ", ".join(variant.get("include", [])) or "–"],
            ["custom rule files", ", ".join(variant.get("with", [])) or "–"],
            ["custom cards", ", ".join(variant.get("custom_cards", [])) or "–"],
            ["options", ", ".join(f"{k}={v}" for k, v in variant.get("options", {}).items()) or "–"]]
    simulator = variant.get("simulator") or d.get("simulator")
    if simulator:
        rows.append(["simulator", simulator])
    return rows


def _run_rows(d: dict) -> list[list]:
    rows = [["players", d.get("players")], ["agents", ", ".join(d.get("agents", []))], ["games", d.get("games")],
            ["seed", d.get("seed")], ["rounds", d.get("rounds", "")], ["unorules", d.get("version", "")],
            ["time taken", f"{d['seconds']:.1f} s" if d.get("seconds") is not None else "–"]]
    if d.get("events"):
        rows.append(["events file", d["events"]])
    return rows


def _page(title: str, body: list[str]) -> str:
    return ("<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
            f"<title>{_e(title)}</title><style>{CSS}</style></head><body>" + "".join(body) + "</body></html>\n")


def _outcome_table(results: list[dict], labels: list[str]) -> str:
    keys = sorted({k for r in results for k in r["outcomes"]})
    return _table(["outcome"] + labels, [[k] + [r["outcomes"].get(k, 0) for r in results] for k in keys])


def _common_sections(Figure, labels: list[str], results: list[dict], players: int, cards=()) -> list[str]:
    out = []
    svg, table = _histogram(Figure, "Round length", "turns per round", labels,
                            [r["histograms"]["turns_per_round"] for r in results])
    stats = _table(["", *labels], [
        ["mean", *(r["turns_per_round"]["mean"] for r in results)],
        ["sd", *(r["turns_per_round_sd"] for r in results)],
        ["median", *(r["turns_per_round"]["median"] for r in results)],
        ["95th percentile", *(r["turns_per_round"]["p95"] for r in results)],
        ["rounds", *(sum(c for _, c in r["histograms"]["turns_per_round"]) for r in results)]])
    out.append(_section("Round length", svg, stats + table))
    seats = [f"seat {s}" for s in range(players)]
    cells = [[dict(r["wins_by_seat"][str(s)], games=r["games"]) for s in range(players)] for r in results]
    team = results[0].get("wins_by_team")
    even = len(next(iter(team.values()))["seats"]) / players if team else 1 / players   # partners win together
    wide = len(labels) > 1
    out.append(_section("Wins by seat", _rates(Figure, "Wins by seat", seats, labels, cells, even=even),
                        _rate_rows(seats, labels, cells, "games", "games"), below=wide))
    if all(r.get("wins_by_team") for r in results):
        teams = sorted(results[0]["wins_by_team"], key=int)
        groups = [f"team {t} (seats {'+'.join(map(str, results[0]['wins_by_team'][t]['seats']))})" for t in teams]
        cells = [[dict(r["wins_by_team"][t], games=r["games"]) for t in teams] for r in results]
        out.append(_section("Wins by team", _rates(Figure, "Wins by team", groups, labels, cells, even=1 / len(teams)),
                            _rate_rows(groups, labels, cells, "games", "games"), below=wide))
    agents = sorted({a for r in results for a in r["wins_by_agent"]})
    empty = {"seat_games": 0, "wins": 0, "rate": None, "ci95": [0, 0]}
    cells = [[r["wins_by_agent"].get(a, empty) for a in agents] for r in results]
    out.append(_section("Wins by agent", _rates(Figure, "Wins by agent (per seat played)", agents, labels, cells,
                                                even=even),
                        _rate_rows(agents, labels, cells, "seat_games", "seat-games"), below=wide))
    svg, table = _histogram(Figure, "Cards drawn per round", "cards drawn in a round", labels,
                            [r["histograms"]["cards_drawn_per_round"] for r in results])
    means = _table(["", *labels], [["mean per round", *(round(_mean(r["histograms"]["cards_drawn_per_round"]), 2)
                                                        for r in results)],
                                   ["mean per game", *(r["cards_drawn_per_game"] for r in results)]])
    out.append(_section("Cards drawn", svg, means + table))
    tracked = [r.get("tracked_card") for r in results]
    if all(t and t["players"] for t in tracked):
        groups = ["played it", "did not"]
        cells = [[t, t["others"]] for t in tracked]
        names = [re.sub(r"[^a-z0-9_]", "", str(c).lower())[:40] for c in cards]   # card names: identifiers
        played = cards_words(names) if names else "the card"
        out.append(_section("The tracked card" + ("s" if len(cards) > 1 else ""),
                            _rates(Figure, f"Win rate of who played {played}", groups, labels, cells),
                            _rate_rows(groups, labels, cells, "players", "seat-games"),
                            "each seat-game counts once: the player played the card at least once in that game, or not",
                            below=wide))
    if any(max((v for v, _ in r["histograms"]["rounds_per_game"]), default=1) > 1 for r in results):
        svg, table = _histogram(Figure, "Rounds per game", "rounds in a game", labels,
                                [r["histograms"]["rounds_per_game"] for r in results])
        out.append(_section("Match length", svg, table))
        svg, table = _histogram(Figure, "Final score spread", "highest minus lowest final score", labels,
                                [r["histograms"]["final_score_spread"] for r in results])
        out.append(_section("Final score spread", svg, table))
    out.append(f"<section><h2>Outcomes</h2>{_outcome_table(results, labels)}</section>")
    return out


def _differences(Figure, comparison: dict, labels: list[str]) -> str:
    """A forest plot of the differences: the turns of a round on one axis, rates (in points of
    percentage) on another, each with its 95% interval; significant ones (after Holm) in colour."""
    figs = comparison["figures"]
    panels = [[f for f in figs if f["kind"] == "mean"], [f for f in figs if f["kind"] == "rate"]]
    panels = [p for p in panels if p]
    fig = Figure(figsize=(6.4, 1.0 + 0.42 * len(figs) + 0.5 * len(panels)))
    axes = fig.subplots(len(panels), 1, squeeze=False, gridspec_kw={"height_ratios": [len(p) + 0.6 for p in panels]})
    for ax, panel in zip(axes[:, 0], panels):
        scale, unit = (1, "turns") if panel[0]["kind"] == "mean" else (100, "points of %")
        for i, f in enumerate(reversed(panel)):
            lo, hi = (x * scale for x in f["ci95"])
            color = COLORS[1] if f["significant"] else "#999"
            ax.plot([lo, hi], [i, i], color=color, linewidth=2.2, solid_capstyle="butt")
            ax.plot([f["diff"] * scale], [i], "o", color=color, markersize=5)
        ax.axvline(0, color="#333", linewidth=0.8)
        ax.set_yticks(range(len(panel)), [f["figure"] for f in reversed(panel)])
        ax.set_ylim(-0.6, len(panel) - 0.4)
        ax.set_xlabel(f"difference in {unit}: {labels[1]} minus {labels[0]} (95% CI)", fontsize=8)
    axes[0, 0].set_title("Differences (coloured: significant after Holm)", loc="left")
    fig.tight_layout()
    svg = _svg(fig)

    def show(f, x):
        return f"{x}" if f["kind"] == "mean" else f"{x:.1%}"
    rows = [[f["figure"], show(f, f["a"]), show(f, f["b"]),
             (f"{f['diff']:+}" if f["kind"] == "mean" else f"{f['diff'] * 100:+.1f} pts"),
             (f"{f['ci95'][0]:+} to {f['ci95'][1]:+}" if f["kind"] == "mean"
              else f"{f['ci95'][0] * 100:+.1f} to {f['ci95'][1] * 100:+.1f}"),
             f"{f['p']:.3g}", f"{f['p_holm']:.3g}", "yes" if f["significant"] else "no"] for f in figs]
    table = _table(["figure", labels[0], labels[1], "difference", "95% CI", "p", "Holm p", "significant"], rows)
    return _section("What changes", svg, table,
                    f"{len(figs)} figures are tested; their p-values are corrected for that number with Holm's "
                    f"step-down method, and a difference is significant when its corrected p is under "
                    f"{comparison['level']:g}", below=True)


def render(d: dict) -> str:
    """The HTML page of a `simulate --json` or `compare --json` result."""
    Figure = _matplotlib()
    if "results" in d:
        labels = [v["label"] for v in d["variants"]]
        body = [f"<h1>unorules compare: {_e(labels[0])} against {_e(labels[1])}</h1>",
                f"<p class=verdict><b>Verdict:</b> {_e(d['comparison']['verdict'])}</p>",
                "<section><h2>The run</h2><div class=row>"]
        for v, label in zip(d["variants"], labels):
            body.append(f"<div><h3>{_e(label)}</h3>{_table(None, _header_rows({'variant': v}), 'header')}</div>")
        body.append(f"<div><h3>both</h3>{_table(None, _run_rows(d), 'header')}</div></div></section>")
        body.append(_differences(Figure, d["comparison"], labels))
        body += _common_sections(Figure, labels, d["results"], d["players"], tuple(d.get("cards") or ()))
        return _page(f"compare {labels[0]} / {labels[1]}", body)
    label = d.get("label") or d.get("rulebook", "")
    body = [f"<h1>unorules simulate: {_e(label)}</h1>",
            "<section><h2>The run</h2><div class=row>",
            f"<div>{_table(None, _header_rows(d), 'header')}</div><div>{_table(None, _run_rows(d), 'header')}</div>",
            "</div></section>"]
    body += _common_sections(Figure, [label], [d], d["players"], tuple(d.get("cards") or ()))
    return _page(f"simulate {label}", body)
