"""Testing rules: the Python API of scenario files and a pytest hook.

    from unorules.testing import run_scenario
    result = run_scenario("tests/scenarios/classic/skip.yaml")
    assert result.ok, result.report()

In a project's conftest.py, `from unorules.testing import pytest_collect_file` makes pytest run
every scenario file under the test folders as its own test case (one per scenario in the file).
"""
from __future__ import annotations

from pathlib import Path

from unorules.scenarios.runner import Result, load_scenarios, run, run_file, scenario_files

__all__ = ["run_scenario", "run_scenarios", "report", "pytest_collect_file"]


def report(result: Result) -> str:
    """The failure message: the first difference, then the trace of decisions."""
    if result.ok:
        return f"ok    {result.scenario.name}"
    lines = [f"FAIL  {result.scenario.name}  ({result.scenario.file})", f"      {result.message}"]
    if result.trace:
        lines.append("      decisions:")
        lines += [f"        {t}" for t in result.trace[-25:]]
    return "\n".join(lines)


Result.report = report


def _follow(generated: bool):
    """What follows a scenario's run: generated code (codegen/steps.py's Follower), or nothing."""
    if not generated:
        return None
    from unorules.codegen.steps import Follower
    return Follower.enter


def run_scenario(path: str | Path, index: int | None = None, generated: bool = False) -> Result:
    """Run the scenario in a file (the `index`-th when the file holds a list); returns a Result.
    `generated`: follow it in generated code too, where the code can go on from its given position
    (a rulebook the step code covers; a dealt start from its first turn): sent the same answers, it must offer the
    same decisions and reach the same positions as the engine, or the scenario fails; the Result's
    `generated` says how far it went, or why not."""
    follow = _follow(generated)
    results = run_file(path, follow) if index is None else [run(load_scenarios(path)[index], follow)]
    if len(results) != 1 and index is None:
        bad = [r for r in results if not r.ok]
        return bad[0] if bad else results[0]
    return results[0]


def run_scenarios(paths, generated: bool = False) -> list[Result]:
    out = []
    follow = _follow(generated)
    for f in scenario_files(paths):
        out += run_file(f, follow)
    return out


# ---- pytest -------------------------------------------------------------------------------------

def pytest_collect_file(parent, file_path):
    if file_path.suffix in (".yaml", ".yml") and "scenarios" in file_path.parts:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


try:
    import pytest

    class ScenarioFile(pytest.File):
        def collect(self):
            try:
                scenarios = load_scenarios(self.path)
            except Exception as e:            # reported as one failing item
                yield ScenarioItem.from_parent(self, name=self.path.name, scenario=None, problem=e)
                return
            for sc in scenarios:
                yield ScenarioItem.from_parent(self, name=sc.name, scenario=sc, problem=None)

    class ScenarioItem(pytest.Item):
        def __init__(self, *, scenario, problem, **kw):
            super().__init__(**kw)
            self.scenario = scenario
            self.problem = problem
            # no fixtures: an empty table, as a test function without arguments has (other plugins,
            # pytest-lsp's among them, read `item.funcargs` of every item they run)
            self.funcargs = {}

        def runtest(self):
            if self.problem is not None:
                raise ScenarioFailure(getattr(self.problem, "render", lambda: str(self.problem))())
            result = run(self.scenario)
            if not result.ok:
                raise ScenarioFailure(report(result))

        def repr_failure(self, excinfo):
            if isinstance(excinfo.value, ScenarioFailure):
                return str(excinfo.value)
            return super().repr_failure(excinfo)

        def reportinfo(self):
            return self.path, 0, f"scenario: {self.name}"

    class ScenarioFailure(Exception):
        pass
except ImportError:            # pytest is a test dependency only
    pass
