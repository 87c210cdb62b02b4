"""Runs beyond one machine: the same per-game seeds as `simulate`, played as Ray tasks on a
cluster (or on a local Ray started for the run), their streaming statistics merged as they come
back. The totals are those of one process: a game's seed depends only on its index, and a
Summary's merge does not depend on the order of its parts."""
from __future__ import annotations

import hashlib
import pickle

from unorules.errors import UnorulesError
from .simulation import RunSpec, chunks, make_game, run_range, simulator_for
from .stats import Summary


def ray_module():
    try:
        import ray
    except ImportError:
        raise UnorulesError("the ray backend needs Ray: pip install 'unorules[ray]'") from None
    return ray


class ray_session:
    """Ray started once for several runs (the looks of --precision): each run then finds it
    running and leaves it so; it is shut down when the block ends, if this started it."""

    def __init__(self, address: str | None = None):
        self.address = address
        self.started = False

    def __enter__(self):
        ray = ray_module()
        if not ray.is_initialized():
            try:
                ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False,
                         **({"address": self.address} if self.address else {}))
            except (ConnectionError, ValueError, RuntimeError) as e:
                raise UnorulesError(f"cannot reach the Ray cluster at {self.address or 'a local Ray'}: {e}") from None
            self.started = True
        return self

    def __exit__(self, *exc):
        if self.started:
            ray_module().shutdown()
        return False


def simulate_ray(spec: RunSpec, games: int, address: str | None = None, progress=None,
                 num_cpus: int | None = None, game=None, start: int = 0) -> Summary:
    """Play `games` games of `spec` as Ray tasks. `address`: a running cluster's (`ray://host:10001`
    or `auto`); None starts a local Ray for the run (with `num_cpus` CPUs, default all) and stops it
    after. Each task plays a chunk of consecutive games and returns its Summary. `game`: the
    spec's game, when the caller has compiled it already. `start`: the run's first game to play
    (a look of --precision goes on from the last)."""
    ray = ray_module()
    started_here = not ray.is_initialized()
    if started_here:
        kwargs = {"address": address} if address else {"num_cpus": num_cpus}
        try:
            ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False, **kwargs)
        except (ConnectionError, ValueError, RuntimeError) as e:
            raise UnorulesError(f"cannot reach the Ray cluster at {address or 'a local Ray'}: {e}") from None
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
        if started_here:
            ray.shutdown()


_WORKER_GAMES: dict = {}        # per worker process: the game of the run, compiled once


def _play_chunk(spec: RunSpec, key: str, blob: bytes, start: int, stop: int) -> Summary:
    if key not in _WORKER_GAMES:
        _WORKER_GAMES.clear()
        _WORKER_GAMES[key] = pickle.loads(blob)
    return run_range(spec, start, stop, game=_WORKER_GAMES[key])
