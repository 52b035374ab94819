# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks on the dumps written by rotor.in and migrate.in (standard library only).

    python check.py rotor DUMP DT
    python check.py migrate DUMP_NP1 DUMP_NP2 PROC_DUMP_NP2 K STEPS
    python check.py restart DUMP_STRAIGHT DUMP_RESTARTED
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
    for atom, label in ((1, "fix lieode/probe"), (2, "fix nve/bpm/sphere")):
        q0 = [first[atom][k] for k in iq]
        w = [first[atom][k] for k in iw]
        wn = math.sqrt(sum(c * c for c in w))
        half = 0.5 * wn * t
        p = (math.cos(half), *(math.sin(half) / wn * c for c in w))
        exact = qmul(p, q0)
        q = [last[atom][k] for k in iq]
        norm_err = abs(math.sqrt(sum(c * c for c in q)) - 1.0)
        angle = rotation_angle(q, exact)
        detail = "%s after %d steps: |q|-1 = %.1e, angle to the exact rotor = %.1e rad" % (
            label, s1 - s0, norm_err, angle)
        if atom == 1:
            # the same rotor every step: its rounding adds up coherently, <= 1 ulp a step
            report(norm_err <= (s1 - s0) * 2.0**-52, "rotor norm", detail)
            report(angle <= 1e-12, "rotor orientation", detail)
            acc = last[atom][cols.index("f_p[1]")]
            report(abs(acc - wn * t) <= 1e-12 * wn * t, "state angle",
                   "accumulated %.17g, |w| t = %.17g" % (acc, wn * t))
            report(last[atom][cols.index("f_p[2]")] == s1 - s0, "state steps",
                   "%g steps counted" % last[atom][cols.index("f_p[2]")])
        else:
            print("INFO " + detail)


def migrate(d1, d2, procdump, k, steps):
    b1, b2 = open(d1, "rb").read(), open(d2, "rb").read()
    if b1 == b2:
        report(True, "np1 == np2", "%d bytes, bit-identical" % len(b1))
    else:
        n = next(i for i in range(min(len(b1), len(b2))) if b1[i] != b2[i])
        line = b1[:n].count(b"\n") + 1
        report(False, "np1 == np2", "dumps first differ at byte %d, line %d" % (n, line))
    step, cols, rows = snapshots(d2)[-1]
    bad = []
    for atom, v in rows.items():
        if v[cols.index("f_p[2]")] != steps:
            bad.append((atom, "steps", v[cols.index("f_p[2]")]))
        for j in range(3, k + 1):
            want = 1024.0 * atom + (j - 1)
            got = v[cols.index("f_p[%d]" % j)]
            if got != want:
                bad.append((atom, j, got))
    report(not bad, "state travelled with its atom",
           "%d atoms x %d columns at step %d%s" % (
               len(rows), k, step, "" if not bad else ", wrong: %s" % bad[:5]))
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
    report(len(movers) >= 0.75 * n and moves >= n, "atoms crossed subdomains",
           "%d changes of owner on 2 ranks (seen every 10 steps), %d of %d atoms moved" % (
               moves, len(movers), n))


def restart(straight, restarted):
    """The last snapshot of an uninterrupted run against a run continued from a restart file."""
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
    report(s1 == s2 and len(a) == len(b) and not exact_bad, "restart keeps state",
           "step %d, %d atoms: v, q, omega and the fix state bit-identical%s" % (
               s2, len(b), "" if not exact_bad else ", differing: %s" % exact_bad[:3]))
    # write_restart wraps positions into the periodic box at once, the
    # uninterrupted run at its next re-neighbouring: x + L + v dt rounds
    # differently from x + v dt + L
    report(worst <= 1e-13, "restart positions",
           "%d coordinates differ, by at most %.1e (the periodic wrap at write_restart)"
           % (npos, worst))


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
    what = sys.argv[1]
    if what == "rotor":
        rotor(sys.argv[2], float(sys.argv[3]))
    elif what == "migrate":
        migrate(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), float(sys.argv[6]))
    elif what == "restart":
        restart(sys.argv[2], sys.argv[3])
    elif what == "differ":
        differ(sys.argv[2], sys.argv[3])
    else:
        sys.exit("unknown check " + what)
    sys.exit(1 if failed else 0)
