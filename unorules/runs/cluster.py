"""Runs beyond one machine: the same per-game seeds as `simulate`, played as Ray tasks on a
cluster (or on a local Ray started for the run), their streaming statistics merged as they come
back. The totals are those of one process: a game's seed depends only on its index, and a
Summary's merge does not depend on the order of its parts."""
from __future__ import annotations

import hashlib
import os
import pickle
import secrets

from unorules.errors import UnorulesError
from .simulation import RunSpec, chunks, make_game, run_range, simulator_for
from .stats import Summary


def ray_module():
    try:
        import ray
    except ImportError:
        raise UnorulesError("the ray backend needs Ray: pip install 'unorules[ray]'") from None
    return ray


_TOKEN = secrets.token_hex(32)     # this process's local Ray's token (never written to a file)
LOCAL_ENVIRONMENT = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": _TOKEN}


def start_ray(address: str | None = None, num_cpus: int | None = None) -> dict:
    """ray.init: a cluster's `address`, or a Ray started here for this run. Ray's servers listen
    on every interface whatever they are told (Ray has no loopback-only setting), so the local
    Ray always requires token authentication (Ray 2.52 on), with a fresh token of this process's
    handed to its processes in their environment, whatever RAY_AUTH_MODE said; and it names
    itself by the loopback address. Returns the environment it replaced, for stop_ray."""
    ray = ray_module()
    kwargs = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
    replaced = {}
    if address:
        kwargs["address"] = address
    else:
        replaced = {k: os.environ.get(k) for k in LOCAL_ENVIRONMENT}
        os.environ.update(LOCAL_ENVIRONMENT)
        _reread_environment()
        kwargs.update(num_cpus=num_cpus, _node_ip_address="127.0.0.1")
    try:
        ray.init(**kwargs)
    except (ConnectionError, ValueError, RuntimeError) as e:
        _restore(replaced)
        raise UnorulesError(f"cannot reach the Ray cluster at {address or 'a local Ray'}: {e}") from None
    return replaced


def stop_ray(replaced: dict) -> None:
    ray_module().shutdown()
    _restore(replaced)


def _restore(replaced: dict) -> None:
    for k, v in replaced.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    if replaced:
        _reread_environment()


def _reread_environment() -> None:
    """Ray reads RAY_AUTH_MODE and its token once, when imported: have it read them again (as
    Ray's own token set-up does), for a Ray imported before the run set them."""
    try:
        from ray._raylet import AuthenticationTokenLoader, Config
    except ImportError:          # a Ray without token authentication: pyproject asks for 2.52 on
        raise UnorulesError("this Ray has no token authentication: pip install 'ray>=2.52'") from None
    Config.initialize("")
    AuthenticationTokenLoader.instance().reset_cache()


class ray_session:
    """Ray started once for several runs (the looks of --precision): each run then finds it
    running and leaves it so; it is shut down when the block ends, if this started it."""

    def __init__(self, address: str | None = None):
        self.address = address
        self.replaced = None

    def __enter__(self):
        if not ray_module().is_initialized():
            self.replaced = start_ray(self.address)
        return self

    def __exit__(self, *exc):
        if self.replaced is not None:
            stop_ray(self.replaced)
        return False


def simulate_ray(spec: RunSpec, games: int, address: str | None = None, progress=None,
                 num_cpus: int | None = None, game=None, start: int = 0) -> Summary:
    """Play `games` games of `spec` as Ray tasks. `address`: a running cluster's (`ray://host:10001`
    or `auto`); None starts a local Ray for the run (with `num_cpus` CPUs, default all) and stops it
    after. Each task plays a chunk of consecutive games and returns its Summary. `game`: the
    spec's game, when the caller has compiled it already. `start`: the run's first game to play
    (a look of --precision goes on from the last)."""
    ray = ray_module()
    replaced = start_ray(address, num_cpus) if not ray.is_initialized() else None
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        play = ray.remote(_play_chunk)
        # a Game pickles as its merged rulebook, so no node reads a file; each worker compiles it once
        game = game if game is not None else make_game(spec)
        if spec.simulator == "native":  # compiled here, into this machine's cache, before any task starts
            simulator_for(game, spec)
        blob = pickle.dumps(game)
        ref = ray.put(blob)
        key = hashlib.sha256(blob).hexdigest()
        pending = [play.remote(spec, key, ref, a, b) for a, b in chunks(games, max(1, cpus), start, spec.simulator)]
        total = Summary()
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            part = ray.get(done[0])
            total.merge(part)
            if progress is not None:
                progress(part.games)
        return total
    finally:
        if replaced is not None:
            stop_ray(replaced)


_WORKER_GAMES: dict = {}        # per worker process: the game of the run, compiled once


def _play_chunk(spec: RunSpec, key: str, blob: bytes, start: int, stop: int) -> Summary:
    if key not in _WORKER_GAMES:
        _WORKER_GAMES.clear()
        _WORKER_GAMES[key] = pickle.loads(blob)
    return run_range(spec, start, stop, game=_WORKER_GAMES[key])
