"""The native simulator's random generator, in pure Python: SplitMix64 (Steele, Lea and Flood,
"Fast splittable pseudorandom number generators", OOPSLA 2014; the seeding function of
xoshiro). Each game has its own stream, started from the game's seed (runs.simulation.game_seed);
the agents' stream, where the code keeps one apart, from the seed plus one.

    state  <- state + 0x9E3779B97F4A7C15   (mod 2**64)
    z      <- mix(state)                   (two xor-shift-multiply rounds)
    random -> (z >> 11) * 2**-53           (a float in [0, 1), 53 bits)

native/runtime.py computes the very same numbers in numba; `SplitMix` stands in for
`random.Random` in the counted Python code (codegen.generated.Program(rng=SplitMix)), and that
Python program is the reference the native one must equal game for game."""
from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
UNIT = 1.0 / (1 << 53)


def mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


class SplitMix:
    """random.Random's one method the generated code calls (`random`), on SplitMix64."""
    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = seed & MASK64

    def random(self) -> float:
        self.state = (self.state + GOLDEN) & MASK64
        return (mix(self.state) >> 11) * UNIT
