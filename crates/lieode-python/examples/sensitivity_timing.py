"""The cost of lieode.solve_ivp's sensitivities: the plain run, the run with the six
sensitivities of Lotka–Volterra (initial state and four parameters), and the 2p + 1 = 13 runs
of central differences of re-adapted runs, DOP853 at one tolerance.

    python crates/lieode-python/examples/sensitivity_timing.py [--repeats 7] [--tol 1e-10]

Each time is the median of the repeats, the three workloads alternating so that they see the
same machine load. The last line compares the two derivatives: their largest difference,
relative to the largest sensitivity (it is the controller's response to the inputs, which the
frozen-step derivative leaves out, plus the differences' own truncation and rounding).
"""

import argparse
import statistics
import time

import numpy as np

import lieode

P = (1.5, 1.0, 1.0, 3.0)
Y0 = np.array([1.0, 1.0])
T = 8.0


def f(t, u, a, b, c, d):
    x, y = u
    return np.array([a * x - b * x * y, c * x * y - d * y])


def jac(t, u, a, b, c, d):
    x, y = u
    return np.array([[a - b * y, -b * x], [c * y, c * x - d]])


def jac_p(t, u, a, b, c, d):
    x, y = u
    return np.array([[x, -x * y, 0.0, 0.0], [0.0, 0.0, x * y, -y]])


def plain(tol, y0=Y0, p=P):
    return lieode.solve_ivp(f, (0.0, T), y0, rtol=tol, atol=tol, args=tuple(p))


def with_sensitivities(tol):
    return lieode.solve_ivp(f, (0.0, T), Y0, rtol=tol, atol=tol, args=P, sensitivities=True,
                            jac=jac, jac_p=jac_p)


def central_differences(tol, relative=1e-5):
    """The base run and two runs per input, each input moved by ``relative`` of its size."""
    base = np.concatenate([Y0, P])
    plain(tol)
    fd = np.zeros((2, 6))
    for j in range(6):
        step = relative * abs(base[j])
        ends = []
        for sign in (1.0, -1.0):
            v = base.copy()
            v[j] += sign * step
            ends.append(plain(tol, v[:2], v[2:]).y[:, -1])
        fd[:, j] = (ends[0] - ends[1]) / (2.0 * step)
    return fd


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--tol", type=float, default=1e-10)
    args = parser.parse_args()
    times = {"plain": [], "sensitivities": [], "differences": []}
    for _ in range(args.repeats):
        for name, run in (("plain", plain), ("sensitivities", with_sensitivities),
                          ("differences", central_differences)):
            start = time.perf_counter()
            out = run(args.tol)
            times[name].append(time.perf_counter() - start)
            if name == "sensitivities":
                sol = out
            elif name == "differences":
                fd = out
    ms = {name: 1e3 * statistics.median(t) for name, t in times.items()}
    base = plain(args.tol)
    print(f"Lotka-Volterra to t = {T}, DOP853 at rtol = atol = {args.tol:.0e}, "
          f"{base.t.size - 1} steps, 6 directions; median of {args.repeats}")
    print(f"plain run:            {ms['plain']:8.2f} ms   nfev {base.nfev}")
    print(f"with sensitivities:   {ms['sensitivities']:8.2f} ms   nfev {sol.nfev}, "
          f"njev {sol.njev}   ({ms['sensitivities'] / ms['plain']:.1f} x plain)")
    print(f"central differences:  {ms['differences']:8.2f} ms   13 runs   "
          f"({ms['differences'] / ms['sensitivities']:.1f} x sensitivities)")
    s = sol.sensitivities[:, :, -1]
    print(f"max |FD - S| / max |S| = {np.abs(fd - s).max() / np.abs(s).max():.1e}")


if __name__ == "__main__":
    main()
