"""Beyond one machine (issue 14): `simulate --backend ray` plays the run's per-game seeds as Ray
tasks and merges their statistics; the totals equal one process's. Run on a local Ray with 2 CPUs;
skipped where Ray is not installed (.ci/run installs it and requires this test)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from helpers import run_cli

REQUIRED = bool(os.environ.get("UNORULES_REQUIRE_EXTRAS"))


@pytest.fixture(scope="module")
def ray():
    ray = __import__("ray") if REQUIRED else pytest.importorskip("ray")
    from unorules.runs.cluster import start_ray, stop_ray
    replaced = start_ray(num_cpus=2)          # as a run starts its own: token authentication on
    yield ray
    stop_ray(replaced)


def test_a_local_ray_refuses_a_client_without_its_token(ray, tmp_path):
    """Ray's servers listen on every interface; the Ray a run starts wants its token: a process
    that has none is refused (today's code started it with no authentication)."""
    address = ray.get_runtime_context().gcs_address
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(HOME=str(tmp_path), RAY_AUTH_MODE="disabled")
    probe = ("import ray\n"
             f"ray.init(address={address!r}, log_to_driver=False, configure_logging=False)\n"
             "print('connected', ray.cluster_resources().get('CPU'))\n")
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=120)
    assert "connected" not in done.stdout
    assert done.returncode != 0 and "auth" in (done.stderr + done.stdout).lower()


def test_a_local_ray_is_started_with_a_token_whatever_the_environment_says(monkeypatch):
    """RAY_AUTH_MODE=disabled in the user's environment does not open the run's own Ray; the
    environment is given back when it stops; a cluster's address is joined as it is."""
    pytest.importorskip("ray") if not REQUIRED else None
    import unorules.runs.cluster as cluster
    seen = []

    class FakeRay:
        def init(self, **kwargs):
            seen.append((kwargs, os.environ.get("RAY_AUTH_MODE"), os.environ.get("RAY_AUTH_TOKEN")))

        def shutdown(self):
            pass

    monkeypatch.setattr(cluster, "ray_module", lambda: FakeRay())
    monkeypatch.setattr(cluster, "_reread_environment", lambda: None)
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    monkeypatch.delenv("RAY_AUTH_TOKEN", raising=False)
    cluster.stop_ray(cluster.start_ray(num_cpus=1))
    kwargs, mode, token = seen[0]
    assert mode == "token" and token and len(token) >= 32
    assert kwargs["_node_ip_address"] == "127.0.0.1" and kwargs["include_dashboard"] is False
    assert os.environ["RAY_AUTH_MODE"] == "disabled" and "RAY_AUTH_TOKEN" not in os.environ
    cluster.stop_ray(cluster.start_ray("ray://cluster:10001"))
    kwargs, mode, token = seen[1]
    assert kwargs["address"] == "ray://cluster:10001" and "_node_ip_address" not in kwargs and mode == "disabled"


def test_ray_is_required_from_the_release_with_token_authentication():
    extras = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())
    (requirement,) = extras["project"]["optional-dependencies"]["ray"]
    version = tuple(int(x) for x in requirement.split(">=")[1].split("."))
    assert version >= (2, 52)


def test_ray_totals_equal_one_process(ray):
    from unorules.runs.cluster import simulate_ray
    from unorules.runs.simulation import RunSpec, simulate
    spec = RunSpec("official", players=3, seed=7, agents=("greedy", "random_play"), rounds="single", track=("wild",))
    progress = []
    on_ray = simulate_ray(spec, 90, progress=progress.append)
    here = simulate(spec, 90, workers=1)
    assert on_ray.as_dict(3) == here.as_dict(3)
    assert on_ray.games == 90 and sum(progress) == 90 and len(progress) > 1    # streamed, chunk by chunk


def test_ray_runs_a_custom_card_from_a_file_the_workers_never_read(ray, tmp_path):
    from unorules.runs.cluster import simulate_ray
    from unorules.runs.simulation import RunSpec, make_game, simulate
    card = tmp_path / "draw_one.uno"
    card.write_text("module draw_one\nfor official\ncard wild_customizable {\n  on play:\n"
                    "    choose color\n    next draw 1\n}\n")
    spec = RunSpec("official", with_=(str(card),), players=4, seed=1, agents=("random_play",), rounds="single")
    game = make_game(spec)
    here = simulate(spec, 40, workers=1)
    card.unlink()                  # the workers get the game as its merged rulebook, not as a path
    assert simulate_ray(spec, 40, game=game).as_dict(4) == here.as_dict(4)
    assert here.as_dict(4) != simulate(RunSpec("official", players=4, seed=1, agents=("random_play",),
                                               rounds="single"), 40, workers=1).as_dict(4)   # the card counts


def test_cli_backend_ray_gives_the_totals_of_one_worker(ray):
    # the CLI finds the Ray the fixture started (ray.is_initialized) and leaves it running
    code, out, err = run_cli("simulate", "classic", "-n", "60", "-p", "3", "--rounds", "single", "--json",
                             "--backend", "ray")
    assert code == 0, err
    one = run_cli("simulate", "classic", "-n", "60", "-p", "3", "--rounds", "single", "--json", "--workers", "1")
    a, b = json.loads(out), json.loads(one[1])
    for d in (a, b):
        d.pop("seconds")
    assert a == b


def test_workers_with_the_ray_backend_are_said_to_be_ignored(ray):
    code, out, err = run_cli("simulate", "classic", "-n", "8", "--backend", "ray", "--workers", "3")
    assert code == 0 and "--workers is ignored" in err


def test_address_needs_the_ray_backend():
    code, out, err = run_cli("simulate", "classic", "-n", "5", "--address", "auto")
    assert code == 2 and "--backend ray" in err


def test_ray_and_events_do_not_mix(tmp_path):
    code, out, err = run_cli("simulate", "classic", "-n", "5", "--backend", "ray", "--events", tmp_path / "e.jsonl")
    assert code == 2 and "--events" in err and not (tmp_path / "e.jsonl").exists()


def test_precision_on_ray_plays_the_looks_of_one_worker(ray):
    """Each look of --precision goes on from the last game played, on Ray as here: the same games."""
    args = ("simulate", "rlcard", "-n", "100", "-p", "2", "--agents", "random", "--precision", "9",
            "--max-games", "800", "--json")
    code, out, err = run_cli(*args, "--backend", "ray")
    assert code == 0, err
    code1, out1, err1 = run_cli(*args, "--workers", "1")
    assert code1 == 0, err1
    on_ray, here = json.loads(out), json.loads(out1)
    assert on_ray["precision"]["games"] == here["precision"]["games"] == on_ray["games"]
    assert on_ray["wins_by_seat"] == here["wins_by_seat"]
    assert ray.is_initialized()                 # the run left the test's Ray running


def test_ray_plays_native_code_with_the_totals_of_one_process(ray):
    """Native code on Ray (issue 31): the tasks load the module this machine compiled (one cache
    per machine) and their totals are one process's."""
    if not REQUIRED:
        pytest.importorskip("numba")
    from unorules.runs.cluster import simulate_ray
    from unorules.runs.simulation import RunSpec, simulate
    spec = RunSpec("rlcard", players=4, seed=3, agents=("random",), rounds="single", simulator="native")
    assert simulate_ray(spec, 3000).as_dict(4) == simulate(spec, 3000, workers=1).as_dict(4)
