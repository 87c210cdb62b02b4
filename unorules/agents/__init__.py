"""Who plays a seat. base.py has the agent interface, the random and greedy agents and
the table of agents by name; search.py (information-set MCTS, over belief.py's sampled hidden
hands) adds itself to that table. Importing the package fills the table.

May use the engine and the language.
"""
from . import base, search  # noqa: F401  (search adds `ismcts` to the table of agents)
