# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks on the dumps written by the decks here (standard library only).

    python check.py rotor DUMP DT
    python check.py migrate METHOD DUMP_NP1 DUMP_NP2 PROC_DUMP_NP2
    python check.py freefall METHOD DUMP DT G
    python check.py restart METHOD DUMP_TWO_RUNS DUMP_RESTARTED
    python check.py refused NAME LOG TEXT...
    python check.py differ DUMP_A DUMP_B       (information only)

Each prints one line per check, 'PASS name: detail' or 'FAIL name: detail',
and exits non-zero if any failed.
"""
import math
import sys

failed = 0
passed = 0


def report(ok, name, detail):
    global failed, passed
    print(("PASS " if ok else "FAIL ") + name + ": " + detail)
    if ok:
        passed += 1
    else:
        failed += 1


def snapshots(path):
    """[(timestep, columns, {id: [float...]})] of a LAMMPS custom dump."""
    out = []
    with open(path) as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines):
        assert lines[i] == "ITEM: TIMESTEP", (path, i, lines[i])
        step = int(lines[i + 1])
        n = int(lines[i + 3])
        cols = lines[i + 8].split()[3:]    # after "ITEM: ATOMS id"
        rows = {}
        for line in lines[i + 9:i + 9 + n]:
            v = line.split()
            rows[int(v[0])] = [float(x) for x in v[1:]]
        out.append((step, cols, rows))
        i += 9 + n
    return out


def qmul(a, b):
    a0, a1, a2, a3 = a
    b0, b1, b2, b3 = b
    return (a0 * b0 - a1 * b1 - a2 * b2 - a3 * b3,
            a0 * b1 + a1 * b0 + a2 * b3 - a3 * b2,
            a0 * b2 - a1 * b3 + a2 * b0 + a3 * b1,
            a0 * b3 + a1 * b2 - a2 * b1 + a3 * b0)


def rotation_angle(q, r):
    """Angle of the rotation taking orientation r to q (both unit quaternions)."""
    d = abs(sum(x * y for x, y in zip(q, r)))
    return 2.0 * math.acos(min(1.0, d)) if d < 1.0 - 1e-12 else \
        2.0 * math.asin(min(1.0, math.sqrt(max(0.0, sum(
            c * c for c in qmul(q, (r[0], -r[1], -r[2], -r[3]))[1:])))))


def rotor(path, dt):
    snaps = snapshots(path)
    (s0, cols, first), (s1, _, last) = snaps[0], snaps[-1]
    t = (s1 - s0) * dt
    iq = [cols.index("c_q[%d]" % k) for k in (1, 2, 3, 4)]
    iw = [cols.index(c) for c in ("omegax", "omegay", "omegaz")]
    for atom, label in ((1, "fix lieode (spiral_leapfrog)"), (2, "fix nve/bpm/sphere")):
        q0 = [first[atom][k] for k in iq]
        w = [first[atom][k] for k in iw]
        wn = math.sqrt(sum(c * c for c in w))
        half = 0.5 * wn * t
        p = (math.cos(half), *(math.sin(half) / wn * c for c in w))
        exact = qmul(p, q0)
        q = [last[atom][k] for k in iq]
        norm_err = abs(math.sqrt(sum(c * c for c in q)) - 1.0)
        angle = rotation_angle(q, exact)
        spin_err = max(abs(last[atom][k] - first[atom][k]) for k in iw)
        detail = "%s after %d steps: |q|-1 = %.1e, angle to the exact rotor = %.1e rad, " \
            "spin changed by %.1e" % (label, s1 - s0, norm_err, angle, spin_err)
        if atom == 1:
            # SPIRAL leapfrog never renormalises (the paper's policy) and applies the
            # exact rotor of the constant spin: |q| and the angle change by rounding only,
            # at most an ulp a step; the lab spin R(q) w_body scales with |q|^2
            steps = s1 - s0
            report(norm_err <= steps * 2.0**-52, "rotor norm", detail)
            report(angle <= 1e-13, "rotor orientation", detail)
            report(spin_err <= 2 * steps * 2.0**-52 * wn, "rotor spin", detail)
            # the dipole turns with the body: mu(t) = p mu_0 p*
            imu = [cols.index(c) for c in ("mux", "muy", "muz")]
            mu0 = (0.0, *(first[atom][k] for k in imu))
            exact_mu = qmul(qmul(p, mu0), (p[0], -p[1], -p[2], -p[3]))[1:]
            mu_err = max(abs(last[atom][k] - e) for k, e in zip(imu, exact_mu))
            report(mu_err <= 1e-13, "rotor dipole",
                   "|mu - p mu_0 p*| = %.1e after %d steps (|mu| = %.2f)"
                   % (mu_err, steps, math.sqrt(sum(c * c for c in exact_mu))))
        else:
            print("INFO " + detail)


def migrate(method, d1, d2, procdump):
    b1, b2 = open(d1, "rb").read(), open(d2, "rb").read()
    if b1 == b2:
        report(True, "np1 == np2 " + method, "%d bytes, bit-identical" % len(b1))
    else:
        n = next((i for i in range(min(len(b1), len(b2))) if b1[i] != b2[i]),
                 min(len(b1), len(b2)))
        line = b1[:n].count(b"\n") + 1
        report(False, "np1 == np2 " + method, "dumps first differ at byte %d, line %d" % (n, line))
    owner = {}
    moves = 0
    movers = set()
    for _, pcols, prows in snapshots(procdump):
        ip = pcols.index("c_pr")
        for atom, v in prows.items():
            p = int(v[ip])
            if atom in owner and owner[atom] != p:
                moves += 1
                movers.add(atom)
            owner[atom] = p
    n = len(owner)
    report(len(movers) >= 0.75 * n and moves >= n, "atoms crossed subdomains " + method,
           "%d changes of owner on 2 ranks (seen every 10 steps), %d of %d atoms moved" % (
               moves, len(movers), n))


def freefall(method, path, dt, g):
    """Synchronised output: under the constant force of gravity alone the velocities of
    both forms are exact, v_n = v_0 - g t_n e_z (half-step velocities would be g dt/2 off)."""
    snaps = snapshots(path)
    _, cols, first = snaps[0]
    iv = [cols.index(c) for c in ("vx", "vy", "vz")]
    worst = 0.0
    for step, _, rows in snaps[1:]:
        t = step * dt
        for atom, v in rows.items():
            exact = (first[atom][iv[0]], first[atom][iv[1]], first[atom][iv[2]] - g * t)
            worst = max(worst, max(abs(v[k] - e) for k, e in zip(iv, exact)))
    # rounding of 2000 kicks of g dt = 2.5e-3 onto |v| <= 6: a few hundred ulp of 6
    report(worst <= 1e-12, "synchronised velocities " + method,
           "largest |v - (v_0 - g t e_z)| over %d snapshots: %.1e (half a kick: %.1e)"
           % (len(snaps) - 1, worst, 0.5 * g * dt))


def restart(method, straight, restarted):
    """Two runs in one deck against a run continued from a restart file on another rank count."""
    (s1, cols, a), (s2, _, b) = snapshots(straight)[-1], snapshots(restarted)[-1]
    pos = {"x", "y", "z"}
    exact_bad, npos, worst = [], 0, 0.0
    for atom in a:
        for name, u, w in zip(cols, a[atom], b[atom]):
            if name in pos:
                npos += u != w
                worst = max(worst, abs(u - w))
            elif u != w:
                exact_bad.append((atom, name, u, w))
    report(s1 == s2 and len(a) == len(b) and not exact_bad, "restart " + method,
           "step %d, %d atoms: v, q and omega bit-identical%s" % (
               s2, len(b), "" if not exact_bad else ", differing: %s" % exact_bad[:3]))
    # write_restart wraps positions into the periodic box at once, the
    # uninterrupted run at its next re-neighbouring: x + L + v dt rounds
    # differently from x + v dt + L
    report(worst <= 1e-13, "restart positions " + method,
           "%d coordinates differ, by at most %.1e (the periodic wrap at write_restart)"
           % (npos, worst))


def refused(name, log, texts):
    """A deck with bad input: LAMMPS stopped (the caller checked the exit status) with an
    error that says what was wrong."""
    with open(log, errors="replace") as f:
        lines = [line for line in f if "ERROR" in line]
    ok = bool(lines) and all(any(t in line for line in lines) for t in texts)
    report(ok, "refused " + name, (lines[0].strip() if lines else "no ERROR line in " + log))


def differ(d1, d2):
    """Information only: how far two runs' dumps drift apart, snapshot by snapshot."""
    for (step, cols, r1), (_, _, r2) in zip(snapshots(d1), snapshots(d2)):
        ndiff, worst = 0, 0.0
        for atom in r1:
            d = max(abs(x - y) for x, y in zip(r1[atom], r2[atom]))
            ndiff += d > 0
            worst = max(worst, d)
        print("INFO contacts np1 vs np2, step %d: %d of %d atoms differ, largest difference %.1e"
              % (step, ndiff, len(r1), worst))


if __name__ == "__main__":
    what, args = sys.argv[1], sys.argv[2:]
    if what == "rotor":
        rotor(args[0], float(args[1]))
    elif what == "migrate":
        migrate(*args)
    elif what == "freefall":
        freefall(args[0], args[1], float(args[2]), float(args[3]))
    elif what == "restart":
        restart(*args)
    elif what == "refused":
        refused(args[0], args[1], args[2:])
    elif what == "differ":
        differ(*args)
    else:
        sys.exit("unknown check " + what)
    sys.exit(1 if failed else 0)
