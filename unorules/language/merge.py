"""Stage 2b, the merge: one file's items laid over the IR merged so far (`extends`, `include`,
`--with`): settings by key, cards by name, decks added, named triggers and reactions removed or
replaced, copies of a kind replaced, removals a module keeps for the rulebook it is laid on.
loader.py assembles the files and calls `lay_over` for each."""
from __future__ import annotations

from unorules.errors import did_you_mean

SINGLE_KEYS = ("title", "players", "colors", "pair_sides", "teams", "piles", "out_of_turn")
SETTING_BLOCKS = ("setup", "turn", "scoring", "jump_in")
CARD_FIELDS = ("category", "side", "points", "playable_when", "legal_when", "challenge", "at_any_time", "matches_as")


def copy_shell(ir: dict) -> dict:
    """A copy of a merged IR's containers; the leaves (expressions, actions) stay shared."""
    out = {}
    for k, v in ir.items():
        if k == "cards":
            out[k] = [dict(c, effects=list(c["effects"])) if "effects" in c else dict(c) for c in v]
        elif isinstance(v, list):
            out[k] = list(v)
        elif isinstance(v, dict):
            out[k] = dict(v)
        else:
            out[k] = v
    return out


def lay_over(merged: dict, own: dict, asm, included: bool = False):
    """Lay one file's items over the merged IR: add, override, remove."""
    for k in SINGLE_KEYS:
        if k in own and not (included and k == "title"):
            merged[k] = own[k]
    for side in own.get("sides", []):
        sides = merged.setdefault("sides", [])
        sides[:] = [s for s in sides if s["name"] != side["name"]] + [side]
    for key in ("options", "counters", "rules"):   # by name: a later declaration replaces an earlier one
        for item in own.get(key, []):
            items = merged.setdefault(key, [])
            items[:] = [o for o in items if o["name"] != item["name"]] + [item]
    for block in SETTING_BLOCKS:
        if block in own:
            if included:
                for key, value in own[block].items():
                    prev = asm.setting_from.get((block, key))
                    if prev is not None and prev[0] != own["name"] and prev[1] != value:
                        asm.error("U0702", f"`{own['name']}` and `{prev[0]}` both set `{block} {key.replace('_', ' ')}`, "
                                           "differently", own[block], key, "conflicting setting",
                                  f"include only one of them, or settle it in the rulebook's own `{block}` block")
                    asm.setting_from[(block, key)] = (own["name"], value, own[block])
            before = merged.get(block, {})
            merged[block] = block_now = {**before, **own[block]}
            # where each setting came from, for the checker's messages
            for key in block_now:
                src = own[block] if key in own[block] else before
                span = asm.spans.at(src, key)
                if span is not None:
                    asm.spans.put(block_now, span, key)
            asm.spans.put(block_now, asm.spans.at(own[block]))
            asm.origins[id(block_now)] = asm.origins.get(id(own[block]))
            asm.keep.append(block_now)
    removed = asm.removed.setdefault(id(merged), (merged, set()))[1]     # (the IR kept alive: its id stays its own)
    for removal in own.get("remove_settings", []):
        block = merged.get(removal["block"], {})
        if removal["key"] not in block and merged.get("kind") == "module":
            merged.setdefault("remove_settings", []).append(removal)    # for the rulebook it is laid over
            continue
        if removal["key"] not in block and (removal["block"], removal["key"]) in removed:
            continue                    # two modules that both remove it (lazy_scoring and fixed_rounds)
        if removal["key"] not in block:
            asm.error("U0204", f"there is no `{removal['block']} {removal['key']}` to remove", removal, "key",
                      "not set", did_you_mean(removal["key"], block) or
                      (f"set here: {', '.join(block)}" if block else f"nothing is set in `{removal['block']}`"))
            continue
        merged[removal["block"]] = {k: v for k, v in block.items() if k != removal["key"]}
        removed.add((removal["block"], removal["key"]))
    cards = merged.setdefault("cards", [])
    by_name = {c["names"][0]: c for c in cards}
    seen_here: dict[str, tuple] = {}
    for decl in own.get("cards", []):
        for i, name in enumerate(decl["names"]):
            if name in seen_here:
                asm.error("U0202", f"card `{name}` is declared twice in this file", decl["names"], i,
                          "declared again here", "merge the two declarations",
                          related=[(*seen_here[name], "first declared here")])
                continue
            seen_here[name] = (decl["names"], i)
            card = by_name.get(name)
            if card is None:
                card = {"names": [name]}
                asm.spans.put(card, asm.spans.at(decl))
                asm.spans.put(card["names"], asm.spans.at(decl["names"], i), 0)
                asm.origins[id(card)] = asm.origins[id(card["names"])] = asm.origins.get(id(decl))
                asm.keep.append(card)
                cards.append(card)
                by_name[name] = card
            for f in CARD_FIELDS:
                if f in decl:
                    card[f] = decl[f]
            if decl.get("effects"):
                events = {e["event"] for e in decl["effects"]}
                card["effects"] = [e for e in card.get("effects", []) if e["event"] not in events] + list(decl["effects"])
    for r in own.get("replace_copies", []):        # before `remove card`: the kind emptied may then go
        _replace_copies(merged, r, asm)
    for removal in own.get("remove_cards", []):
        for i, name in enumerate(removal["names"]):
            if name not in by_name and merged.get("kind") == "module":
                # for the rulebook the module is laid on, as `remove scoring ...` is
                later = merged.setdefault("remove_cards", [])
                if removal not in later:
                    later.append(removal)
                continue
            if name not in by_name:
                asm.error("U0204", f"there is no card `{name}` to remove", removal["names"], i,
                          "unknown card", did_you_mean(name, by_name))
                continue
            cards.remove(by_name.pop(name))
            merged["deck"] = [_without(d, name) for d in merged.get("deck", [])]
    if own.get("deck"):
        merged.setdefault("deck", []).extend(own["deck"])
    _remove_and_replace_hooks(merged, own, asm)
    for key in ("reactions", "triggers"):
        names = {o["name"]: o for o in merged.get(key, []) if "name" in o}
        for item in own.get(key, []):
            if "name" not in item:
                continue
            if item["name"] not in names:
                names[item["name"]] = item
            else:
                asm.error("U0202", f"a {key[:-1]} named `{item['name']}` is already given", item, "name",
                          "named again here", f"write `replace {key[:-1]} {item['name']}: ...`, or choose another name",
                          related=[(names[item["name"]], "name", "first named here")])
    for key in ("play_rules", "reactions", "triggers"):
        if own.get(key):
            merged.setdefault(key, []).extend(own[key])
    for key in ("declarations", "false_calls"):       # by name: a later one replaces an earlier one
        for decl in own.get(key, []):
            decls = merged.setdefault(key, [])
            decls[:] = [d for d in decls if d["name"] != decl["name"]] + [decl]
    if "include" in own:
        merged.setdefault("include", [])
        merged["include"] = list(dict.fromkeys(merged["include"] + own["include"]))


def _remove_and_replace_hooks(merged: dict, own: dict, asm):
    """`remove trigger|reaction NAME` and `replace trigger|reaction NAME [if C]: ACTIONS`, of the
    named triggers and reactions laid so far; in a module, one it does not find is kept for the
    rulebook the module is laid on (as `remove card` is)."""
    for key, action in (("remove_hooks", "remove"), ("replace_hooks", "replace")):
        for r in own.get(key, []):
            lst = merged.get(r["kind"] + "s", [])
            at = next((i for i, o in enumerate(lst) if o.get("name") == r["name"]), None)
            if at is None:
                if merged.get("kind") == "module":
                    later = merged.setdefault(key, [])
                    if r not in later:
                        later.append(r)
                    continue
                names = [o["name"] for o in lst if "name" in o]
                asm.error("U0204", f"there is no {r['kind']} named `{r['name']}` to {action}", r, "name",
                          f"no such {r['kind']}", did_you_mean(r["name"], names) or
                          (f"named {r['kind']}s here: {', '.join(names)}" if names else
                           f"no {r['kind']} here has a name: give one `as NAME`"))
                continue
            if action == "remove":
                del lst[at]
                continue
            new = {k: v for k, v in lst[at].items() if k not in ("if", "actions")}
            if "if" in r:
                new["if"] = r["if"]
            new["actions"] = r["actions"]
            asm.spans.put(new, asm.spans.at(r))
            for k in ("if", "actions"):
                if k in new:
                    asm.spans.put(new, asm.spans.at(r, k) or asm.spans.at(r), k)
            asm.origins[id(new)] = asm.origins.get(id(r))
            asm.keep.append(new)
            lst[at] = new


def _replace_copies(merged: dict, r: dict, asm):
    """`replace N × KIND with NAME`: N copies of a colorless kind in the box become copies of
    NAME (declared as a card), so the box keeps its size; in a module, a kind the module's own
    files do not have is kept for the rulebook it is laid on."""
    face, n = r["face"], r["count"]
    decks = merged.get("deck", [])
    held = [(d, e) for d in decks for e in d["entries"] if e["kind"] == "copies" and face in e["faces"]]
    if any(e["kind"] == "per_color" and any(face in c["faces"] for c in e["copies"]) for d in decks for e in d["entries"]):
        asm.error("U0403", f"`{face}` is dealt per color: `replace` takes copies of a card without a color", r, "face",
                  "dealt per color", "replace a wild's copies, or give the new card its own deck entry")
        return
    if len({d.get("side") for d in decks}) > 1:
        asm.error("U0403", "`replace` needs a one-sided box: with sides each card has a face on every side", r, None,
                  "a box with sides")
        return
    total = sum(e["count"] for _, e in held)
    if not held:
        if merged.get("kind") == "module":
            later = merged.setdefault("replace_copies", [])
            if r not in later:
                later.append(r)
            return
        known = sorted({f for d in decks for e in d["entries"] if e["kind"] == "copies" for f in e["faces"]})
        asm.error("U0204", f"the box holds no `{face}` to replace", r, "face", "not in the box",
                  did_you_mean(face, known))
        return
    if total < n:
        asm.error("U0303", f"the box holds {total} × {face}, not {n}", r, "count", "more than the box holds",
                  f"replace at most {total}")
        return
    new = {"kind": "copies", "count": n, "faces": [r["with"]]}
    asm.spans.put(new, asm.spans.at(r))
    asm.spans.put(new["faces"], asm.spans.at(r, "with"), 0)
    asm.origins[id(new)] = asm.origins[id(new["faces"])] = asm.origins.get(id(r))
    asm.keep += [new, new["faces"]]
    left = n
    for k, old in enumerate(decks):     # new containers: the base's IR (perhaps cached) is shared
        if not left or not any(e["kind"] == "copies" and face in e["faces"] for e in old["entries"]):
            continue
        entries = []
        for e in old["entries"]:
            if not left or e["kind"] != "copies" or face not in e["faces"]:
                entries.append(e)
                continue
            take = min(left, e["count"])
            left -= take
            rest = [f for f in e["faces"] if f != face]
            for piece in ([dict(e, faces=rest)] if rest else []) + \
                    ([dict(e, faces=[face], count=e["count"] - take)] if e["count"] > take else []):
                asm.spans.put(piece, asm.spans.at(e))
                asm.origins[id(piece)] = asm.origins.get(id(e))
                asm.keep.append(piece)
                entries.append(piece)
        if new is not None:
            entries.append(new)
            new = None
        deck = dict(old, entries=entries)
        asm.spans.put(deck, asm.spans.at(old))
        asm.origins[id(deck)] = asm.origins.get(id(old))
        asm.keep.append(deck)
        decks[k] = deck


def _without(deck: dict, name: str) -> dict:
    entries = []
    for e in deck["entries"]:
        if e["kind"] == "per_color":
            copies = [c for c in e["copies"] if name not in c["faces"] or len(c["faces"]) > 1]
            copies = [c if name not in c["faces"] else dict(c, faces=[f for f in c["faces"] if f != name])
                      for c in copies]
            if copies:
                entries.append(dict(e, copies=copies))
        elif name not in e["faces"] or len(e["faces"]) > 1:
            entries.append(e if name not in e["faces"] else dict(e, faces=[f for f in e["faces"] if f != name]))
    return dict(deck, entries=entries)
