"""Authoring helpers: the starting file of a new custom card (`unorules new card NAME`)."""
from __future__ import annotations

import re

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
    choose color            # the player names the next color
    next draw 1             # who: me, next, previous, each other, each player, chosen, dealer
    # next lose turn        # skip the next player
    # reverse               # reverse the direction of play
    # choose other player   # a choice; afterwards `chosen` is that player
    # swap hands with chosen
    # each other give 1 card to me
    # if me.hand.size > 3 {{ each other draw 1 }} else {{ play again }}
    # next perform dance chance 0.5 {{}} else {{ draw 2 }}
  on turn_up: next choose color   # when it is the round's first card
}}
{deck}'''


MAX_NAME = 64          # a card name `new card` takes: it is also the file's name


def new_card(name: str, base: str = "official", file: str | None = None, existing: set[str] = frozenset(),
             replace: str | None = None, copies: int = 1) -> str:
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
    return CARD_TEMPLATE.format(
        name=name, base=base, file=file or f"{name}.uno",
        title=f"{what}: describe your rule in one line",
        category="" if override else "  wild                      # no color, matches anything (or `action`: dealt per color)\n",
        points=40 if override else 50,
        deck=deck)
