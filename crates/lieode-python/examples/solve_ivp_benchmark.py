"""lieode.solve_ivp against scipy.integrate.solve_ivp, both DOP853, on the Arenstorf orbit with
the same Python right-hand side: error at the period, evaluations and time, per tolerance.

    python crates/lieode-python/examples/solve_ivp_benchmark.py [--repeats 7]

The runs of the two packages alternate (lieode, SciPy, lieode, …) so that both see the same
machine load; each time is the median of the repeats. The orbit is periodic, so the error is
``|y(T) − y0|`` at the period ``T`` (Hairer's values). "Speed-up at equal error" compares
lieode's time with SciPy's time interpolated (log–log, between neighbouring tolerances) at
lieode's error; it is left blank where lieode's error is outside SciPy's measured range.
"""

import argparse
import math
import statistics
import time

import numpy as np
from scipy.integrate import solve_ivp as scipy_solve_ivp

import lieode

AMU = 0.012277471
Y0 = [0.994, 0.0, 0.0, -2.00158510637908252240537862224]
T_END = 17.0652165601579625588917206249


def arenstorf(t, y):
    """Hairer's FAREN (HNW I, §II.0), as a plain Python function."""
    y0, y1, y2, y3 = y
    amu = AMU
    amup = 1.0 - amu
    r1 = (y0 + amu) * (y0 + amu) + y1 * y1
    r1 = r1 * math.sqrt(r1)
    r2 = (y0 - amup) * (y0 - amup) + y1 * y1
    r2 = r2 * math.sqrt(r2)
    return [
        y2,
        y3,
        y0 + 2.0 * y3 - amup * (y0 + amu) / r1 - amu * (y0 - amup) / r2,
        y1 - 2.0 * y2 - amup * y1 / r1 - amu * y1 / r2,
    ]


def run(solve, tol):
    start = time.perf_counter()
    sol = solve(arenstorf, (0.0, T_END), Y0, method="DOP853", rtol=tol, atol=tol)
    elapsed = time.perf_counter() - start
    assert sol.success, sol.message
    error = float(np.linalg.norm(sol.y[:, -1] - np.asarray(Y0)))
    return error, sol.nfev, elapsed


def interpolated_time(errors, times, error):
    """SciPy's time at ``error``, interpolated log–log between its measured points."""
    points = sorted(zip(errors, times))
    for (e0, t0), (e1, t1) in zip(points, points[1:]):
        if e0 <= error <= e1:
            w = (math.log(error) - math.log(e0)) / (math.log(e1) - math.log(e0))
            return math.exp(math.log(t0) + w * (math.log(t1) - math.log(t0)))
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--tolerances", type=float, nargs="+",
                        default=[1e-6, 1e-8, 1e-10, 1e-12])
    options = parser.parse_args()
    rows = []
    for tol in options.tolerances:
        ours, theirs = [], []
        for _ in range(options.repeats):
            ours.append(run(lieode.solve_ivp, tol))
            theirs.append(run(scipy_solve_ivp, tol))
        rows.append((
            tol,
            ours[0][0], ours[0][1], statistics.median(r[2] for r in ours),
            theirs[0][0], theirs[0][1], statistics.median(r[2] for r in theirs),
        ))
    scipy_errors = [r[4] for r in rows]
    scipy_times = [r[6] for r in rows]
    print(f"Arenstorf orbit, DOP853, Python right-hand side, rtol = atol = tol; median of "
          f"{options.repeats} interleaved runs")
    print()
    print("| tol | lieode error | lieode nfev | lieode ms | SciPy error | SciPy nfev | SciPy ms "
          "| speed-up at equal tol | speed-up at equal error |")
    print("|---|---|---|---|---|---|---|---|---|")
    for tol, e1, n1, t1, e2, n2, t2 in rows:
        at_error = interpolated_time(scipy_errors, scipy_times, e1)
        equal_error = f"{at_error / t1:.1f} ×" if at_error is not None else ""
        print(f"| {tol:.0e} | {e1:.2e} | {n1} | {1e3 * t1:.2f} | {e2:.2e} | {n2} | "
              f"{1e3 * t2:.2f} | {t2 / t1:.1f} × | {equal_error} |")


if __name__ == "__main__":
    main()
