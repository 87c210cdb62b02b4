"""Generated simulators. generator.py writes the Python of one compiled rulebook (from
identifiers it makes and `repr` of checked numbers, never from rulebook text), with options.py,
turns.py, actions.py, attacks.py, choices.py, windows.py and expressions.py for its parts;
generated.py compiles that source once per process and plays games with it.

May use the engine and the language; tests hold it equal to the engine game for game.
"""
