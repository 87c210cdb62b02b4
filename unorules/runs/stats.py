"""Streaming statistics of many games: flat memory in the number of games, mergeable across
worker processes (every field is a sum, a count or a histogram, so the merge order does not
change the totals)."""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _pairs(hist: Counter) -> list[list[int]]:
    """A histogram as sorted [value, count] pairs (JSON keeps them as numbers)."""
    return [[v, hist[v]] for v in sorted(hist)]


def _rate(players: int, wins: int, z: float = 1.96) -> dict:
    """Wins of a group of seat-games, with the rate and its 95% interval."""
    return {"players": players, "wins": wins, "rate": round(wins / players, 4) if players else None,
            "ci95": [round(x, 4) for x in wilson(wins, players, z)]}


def _quantile(hist: Counter, q: float):
    total = sum(hist.values())
    if not total:
        return None
    rank = q * (total - 1)
    seen = 0
    for value in sorted(hist):
        seen += hist[value]
        if seen > rank:
            return value
    return max(hist)


@dataclass
class Summary:
    games: int = 0
    wins_by_seat: Counter = field(default_factory=Counter)
    wins_by_agent: Counter = field(default_factory=Counter)
    wins_by_team: Counter = field(default_factory=Counter)         # with teams: games each team won
    team_seats: dict = field(default_factory=dict)                 # team -> its seats
    seats_by_agent: Counter = field(default_factory=Counter)      # seat-games played by each agent
    outcomes: Counter = field(default_factory=Counter)             # win / stalled / error
    round_turns: Counter = field(default_factory=Counter)          # histogram of turns per round
    rounds: int = 0
    decisions: int = 0
    counts: Counter = field(default_factory=Counter)               # drawn, challenges, catches, ...
    errors: Counter = field(default_factory=Counter)               # first line of each runtime error
    tracked_players: int = 0                                       # players who played a tracked card
    tracked_wins: int = 0                                          # ... and won the game
    round_drawn: Counter = field(default_factory=Counter)          # histogram of cards drawn per round
    game_rounds: Counter = field(default_factory=Counter)          # histogram of rounds per game
    score_spread: Counter = field(default_factory=Counter)         # histogram of final max - min score (matches)
    winning_score: Counter = field(default_factory=Counter)        # histogram of the winner's final score (matches)

    def add_game(self, state, agent_names: list[str]):
        self.games += 1
        self.outcomes[state.outcome] += 1
        self.seats_by_agent.update(agent_names)
        if state.outcome == "win" and state.winners:
            for w in state.winners:               # a team's members win together
                self.wins_by_seat[w] += 1
                self.wins_by_agent[agent_names[state.seats[w]]] += 1
            if state.rules.teams:
                self.wins_by_team[state.team_of[state.winner]] += 1
        if state.rules.teams and not self.team_seats:
            for seat, team in enumerate(state.team_of):
                self.team_seats.setdefault(team, []).append(seat)
        self.round_turns.update(state.turns_per_round)
        self.round_drawn.update(state.drawn_per_round)
        self.game_rounds[len(state.turns_per_round)] += 1
        if state.round > 1 or any(state.scores):
            self.score_spread[max(state.scores) - min(state.scores)] += 1
            if state.outcome == "win" and state.winner is not None:
                self.winning_score[state.scores[state.winner]] += 1
        self.rounds += len(state.turns_per_round)
        self.decisions += state.counts["decisions"]
        for k in ("drawn", "challenges", "challenges_won", "catches", "reshuffles", "plays"):
            self.counts[k] += state.counts[k]
        if state.outcome == "error":
            self.errors[str(state.error)] += 1
        self.tracked_players += len(state.tracked_players)
        if state.outcome == "win":
            self.tracked_wins += sum(1 for w in state.winners if state.seats[w] in state.tracked_players)

    def merge(self, other: "Summary") -> "Summary":
        self.games += other.games
        self.rounds += other.rounds
        self.decisions += other.decisions
        self.tracked_players += other.tracked_players
        self.tracked_wins += other.tracked_wins
        self.team_seats = self.team_seats or other.team_seats
        for name in ("wins_by_seat", "wins_by_agent", "wins_by_team", "seats_by_agent", "outcomes", "round_turns", "counts", "errors",
                     "round_drawn", "game_rounds", "score_spread", "winning_score"):
            getattr(self, name).update(getattr(other, name))
        return self

    def as_dict(self, players: int, z: float = 1.96) -> dict:
        """The summary as `simulate --json` writes it; `z`: the intervals' (a run of --precision
        widens them for its looks)."""
        n = self.games
        turns_total = sum(t * c for t, c in self.round_turns.items())
        rounds = sum(self.round_turns.values())
        seat = {}
        for s in range(players):
            w = self.wins_by_seat[s]
            lo, hi = wilson(w, n, z)
            seat[str(s)] = {"wins": w, "rate": round(w / n, 4) if n else 0, "ci95": [round(lo, 4), round(hi, 4)]}
        agents = {}
        for name, seats in sorted(self.seats_by_agent.items()):
            w = self.wins_by_agent[name]
            lo, hi = wilson(w, seats, z)
            agents[name] = {"seat_games": seats, "wins": w, "rate": round(w / seats, 4) if seats else 0,
                            "ci95": [round(lo, 4), round(hi, 4)]}
        per_game = (lambda v: round(v / n, 3) if n else 0)
        teams = {}
        for team, seats in sorted(self.team_seats.items()):
            w = self.wins_by_team[team]
            lo, hi = wilson(w, n, z)
            teams[str(team)] = {"seats": seats, "wins": w, "rate": round(w / n, 4) if n else 0,
                                "ci95": [round(lo, 4), round(hi, 4)]}
        out_teams = {"wins_by_team": teams} if teams else {}
        return out_teams | {
            "games": n,
            "outcomes": dict(sorted(self.outcomes.items())),
            "wins_by_seat": seat,
            "wins_by_agent": agents,
            "rounds_per_game": per_game(self.rounds),
            "turns_per_round": {"mean": round(turns_total / rounds, 2) if rounds else 0,
                                "median": _quantile(self.round_turns, 0.5),
                                "p95": _quantile(self.round_turns, 0.95)},
            "decisions_per_game": per_game(self.decisions),
            "cards_drawn_per_game": per_game(self.counts["drawn"]),
            "challenges": {"made": self.counts["challenges"], "won": self.counts["challenges_won"]},
            "uno_penalties": self.counts["catches"],
            "reshuffles": self.counts["reshuffles"],
            "stalls": self.outcomes.get("stalled", 0),
            "errors": dict(self.errors.most_common(5)),
            "tracked_card": dict(_rate(self.tracked_players, self.tracked_wins, z),
                                 others=_rate(n * players - self.tracked_players,
                                              sum(self.wins_by_seat.values()) - self.tracked_wins, z)),
            "turns_per_round_sd": round(self.turns_sd(), 3),
            "histograms": {"turns_per_round": _pairs(self.round_turns),
                           "cards_drawn_per_round": _pairs(self.round_drawn),
                           "rounds_per_game": _pairs(self.game_rounds),
                           "final_score_spread": _pairs(self.score_spread),
                           "winning_score": _pairs(self.winning_score)},
        }

    def turns_sd(self) -> float:
        n = sum(self.round_turns.values())
        if n < 2:
            return 0.0
        mean = sum(t * c for t, c in self.round_turns.items()) / n
        return math.sqrt(sum(c * (t - mean) ** 2 for t, c in self.round_turns.items()) / (n - 1))


def z_for(looks: int, level: float = 0.05) -> float:
    """The standard normal quantile of each of K looks' share of the error: z(1 - level / 2K)
    (K = 1: the usual 1.96). runs/precision.py plans the looks."""
    from statistics import NormalDist
    return NormalDist().inv_cdf(1 - level / (2 * looks))


def _p_two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def compare_means(m1, sd1, n1, m2, sd2, n2) -> float:
    """Two-sided p-value of a difference of means (Welch's z, large samples)."""
    se = math.sqrt((sd1 ** 2) / max(n1, 1) + (sd2 ** 2) / max(n2, 1))
    return 1.0 if se == 0 else _p_two_sided((m2 - m1) / se)


def compare_rates(w1, n1, w2, n2) -> float:
    """Two-sided p-value of a difference of proportions (pooled z test)."""
    if not n1 or not n2:
        return 1.0
    p = (w1 + w2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    return 1.0 if se == 0 else _p_two_sided((w2 / n2 - w1 / n1) / se)
