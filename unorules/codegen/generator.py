"""Code generation: a compiled rulebook as the Python source of one function that plays a whole
game, the way Jinja2 compiles a template once and runs that. The agenda engine stays the
reference; this is its fast path for `simulate`, and it plays the engine's games (the same random
streams, the same event logs: tests/test_codegen.py holds the two equal).

The source holds only identifiers made here and literals written with `repr` of validated ints,
floats and booleans (expressions.literal). Tables (faces, masks, the play actions, points,
names for the event log) are objects given to the code when it is loaded (generated.py), never
text in it. Each line that comes from a rule is mapped to the rule's file:line:col (`where`), so a
runtime error in generated code names the rulebook as the engine would.

The mixins hold the parts: actions.py the rule actions, choices.py what a rule
asks a player or leaves to chance, attacks.py the attack windows, windows.py the
plays out of turn, options.py a player's play options, turns.py the round and turn flow;
expressions.py the expressions. Hands are held as the engine holds them, or counted per face
(Generator's `representation`). What the
generator does not translate (several piles or sides, teams, `may
play`, the search agent, ...)
raises NotCovered: `coverage()` gives the reason and simulation falls back to the engine, saying so."""
from __future__ import annotations

from contextlib import contextmanager

from .actions import MOVES_HANDS, RuleActions
from .attacks import PENDING, AttackWindows
from .choices import RuleChoices
from .draws import Draws
from .expressions import ExprGen, NotCovered, literal
from .options import PlayOptions
from .turns import STOP_STATE, TurnFlow
from .windows import OutOfTurn

COVERED_AGENTS = ("random", "random_play", "greedy")    # agents whose choices the code makes inline (agents/base.py)
EXTERNAL = "external"     # every seat's choice made outside: the code stops at each decision (steps.py)


def shows_hands(game) -> bool:
    """Does a rule show a player another's hand (`look at`, and a `take` looks at the hand it
    takes from)?"""
    return any(node.get("kind") in ("take", "look_at") for node in _walk_nodes(game.rules.ir))


MAX_LINES = 20_000      # generated source longer than this runs on the engine instead


class Source:
    """Lines of Python with their indentation, and the rule each line comes from."""

    def __init__(self):
        self.lines: list[str] = []
        self.where: list[str | None] = []        # per line: the rule's file:line:col, or None
        self.depth = 0
        self.rule: str | None = None
        self.texts: list[str] = []               # rulebook texts the event log names, by index (TEXTS)
        self.quiet = False                       # writing the function that keeps no event log:
        self.muted = 0                           # its `if log is not None:` lines and blocks are left out
        self.branch: dict[int, str] = {}         # per depth, how the if-chain just written there went:
                                                 # "dropped" (an `if False:` left out), "taken" (an `if True:`)

    def __call__(self, text: str):
        if self.muted or (self.quiet and text.lstrip().startswith("if log is not None:")):
            return
        self.branch.pop(self.depth, None)
        self.lines.append("    " * self.depth + text)
        self.where.append(self.rule)
        if len(self.lines) > MAX_LINES:        # rules whose blocks are copied into each path (attacks in attacks)
            raise NotCovered(f"rules that make more than {MAX_LINES:,} lines of code")

    @contextmanager
    def block(self, header: str):
        """An indented block under `header`. A branch decided when the code is written (`if False:`,
        `if True:`, as when every seat has the same agent) is written as the branch that runs:
        the others are left out, and its body stands at the chain's depth."""
        chain = None if self.muted else self.branch.pop(self.depth, None)
        follows = header.startswith(("elif ", "else:"))
        if (self.quiet and header == "if log is not None:") or header == "if False:" or (chain == "taken" and follows):
            self.muted += 1
            yield
            self.muted -= 1
            if not self.muted and (header == "if False:" or chain == "taken"):
                self.branch[self.depth] = "taken" if chain == "taken" else "dropped"
            return
        if header == "if True:" or (chain == "dropped" and header == "else:"):
            yield
            if not self.muted:
                self.branch[self.depth] = "taken"
            return
        if chain == "dropped" and header.startswith("elif "):
            header = header[2:]
        self(header)
        self.depth += 1
        start = len(self.lines)
        yield
        if len(self.lines) == start:
            self("pass")
        self.depth -= 1

    @contextmanager
    def from_rule(self, where: str | None):
        saved, self.rule = self.rule, where or self.rule
        yield
        self.rule = saved

    def prepend(self, lines: list[str]):
        """Lines before all others (tables the function reads, made when the source is loaded)."""
        self.lines[:0] = lines
        self.where[:0] = [None] * len(lines)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def coverage(game, agents: tuple = ("random",), representation: str = "cards") -> str | None:
    """Why this game cannot run as generated code, or None when it can."""
    try:
        generate(game, agents, representation)
    except NotCovered as e:
        return str(e)
    return None


def check_covered(game, entry: bool = False):
    r = game.rules
    for what, present in (("more than one declaration", len(r.declarations) > 1),
                          ("teams", r.teams),
                          ("several discard piles", len(r.piles) > 1), ("double-faced cards", len(r.sides) > 1),
                          ("the place in front of players", r.uses_front),
                          ("`may pass`", r.turn["may_pass"]),
                          ("an open hand (`shows hand until ...`)", r.open_hands),
                          ("a false call's price (`false uno call: ...`)", bool(r.false_calls)),
                          ("a fresh deck when the piles are spent (`new deck`)", r.turn["new_deck"]),
                          ("a table-wide play rule (`play only when`, `may play on anything when`)",
                           r.play_only_when is not None or r.play_on_anything_when is not None),
                          ("several cards at once", r.turn["multi_play"]),
                          ("`draw up to N cards`", r.turn.get("draw_up_to")),
                          ("points that depend on the game", not all(k.points_of_card for k in r.kinds)),
                          ("`on hand reaches N`", "hand_reaches" in r.triggers)):
        if present:
            raise NotCovered(what)
    sc = r.scoring
    for key in ("eliminate_above", "places", "rank_rest_by"):
        if sc[key] is not None:
            raise NotCovered(f"the scoring's `{key.replace('_', ' ')}`")
    if sc["to_the_last"]:
        raise NotCovered("`play to the last`")
    if sc["method"] == "no_points" and sc["rounds"] is not None:
        raise NotCovered("a match of rounds won without points (`no points` with `rounds`)")
    if sc["method"] not in ("winner_scores_others", "each_scores_own_hand", "winner_scores", "no_points"):
        raise NotCovered(f"the scoring method `{sc['method']}`")
    if game.stop_after_round and not entry:      # (code entered between turns ends with its round)
        raise NotCovered("stopping after a round (scenarios)")


def check_agents(agents):
    if EXTERNAL in agents:
        if set(agents) != {EXTERNAL}:
            raise NotCovered("an external seat beside seats whose choices the code makes")
        return
    bad = [a for a in agents if a not in COVERED_AGENTS]
    if bad:
        raise NotCovered(f"the agent `{bad[0]}` (generated code makes the choices of "
                         f"{', '.join(COVERED_AGENTS)} only)")


REPRESENTATIONS = ("cards", "faces", "counted")


def option_groups(opts) -> list[tuple[int, int]]:
    """The faces grouped by their number of play actions (`opts`: per face, its actions):
    [(count, mask of those faces), ...], by count."""
    masks: dict = {}
    for f, o in enumerate(opts):
        if o:
            masks[len(o)] = masks.get(len(o), 0) | 1 << f
    return sorted(masks.items())


def face_option_counts(game) -> tuple[list[int], list[int]]:
    """The numbers of play actions a face may have in this game, without and with the call."""
    st = game.new_state(0, deal=False)
    st.setup_cards(None)
    per_card = st._match[2], st._match[3]
    return tuple(sorted({len(o) for o in opts if o}) for opts in per_card)


class Generator(RuleActions, Draws, RuleChoices, AttackWindows, PlayOptions, TurnFlow, OutOfTurn):
    """`representation`: how hands are held and ordered.
    - "cards": lists of card ids, in the engine's order; the engine's games, event for event.
    - "counted": a count per face, a bitmask of the faces held and a size per player. Cards of one
      face are interchangeable, so every table is indexed by face; a player's options come in face
      order, greedy breaks ties by face, and hands are listed by face. Faster, and not the engine's
      games (the options' order is part of the random stream).
    - "faces": lists of cards ordered as "counted" orders them: the reference run that "counted"
      must equal game for game, event for event (tests/test_codegen.py).
    Both face-ordered representations also draw as a shuffled pile would, without shuffling it:
    each card drawn is one of the pile's at random (nothing reads the pile's order where code is
    generated), a refill puts the discards back unshuffled; and one random generator per game
    serves the deck and the agents."""

    def __init__(self, game, agents, representation: str = "cards", entry: bool = False):
        """`entry`: write `play_from` instead, which goes on from a position between two turns of a
        round (the locals ENTRY_LOCALS names, as playouts.py takes them from an engine State) to the
        round's end, and returns (outcome, winner, the round's winner): a search's playouts. With
        external seats it is a Python generator stopped at each decision, as `play` is (a scenario
        followed in generated code, steps.py)."""
        if representation not in REPRESENTATIONS:
            raise ValueError(f"representation is one of {REPRESENTATIONS}, not {representation!r}")
        self.counted = representation == "counted"
        self.face_order = representation != "cards"
        # every choice made outside: the code yields at each decision, on the engine's cards
        self.stepping = EXTERNAL in agents
        self.entry = entry
        if entry and representation != "cards":
            raise ValueError("code entered between turns holds cards (representation \"cards\")")
        if self.stepping and representation != "cards":
            raise ValueError("code stopped at each decision holds cards (representation \"cards\")")
        self.option_counts = face_option_counts(game) if self.counted else None
        # counted hands keep a count per color too (hk: player -> color + 1 -> cards) where a greedy
        # seat reads it, on every decision
        self.color_counts = self.counted and "greedy" in agents
        self.game = game
        self.rules = game.rules
        self.compiler = game.rules.compiler          # its name tables and `where`
        if self.compiler is None:                    # rules compiled by hand, not by compile_rulebook
            raise NotCovered("rules not made by compile_rulebook")
        self.x = ExprGen(self.compiler, self.hand, self.hand_len, self.counted, self.hand_points, self.text)
        self.src = Source()
        self.agents = agents
        self.doing: list[str] = []           # the named rules being inlined (`do NAME`), innermost last
        self.kind_now = None                 # the kind whose rules are being generated (an attack's kind)
        decl = game.declaration
        self.decl = decl is not None         # `declare NAME at N cards`: calls, exposure and catching
        self.decl_at = decl[1] if decl else None
        self.challenges = any(k.challenge is not None for k in game.rules.kinds)
        self.names_read = {e["name"] for e in _walk_names(game.rules.ir)}
        hand = game.rules.ir.get("setup", {}).get("hand", {"kind": "number", "value": 7})
        # can a hand other than the player's be empty when a play ends? (a rule moving cards out of
        # hands, or a deal of no cards)
        self.moves_seats = any(a.get("kind") == "swap_seats" for a in _walk_nodes(game.rules.ir))
        # code stopped at each decision keeps what a player was shown of another's hand (a `take`
        # looks at the hand it takes from): `shown`, seat -> seat -> the cards seen, for the round
        self.keeps_shown = self.stepping and shows_hands(game)
        self.moves_hands = (any(a.get("kind") in MOVES_HANDS for a in _walk_nodes(game.rules.ir))
                            or bool(game.rules.reactions)          # an answer to an attack may be a last card
                            or game.rules.jump_in is not None      # so may the card jumped on
                            or not (hand["kind"] == "number" and hand["value"] >= 1))

    # ---- hands, in either representation -------------------------------------------------
    def hand(self, p: str) -> str:
        """p's hand as a collection of cards (faces, when counted), in the representation's order."""
        if self.counted:
            return f"HELD(hc[{p}], hm[{p}])"
        return f"sorted(hands[{p}], key=FACES.__getitem__)" if self.face_order else f"hands[{p}]"

    def faces_held(self, p: str) -> str:
        """p's hand where only its faces matter, each once (counted) or as the hand holds them."""
        return f"FACES_IN(hm[{p}])" if self.counted else self.hand(p)

    def hand_points(self, p: str) -> str:
        """The points of the cards in p's hand."""
        if self.counted:
            return f"HAND_POINTS(hc[{p}], hm[{p}])"
        return f"sum(POINTS[c] for c in {self.hand(p)})"

    def hand_len(self, p: str) -> str:
        return f"hn[{p}]" if self.counted else f"len(hands[{p}])"

    def all_hands(self) -> str:
        """Every hand, for the event log (EV_DEAL)."""
        if self.counted:
            return "[HELD(hc[q], hm[q]) for q in range(N)]"
        return "[sorted(h, key=FACES.__getitem__) for h in hands]" if self.face_order else "hands"

    def gain(self, p: str, card: str):
        """The card (a face, when counted) joins p's hand."""
        if self.counted:
            self.src(f"hc[{p}][{card}] += 1")
            self.src(f"hm[{p}] |= BIT[{card}]")
            self.src(f"hn[{p}] += 1")
            self.count_color(p, card, "+")
        else:
            self.src(f"hands[{p}].append({card})")

    def lose(self, p: str, card: str, hand: str | None = None):
        """The card leaves p's hand (`hand`: a local holding p's hand or its counts)."""
        if self.counted:
            h = hand or f"hc[{p}]"
            self.src(f"{h}[{card}] -= 1")
            with self.src.block(f"if not {h}[{card}]:"):
                self.src(f"hm[{p}] ^= BIT[{card}]")
            self.src(f"hn[{p}] -= 1")
            self.count_color(p, card, "-")
        else:
            self.src(f"{hand or f'hands[{p}]'}.remove({card})")

    def count_color(self, p: str, card: str, sign: str):
        if self.color_counts:
            self.src(f"hk[{p}][CCOLOR[{card}] + 1] {sign}= 1")

    def held_lists(self) -> tuple:
        """The locals that hold the hands, one list by player each."""
        if not self.counted:
            return ("hands",)
        return ("hc", "hm", "hn", "hk") if self.color_counts else ("hc", "hm", "hn")

    def empty_hands(self):
        """Counted hands, all empty (at the start and at each new round)."""
        self.src("hc = [[0] * NFACES for _ in range(N)]")
        self.src("hm = [0] * N")
        self.src("hn = [0] * N")
        if self.color_counts:
            self.src("hk = [[0] * NCOLOR_SLOTS for _ in range(N)]")

    def uniform_agent(self) -> str | None:
        """The agent of every seat, where they all have the same one."""
        if len(set(self.agents)) == 1 and len(self.agents) == self.game.players:
            return self.agents[0]
        return None

    def is_agent(self, p: str, name: str) -> str:
        """The test that seat p's agent is `name` (greedy or random_play): a constant where every
        seat has the same agent, which the code was generated for (Python drops an `if False:`)."""
        uniform = self.uniform_agent()
        if uniform is not None:
            return repr(uniform == name)
        return f"AG[{p}] == {name.upper()}"

    def ask_external(self, extra: str | None = None, when: str | None = None):
        """Seat p's choice among `legal`'s play actions (then `extra`, where `when` holds), made
        outside: the code yields the actions' ids in the engine's order and is sent the index of
        the chosen one, as an inlined agent would pick it."""
        src = self.src
        src("PI = PID_CALL if NO is NOPT_CALL else PID" if self.decl else "PI = PID")
        src("ids = []")
        with src.block("for c in legal:"):
            src("ids += PI[c]")
        if extra:
            if when:
                with src.block(f"if {when}:"):
                    src(f"ids.append({extra})")
            else:
                src(f"ids.append({extra})")
        self.yield_choice("i", "p", "ids")

    def yield_choice(self, var: str, p: str, ids: str, atk: dict | None = None):
        """`var` = the index of the action the outside picks among `ids`, seat p deciding; the
        yield carries what an observation reads (steps.py), and the attack `atk` (the locals of
        the attack under way, where the decision is inside one) while it is pending: its
        attacker, target and penalty."""
        pending = (f"(({atk['attacker']}, {atk['t']}, {atk['pen']}) if {atk['st']} == {literal(PENDING)} else None)"
                   if atk else "None")
        self.src(f"{var} = yield ({p}, {ids}, {STOP_STATE}, {pending}{self.stop_memory()})")

    def stop_memory(self) -> str:
        """The end of a stop's tuple: the counters' values (as the rulebook orders them; a list by
        seat for one kept per player), where the rulebook has counters; then what each player was
        shown of others' hands, where a rule shows them (steps.py reads both)."""
        values = [self.x.memory[c["name"]] for c in self.rules.counters]
        return (f", ({''.join(v + ', ' for v in values)})" if values else "") + (", shown" if self.keeps_shown else "")

    def take(self, var: str):
        """`var` = the card drawn from the (non-empty) pile: its top card, or, where the pile is
        kept unshuffled (face order), one of its cards at random."""
        if self.face_order:
            self.src("jx = int(rnd() * len(pile))")
            self.src(f"{var} = pile[jx]")
            self.src("pile[jx] = pile[-1]")
            self.src("pile.pop()")
        else:
            self.src(f"{var} = pile.pop()")

    def not_counted(self, what: str):
        if self.counted:
            raise NotCovered(f"{what} with hands counted per face")

    def reads(self, name: str) -> bool:
        """Does any expression of the rulebook read this built-in name?"""
        return name in self.names_read

    def where(self, node):
        return self.compiler.where(node)


def _walk_nodes(node):
    """Every dict of an IR tree."""
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _walk_nodes(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk_nodes(v)


def _walk_names(node):
    """Every name node of an IR tree."""
    return (n for n in _walk_nodes(node) if n.get("kind") == "name" and isinstance(n.get("name"), str))


def generate(game, agents: tuple = ("random",), representation: str = "cards", entry: bool = False) -> Source:
    """The source of `play(seed, AG, log, tracked)` for this game and these seats' agents, its hands
    held as `representation` says (Generator); raises NotCovered with the reason when some
    construct has no translation."""
    check_covered(game, entry)
    src = Generator(game, agents, representation, entry).generate()
    check_agents(agents)                 # after the rules: a reason about the rules comes first
    if EXTERNAL in agents:               # a choice the code still makes itself: a decision it cannot stop at
        for line, where in zip(src.lines, src.where):
            if "arnd(" in line:
                raise NotCovered(f"a decision code cannot stop at yet ({where or 'of the turn'})")
    return src
