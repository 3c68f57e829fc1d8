"""ns-2's default random number generator, as far as a script's set-up draws from it.

ns-2.35 seeds ``$defaultRNG`` with 1 (every one of MRG32k3a's six state words; ``$defaultRNG
seed N`` and ``ns-random N`` set them to N), and every TCP agent draws one uniform from it
when it is created and another when ``$ns run`` resets it (``TcpAgent::reset``:
``boot_time_ = Random::uniform(tcp_tick_)``, the phase of the agent's RTT clock against the
tick). Nothing else in a wired script draws before the run. Knowing which draw each agent gets
lets ternsim give each TCP sender ns-2's own ``boot_time_``, so RTT samples quantise to the same
ticks and timeouts fire when ns-2's do.

The generator is L'Ecuyer's MRG32k3a (Operations Research 47(1), 1999), written here from the
recurrences; checked against ``ns``: with the default seed its first draws are 0.00034,
0.55588, 0.01420, 0.08812 (``[$defaultRNG uniform 0 1]``), equal to 1e-9.
"""

from __future__ import annotations

_M1 = 4_294_967_087
_M2 = 4_294_944_443
_NORM = 1.0 / (_M1 + 1)


def uniforms(seed: int, n: int) -> list[float]:
    """The first ``n`` uniforms in (0, 1) of MRG32k3a with every state word set to ``seed``."""
    x = [seed] * 3  # x[n-3], x[n-2], x[n-1] of the first component
    y = [seed] * 3  # and of the second
    out = []
    for _ in range(n):
        p1 = (1_403_580 * x[1] - 810_728 * x[0]) % _M1
        x = [x[1], x[2], p1]
        p2 = (527_612 * y[2] - 1_370_589 * y[0]) % _M2
        y = [y[1], y[2], p2]
        out.append((p1 - p2 if p1 > p2 else p1 - p2 + _M1) * _NORM)
    return out
