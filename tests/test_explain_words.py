"""`explain` says what runs (issue 58): the hand a card's rules read, wilds and action cards, a
trigger that fires for the card that switched it on, what `explain --card` adds about the card's
marks, elimination, and the agreement of its pronouns and articles."""
from __future__ import annotations

from unorules.language.explain.rulebook import explain
from unorules.language.loader import load

from helpers import DATA, write


def card_file(tmp_path, body, head="rulebook t \"t\"\nextends classic\n"):
    return load(write(tmp_path, "t.uno", head + body + "\n"))


def test_a_card_s_hand_is_said_with_the_card_while_judged_and_without_it_once_played(tmp_path):
    rb = card_file(tmp_path, "card wild_big {\n  wild\n  points 50\n  playable when me.hand.size >= 3\n  on play:\n"
                             "    choose color\n    if me.hand.size >= 3 { next draw 1 }\n}\ndeck { 1 × wild_big }")
    text = explain(rb, "wild_big")
    assert "at least 3 (your hand still holds this card as this is judged)" in text
    assert "When you play it (it has left your hand by then):" in text


def test_action_cards_are_said_not_to_be_wilds(tmp_path):
    rb = card_file(tmp_path, "card wild_act {\n  wild\n  points 50\n  on play:\n    choose color\n"
                             "    if me.hand.any(card is action) { next draw 1 }\n}\ndeck { 1 × wild_act }")
    assert "you hold an action card (wilds are not action cards)" in explain(rb, "wild_act")


def test_a_trigger_a_card_switches_on_is_said_to_fire_for_that_card_and_explain_card_says_its_mark():
    rb = load(str(DATA / "curse.uno"))        # pinned by tests/scenarios/language/own_card_trigger.yaml
    note = "It fires for the `wild_curse` that sets it too"
    assert note in explain(rb)
    card = explain(rb, "wild_curse")
    assert "What it keeps track of:" in card and "- `cursed`: a mark (set or not) for the table" in card
    assert "cleared when the next turn of the player who last set it is over" in card and note in card


def test_a_trigger_that_starts_from_the_next_card_is_not_said_to_fire_for_its_own(tmp_path):
    text = (DATA / "curse.uno").read_text().replace("on play if cursed:", "on play if cursed and card.kind != wild_curse:")
    rb = load(write(tmp_path, "curse.uno", text))
    assert "It fires for the" not in explain(rb)


def test_pronouns_and_articles_agree(tmp_path):
    rb = card_file(tmp_path, "card wild_all {\n  wild\n  points 50\n  on play:\n    choose color\n"
                             "    choose kind where me.hand.has(candidate) as q\n    attack me penalty 1 { draw penalty }\n"
                             "    each other eliminate\n    if me.hand.has(top.kind) { eliminate from round }\n}\n"
                             "deck { 1 × wild_all }")
    text = explain(rb, "wild_all")
    for wrong in ("you is", "they is", "hold a it", "hold a the"):
        assert wrong not in text, wrong
    assert "you are attacked" in text and "you are out of this round" in text
    assert "such that you hold a card of it" in text and "you hold a card of the kind of the top card" in text


def test_elimination_is_said_in_the_scoring_as_it_runs():
    text = explain(load(str(DATA / "elimination.uno")))
    assert "The game ends when a player's score reaches 100." in text
    assert "When a rule leaves one player in the round, that player wins it at once" in text
    assert "when one player is left in the game, that player wins the game" in text
