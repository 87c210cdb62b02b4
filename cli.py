"""Thin entry point: `python cli.py ...` runs the same CLI as the `unorules` command."""
from unorules.cli import main

if __name__ == "__main__":
    main()
