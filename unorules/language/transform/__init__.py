"""The Lark parse tree of a .uno file to IR: rulebook.py (the file's items: cards, deck,
triggers, options), actions.py (rule actions) and expressions.py (expressions), each recording the
source span of what it makes."""
