"""Student's t quantiles for the 95 % confidence intervals ternsim reports.

Confidence intervals here always have an integer number of degrees of freedom (n - 1 runs),
and for an integer ν the t distribution's two-sided probability has a closed form in
θ = arctan(t / √ν) (Abramowitz and Stegun, Handbook of Mathematical Functions, 26.7.3 and
26.7.4):

- ν = 1: A(t|ν) = 2θ / π;
- ν odd > 1: A = (2/π) [θ + sin θ (cos θ + (2/3) cos³ θ + … + (2·4···(ν−3)) / (1·3···(ν−2))
  cos^(ν−2) θ)];
- ν even: A = sin θ [1 + (1/2) cos² θ + (1·3)/(2·4) cos⁴ θ + … + (1·3···(ν−3)) / (2·4···(ν−2))
  cos^(ν−2) θ].

A(t|ν) grows with θ on (0, π/2), so the quantile is found by bisection on θ to the last bit
of a double. This replaces scipy.stats, whose import alone took about two seconds in every
process that summarised a sweep.
"""

from __future__ import annotations

import math
from functools import lru_cache

__all__ = ["t_quantile_two_sided", "t975", "t_two_sided_p"]

#: Above this many degrees of freedom the series grows long and the expansion of t in powers
#: of 1/ν about the normal quantile (:func:`_cornish_fisher`) is exact to double precision.
_SERIES_UP_TO = 1000


def _two_sided(theta: float, dof: int) -> float:
    """A(t|ν): the probability that |T| < t for t = √ν tan θ."""
    s, c = math.sin(theta), math.cos(theta)
    c2 = c * c
    if dof % 2 == 1:
        if dof == 1:
            return 2.0 * theta / math.pi
        term, total = c, c
        for k in range(3, dof - 1, 2):  # the factor (k−1)/k takes cos^(k−2) to cos^k
            term *= c2 * (k - 1) / k
            total += term
        return 2.0 / math.pi * (theta + s * total)
    term, total = 1.0, 1.0
    for k in range(2, dof - 1, 2):  # the factor (k−1)/k takes cos^(k−2) to cos^k
        term *= c2 * (k - 1) / k
        total += term
    return s * total


@lru_cache(maxsize=1024)
def t_quantile_two_sided(confidence: float, dof: int) -> float:
    """The t with P(|T| < t) = ``confidence`` for ``dof`` degrees of freedom (``dof`` >= 1):
    the half-width factor of a two-sided interval, t(1 − α/2, ν) for confidence 1 − α."""
    if dof < 1 or int(dof) != dof:
        raise ValueError(f"degrees of freedom must be a whole number >= 1, not {dof!r}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence!r}")
    dof = int(dof)
    if dof > _SERIES_UP_TO:
        return _cornish_fisher(confidence, dof)
    lo, hi = 0.0, math.pi / 2.0
    while True:
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:  # the interval is down to adjacent doubles
            break
        if _two_sided(mid, dof) < confidence:
            lo = mid
        else:
            hi = mid
    return math.sqrt(dof) * math.tan(0.5 * (lo + hi))


def _cornish_fisher(confidence: float, dof: int) -> float:
    """t as the normal quantile z plus its expansion in 1/ν (Abramowitz and Stegun 26.7.5),
    to the ν⁻⁴ term: the next is below 1e-15 · z for ν > 1000."""
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    z2 = z * z
    g1 = (z2 + 1.0) * z / 4.0
    g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0
    g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0
    g4 = ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) * z / 92160.0
    v = float(dof)
    return z + g1 / v + g2 / v**2 + g3 / v**3 + g4 / v**4


def t975(dof: int) -> float:
    """t(0.975, ν): the factor of a 95 % two-sided confidence interval's half-width."""
    return t_quantile_two_sided(0.95, dof)


def t_two_sided_p(t: float, dof: int) -> float:
    """P(|T| >= |t|) for ``dof`` degrees of freedom: the two-sided p-value of a t statistic,
    1 − A(|t| | ν) from the same closed form (above ν = 1000 the normal tail, which is then
    within 1e-3 of it in relative terms for |t| < 4)."""
    if dof < 1 or int(dof) != dof:
        raise ValueError(f"degrees of freedom must be a whole number >= 1, not {dof!r}")
    if math.isinf(t):
        return 0.0
    if dof > _SERIES_UP_TO:
        return math.erfc(abs(t) / math.sqrt(2.0))
    theta = math.atan(abs(t) / math.sqrt(dof))
    return max(0.0, 1.0 - _two_sided(theta, int(dof)))
