"""ns-2.35's random number generator objects made by a script (``new RNG``), number for number.

ns-2.35's ``RNG`` (``tools/rng.cc``) is L'Ecuyer's MRG32k3a with his RngStreams package around
it: every new RNG object starts at the package's "next seed" and moves that seed on by 2^127
steps (``RNG::init``); seeding an object (``$rng seed N``, ``RNG::set_seed``) makes the package
seed six copies of N and re-initialises the object from it, so the next object made starts
2^127 steps after N. ns-2 makes its default RNG and seeds it with 1 at start-up
(``tcl/lib/ns-random.tcl``): the first ``new RNG`` of a script starts 2^127 steps after the
state (1, 1, 1, 1, 1, 1).

This module owns that bookkeeping and the draws the Tcl methods make (``next-random``, and
ns-random.tcl's ``uniform``, ``integer`` and ``exponential`` over it) and those of the C++
random variables bound to such an object (``$rv use-rng $rng``). The default RNG is not
here: ns-2's C++ models draw from it in an order the front end does not follow
(:mod:`ternsim.ns2.errmodel`).

The jump by 2^127 steps is the generator's transition matrices raised to that power, computed
here by squaring them 127 times.
"""

from __future__ import annotations

import math

_M1 = 4_294_967_087
_M2 = 4_294_944_443
#: The two components' transition matrices (state (s0, s1, s2) -> (s1, s2, new)).
_A1 = ((0, 1, 0), (0, 0, 1), (_M1 - 810_728, 1_403_580, 0))
_A2 = ((0, 1, 0), (0, 0, 1), (_M2 - 1_370_589, 0, 527_612))
#: 2^31 - 1, ns-2's MAXINT.
MAXINT = 2_147_483_647

Matrix = tuple[tuple[int, int, int], ...]


def _mat_mul(a: Matrix, b: Matrix, m: int) -> Matrix:
    return tuple(
        tuple(sum(a[i][k] * b[k][j] for k in range(3)) % m for j in range(3)) for i in range(3)
    )


def _mat_vec(a: Matrix, v: list[int], m: int) -> list[int]:
    return [sum(a[i][k] * v[k] for k in range(3)) % m for i in range(3)]


def _two_pow(a: Matrix, e: int, m: int) -> Matrix:
    for _ in range(e):
        a = _mat_mul(a, a, m)
    return a


_JUMP: tuple[Matrix, Matrix] | None = None


def jump_stream(state: list[int]) -> list[int]:
    """``state`` moved on by 2^127 steps (the start of the next RngStream)."""
    global _JUMP
    if _JUMP is None:
        _JUMP = (_two_pow(_A1, 127, _M1), _two_pow(_A2, 127, _M2))
    return _mat_vec(_JUMP[0], state[:3], _M1) + _mat_vec(_JUMP[1], state[3:], _M2)


class Ns2Rng:
    """One ns-2 RNG object's stream (MRG32k3a, RngStreams' ``U01``)."""

    def __init__(self, state: list[int]) -> None:
        self.s = list(state)

    def u01(self) -> float:
        """ns-2 ``RNG::rand_u01`` (``next_double``, ``uniform()``): the next uniform in (0, 1)."""
        s = self.s
        p1 = (1_403_580 * s[1] - 810_728 * s[0]) % _M1
        s[0], s[1], s[2] = s[1], s[2], p1
        p2 = (527_612 * s[5] - 1_370_589 * s[3]) % _M2
        s[3], s[4], s[5] = s[4], s[5], p2
        diff = p1 - p2 if p1 > p2 else p1 - p2 + _M1
        return diff / (_M1 + 1)

    def next_random(self) -> int:
        """``$rng next-random`` (``RNG::next``, ``rand_int(0, MAXINT)``)."""
        return int((MAXINT + 1) * self.u01())

    def tcl_uniform(self, a: float, b: float) -> float:
        """ns-random.tcl's ``RNG instproc uniform {a b}``."""
        return a + (b - a) * (self.next_random() * 1.0 / MAXINT)

    def tcl_integer(self, k: int) -> int:
        """ns-random.tcl's ``RNG instproc integer k``."""
        return self.next_random() % abs(k)

    def tcl_exponential(self, mu: float = 1.0) -> float:
        """ns-random.tcl's ``RNG instproc exponential {{mu 1.0}}``."""
        return -mu * math.log((self.next_random() + 1.0) / (MAXINT + 1.0))


class RngStreams:
    """The package's next seed, as a script's RNG objects and seeds move it."""

    def __init__(self) -> None:
        # ns-random.tcl: the default RNG is made and seeded with 1 at start-up.
        self.next_seed: list[int] | None = jump_stream([1] * 6)

    def new_stream(self) -> Ns2Rng | None:
        """The stream of a new RNG object (``RNG::init``); None once ns-2 seeded from the
        clock (seed 0), whose numbers cannot be known."""
        if self.next_seed is None:
            return None
        rng = Ns2Rng(self.next_seed)
        self.next_seed = jump_stream(self.next_seed)
        return rng

    def seed(self, n: int) -> Ns2Rng | None:
        """``$rng seed N``: the object's new stream (six copies of N); 0 (a seed from the
        clock) makes the package's later streams unknown."""
        if n <= 0:
            self.next_seed = None
            return None
        state = [n] * 6
        self.next_seed = jump_stream(state)
        return Ns2Rng(state)
