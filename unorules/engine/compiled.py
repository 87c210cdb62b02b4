"""The compiled rulebook: what engine/compiler.py makes of a checked IR and what the engine and
the generated code read. Plain data and the closures the compiler made; nothing here runs."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Kind:
    id: int
    name: str
    category: str
    wild: bool
    rank: int
    side: int | None
    points: object = None            # fn(state, env) -> number
    playable: object = None          # fn(state, env) -> bool, or None
    legal: object = None             # fn(state, env) -> bool, or None
    effects: dict = field(default_factory=dict)   # event -> action tuple
    challenge: tuple | None = None
    has_attack: bool = False
    points_of_card: bool = True      # its points depend on the card alone (not on the game's state)
    at_any_time: bool = False        # played out of turn, before any turn (`at any time`)


@dataclass
class Reaction:
    to: frozenset
    with_: frozenset
    cond: object
    actions: tuple


@dataclass
class Trigger:
    event: str
    color: int | None
    kind: int | None
    cond: object
    actions: tuple
    where: str | None = None          # file:line:col of the rule, for its runtime errors
    count: object = None              # `on hand reaches N`: N (an expression)


@dataclass
class Compiled:
    name: str
    title: str
    min_players: int
    max_players: int
    sides: list[str]
    side_colors: list[list[int]]          # side index -> color ids
    color_names: list[str]
    kinds: list[Kind]
    kind_by_name: dict[str, int]
    faces: list[tuple[int, int]]          # face id -> (color id or NO_COLOR, kind id)
    face_names: list[str]
    face_by_name: dict[str, int]
    deck: list[list[int]]                 # side -> list of face ids (a multiset; cards pair by index)
    pair_sides_shuffled: bool
    hand_size: object
    cut: tuple | None
    turn: dict
    scoring: dict
    reactions: list[Reaction]
    triggers: dict[str, list[Trigger]]
    declarations: list[tuple[str, int, tuple]]
    jump_in: object | None                # None: no jumping in; else fn(state, env) -> bool
    jump_in_of_faces: bool                # does the jump-in condition read only the card's and top's faces?
    jump_in_by_anyone: bool               # may a card's own player jump in on it (asked after the others)?
    options: dict[str, object]
    ir: dict
    teams: dict | None = None             # {"size": n, "seating": "opposite" | "adjacent"}
    piles: list[str] = field(default_factory=lambda: ["discard"])   # the discard piles, by name
    out_of_turn: str = "nearest"          # who may act first out of turn: nearest in the direction of play, or clockwise
    rules: dict = field(default_factory=dict)   # named rule -> its actions
    choice_worth: dict = field(default_factory=dict)   # id of a choice's IR node -> its options' worth (language/worth.py)
    match_kind: list = field(default_factory=list)   # kind -> the kind it matches as (itself, or `matches as`)
    fused_color: list[bool] = field(default_factory=list)   # kind -> its play carries the first color choice
    plain_match: list[bool] = field(default_factory=list)   # kind -> playable by matching alone (no rule)
    wild_kind: list[bool] = field(default_factory=list)     # kind -> wild
    counters: list[dict] = field(default_factory=list)      # counter and flag declarations
    false_calls: dict = field(default_factory=dict)   # call name -> the actions a false call costs
    open_hands: bool = False              # some rule shows a hand to every player (`shows hand until ...`)
    uses_front: bool = False              # some rule puts cards in front of players or reads `P.front`
    play_only_when: object = None         # the table's `play only when` rules, all of them (card bound), or None
    play_on_anything_when: object = None  # `may play on anything when`: any of them widens matching, or None
    deck_where: str | None = None         # file:line:col of the deck: where a round that runs out of cards points
    compiler: object = field(default=None, repr=False, compare=False)   # the Compiler that made these (codegen)
