"""Reading the command line's own arguments: agent lists, module names, `--option NAME=VALUE`.
Bad values raise click's usage errors (exit 2); nothing here prints."""
from __future__ import annotations

import re

import click


def agent_names(agents: str) -> tuple[str, ...]:
    """`--agents a,b`: known agent names, in seat order."""
    from unorules.agents.base import AGENTS
    names = tuple(a.strip() for a in agents.split(","))
    if not agents.strip() or any(not a for a in names):
        raise click.BadParameter(f"`{agents}` is not a comma-separated list of agents; agents: {', '.join(AGENTS)}",
                                 param_hint="--agents")
    known = ", ".join([*AGENTS, "ismcts[:N | :SECONDSs]"])
    for a in names:
        if a in AGENTS:
            continue
        if a == "ismcts" or a.startswith("ismcts:"):
            from unorules.agents.search import search_budget
            try:
                search_budget(a)
            except ValueError as e:
                raise click.BadParameter(f"`{a[:40]}`: the budget is a number of determinizations (`ismcts:20`) or of "
                                         f"seconds (`ismcts:0.2s`) ({e})", param_hint="--agents") from None
            continue
        raise click.BadParameter(f"unknown agent `{a}`; agents: {known}", param_hint="--agents")
    return names


_NAME = re.compile(r"[a-z_][a-z0-9_]*")


def module_names(include) -> tuple[str, ...]:
    """`--include NAME`: names only, resolved beside the rulebook, in --path folders and among the
    shipped modules; a path is not a name (use --with for a file)."""
    for name in include:
        if not _NAME.fullmatch(name):
            raise click.BadParameter(f"`{name}` is not a module name (lower-case letters, digits and `_`); "
                                     "to lay a file on top, use --with FILE", param_hint="--include")
    return tuple(include)


def parse_options(pairs):
    out = []
    for item in pairs:
        if "=" not in item:
            raise click.UsageError(f"--option takes NAME=VALUE, not `{item}`")
        k, v = item.split("=", 1)
        low = v.strip().lower()
        if low in ("true", "false"):
            value = low == "true"
        else:
            try:
                value = int(v)
            except ValueError:
                try:
                    value = float(v)
                except ValueError:
                    value = v
        out.append((k.strip(), value))
    return tuple(out)
