"""Scenario files (docs/scenarios.md). format.py reads and checks a scenario file,
runner.py sets up its table and plays its steps, answers.py answers the engine's questions as the
scenario says, expect.py checks what it expects. unorules.testing is the public face.

May use the engine and the language.
"""
