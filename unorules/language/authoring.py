"""Authoring helpers: the starting file of a new custom card (`unorules new card NAME`)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

CARD_TEMPLATE = '''\
# A custom card for unorules: edit the lines below, then
#   check it:             unorules validate {base} --with {file}
#   read it back:         unorules explain {base} --with {file} --card {name}
#   test it:              write a scenario with `with: [{file}]` (docs/scenarios.md), `unorules test`
#   play it:              unorules play {base} --with {file}
#   see how it changes the game:  unorules compare {base} --with {file}
module {name} "{title}"

for {base}

card {name} {{
{category}  points {points}
  on play:
{on_play}    next draw 1             # who: me, next, previous, each other, each player, chosen, dealer
    # next lose turn        # skip the next player
    # reverse               # reverse the direction of play
    # choose other player   # a choice; afterwards `chosen` is that player
    # swap hands with chosen
    # each other give 1 card to me
    # if me.hand.size > 3 {{ each other draw 1 }} else {{ play again }}
    # next perform dance chance 0.5 {{}} else {{ draw 2 }}
{turn_up}}}
{deck}'''


MAX_NAME = 64          # a card name `new card` takes: it is also the file's name


@dataclass
class Box:
    """What `new card` needs to know of the base rulebook's box."""
    colors: bool = True                                   # a color can be chosen
    sided: bool = False                                   # double-faced cards (sides)
    colorless: dict[str, int] = field(default_factory=dict)   # kinds dealt without a color, and their copies
    per_color: set[str] = field(default_factory=set)      # kinds dealt once per color
    challenged: set[str] = field(default_factory=set)     # kinds whose attack may be challenged
    points: dict[str, int] = field(default_factory=dict)  # kinds worth a constant number of points


def box_of(ir: dict) -> Box:
    """The box of a merged rulebook's IR."""
    from .ir import sides_of
    box = Box(colors=any(side.get("colors") for side in sides_of(ir)), sided=bool(ir.get("sides")))
    for d in ir.get("deck", []):
        for entry in d.get("entries", []):
            if entry.get("kind") == "per_color":
                box.per_color.update(f for c in entry.get("copies", []) for f in c.get("faces", []))
            elif entry.get("kind") == "copies":
                for f in entry.get("faces", []):
                    box.colorless[f] = box.colorless.get(f, 0) + entry.get("count", 0)
    box.challenged = {c["names"][0] for c in ir.get("cards", []) if c.get("challenge")}
    for c in ir.get("cards", []):
        points = c.get("points")
        if isinstance(points, dict) and points.get("kind") == "number" and type(points.get("value")) is int:
            box.points[c["names"][0]] = points["value"]
    return box


def new_card(name: str, base: str = "official", file: str | None = None, existing: set[str] = frozenset(),
             replace: str | None = None, copies: int = 1, box: Box | None = None) -> str:
    """The text of a commented starting file for card `name` that validates as it is. A name the
    base rulebook already has (such as its blank customizable card) gets a file that gives that
    card a new rule; another name gets a new card with its count in the deck, or, with `replace`,
    takes `copies` copies of that kind of the box (`replace 1 × KIND with NAME`: the box keeps its
    size, and the other copies keep their rule)."""
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
        raise ValueError(f"`{name[:60]}` is not a valid card name: use lower-case letters, digits and `_`")
    if len(name) > MAX_NAME:
        raise ValueError(f"a card name of {len(name)} characters: at most {MAX_NAME} (it names the file too)")
    override = name in existing
    if replace is not None:
        if override:
            raise ValueError(f"`{name}` is already a card of `{base}`: give the new card another name")
        if replace not in existing:
            raise ValueError(f"`{base}` has no card `{replace}` to replace")
        if not 1 <= copies <= 1000:
            raise ValueError(f"replace from 1 to 1000 copies, not {copies}")
        if box is not None:
            _replaceable(base, replace, copies, box)
    what = name.replace("_", " ")
    if replace is not None:
        deck = (f"\n# {copies} of the box's `{replace}` cards {'becomes' if copies == 1 else 'become'} this card; the box "
                "keeps its size\n"
                f"replace {copies} × {replace} with {name}\n")
    elif override:
        deck = ""
    else:
        deck = ("\ndeck {\n  2 × " + name + "                 # how many are in the box\n}\n\n"
                "# or keep the box's size: take copies of a blank card instead of the deck above\n"
                f"# (unorules new card {name} --replace KIND): replace 1 × KIND with {name}\n")
    box = box or Box()
    on_play = "    choose color            # the player names the next color\n" if box.colors else ""
    if override and name in box.challenged:
        on_play += (f"    attack next penalty 4 {{ draw penalty; lose turn }}   # {base}'s challenge of this card is "
                    "of an attack: keep one\n")
    turn_up = "  on turn_up: next choose color   # when it is the round's first card\n" if box.colors else ""
    category = ""
    if not override:
        category = ("  wild                      # no color, matches anything (or `action`: dealt per color)\n"
                    if box.colors else "  wild                      # no color, matches anything\n")
    return CARD_TEMPLATE.format(
        name=name, base=base, file=file or f"{name}.uno",
        title=f"{what}: describe your rule in one line",
        category=category, on_play=on_play, turn_up=turn_up,
        points=box.points.get(name if override else replace, 40 if override else 50),
        deck=deck)


def _replaceable(base: str, kind: str, copies: int, box: Box) -> None:
    """ValueError unless `replace COPIES × KIND` can be said of this box (docs/language.md)."""
    if box.sided:
        raise ValueError(f"`{base}` has double-faced cards: `replace` does not take copies of a side's box; "
                         "add the card with its own count in the deck instead (leave out --replace)")
    if kind in box.per_color and kind not in box.colorless:
        raise ValueError(f"`{kind}` is dealt once per color in `{base}`: --replace takes copies of a card without "
                         f"a color (a blank or a wild: {', '.join(sorted(box.colorless)) or 'none here'})")
    if kind not in box.colorless:
        raise ValueError(f"`{base}` deals no `{kind}`: there is no copy of it to replace")
    if copies > box.colorless[kind]:
        raise ValueError(f"`{base}` holds {box.colorless[kind]} × `{kind}`, not {copies}: --copies from 1 to "
                         f"{box.colorless[kind]}")
