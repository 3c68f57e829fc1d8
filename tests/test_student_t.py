"""Student's t quantiles (ternsim.student_t) against published values, not against scipy:
the project no longer depends on it."""

from __future__ import annotations

import math

import pytest

from ternsim.student_t import t975, t_quantile_two_sided

# t(0.975, ν), the 95 % two-sided critical values, as tabulated (three decimals) in the
# NIST/SEMATECH e-Handbook of Statistical Methods, section 1.3.6.7.2 (critical values of the
# Student's t distribution).
PUBLISHED_T975 = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    9: 2.262,
    10: 2.228,
    19: 2.093,
    29: 2.045,
    30: 2.042,
    100: 1.984,
}


@pytest.mark.parametrize(("dof", "value"), sorted(PUBLISHED_T975.items()))
def test_t975_matches_the_published_table(dof: int, value: float) -> None:
    assert t975(dof) == pytest.approx(value, abs=5e-4)


def test_the_closed_forms_of_one_and_two_degrees_of_freedom() -> None:
    # To the last digits where the inverse has a closed form: ν = 1 is the Cauchy
    # distribution, t = tan(p π / 2); ν = 2 has P(|T| < t) = t / √(2 + t²), so
    # t = p √(2 / (1 − p²)).
    assert t975(1) == pytest.approx(math.tan(0.95 * math.pi / 2), rel=1e-14)
    assert t975(2) == pytest.approx(0.95 * math.sqrt(2 / (1 - 0.95**2)), rel=1e-14)
    # A 50 % interval with one degree of freedom: the Cauchy quartile, 1.
    assert t_quantile_two_sided(0.5, 1) == pytest.approx(1.0, rel=1e-14)


def test_many_degrees_of_freedom_approach_the_normal_quantile() -> None:
    z = 1.959963984540054
    # Both sides of the switch from the series to the expansion in 1/ν agree, and the
    # quantile falls towards z as 1 + (z² + 1) / (4ν).
    assert t975(1000) == pytest.approx(t975(1001), rel=1e-5)
    assert t975(1000) > t975(1001) > t975(10**6) > z
    assert t975(10**6) == pytest.approx(z * (1 + (z * z + 1) / (4 * 10**6)), rel=1e-11)


def test_bad_arguments_are_refused() -> None:
    for dof in (0, -1, 2.5):
        with pytest.raises(ValueError, match="degrees of freedom"):
            t975(dof)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="confidence"):
        t_quantile_two_sided(1.0, 5)


def test_two_sided_p_values_match_published_tables():
    """P(|T| >= t) against the tables: the Cauchy case (ν = 1, t = 1: 1/2 exactly), the 5 %
    points t(0.975, 10) = 2.228 and t(0.975, 30) = 2.042 (Abramowitz and Stegun table 26.10,
    three decimals), the 1 % point t(0.995, 20) = 2.845; a t of 0 has p 1."""
    from ternsim.student_t import t_two_sided_p

    assert math.isclose(t_two_sided_p(1.0, 1), 0.5, rel_tol=1e-12)
    assert abs(t_two_sided_p(2.228, 10) - 0.05) < 2e-4
    assert abs(t_two_sided_p(2.042, 30) - 0.05) < 2e-4
    assert abs(t_two_sided_p(2.845, 20) - 0.01) < 5e-5
    assert t_two_sided_p(0.0, 5) == 1.0
    assert t_two_sided_p(-2.228, 10) == t_two_sided_p(2.228, 10)
