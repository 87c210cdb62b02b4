"""`python -m unorules ...`: the command line, as the `unorules` command runs it."""
from unorules.cli import main

main()
