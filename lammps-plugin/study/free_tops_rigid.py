# SPDX-License-Identifier: GPL-2.0-or-later
"""Orientation and energy error of free tops for any set of runs, with the
reference of ../tests/free_tops.py.

    python free_tops_rigid.py DIR LABEL [LABEL ...]

Reads DIR/LABEL_<dt>_start.dump and DIR/LABEL_<dt>.dump (free_tops.in or
free_tops_rigid.in) and prints, per label and dt, the orientation error at
t = 20 (angle between the rotors, max over the four tops) and the relative
rotational-energy error (max over the tops), then the least-squares slope of
each over the runs with 1e-9 < angle < 1 rad.  Checks that each label's runs
start from the same state; exits non-zero otherwise.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import free_tops as ft  # noqa: E402


def main(folder, labels):
    refs = {}
    print("%-16s %9s %12s %12s" % ("integrator", "dt", "angle", "dE/E"))
    summary = []
    for lab in labels:
        dts = ft.step_sizes(folder, lab)
        starts = [ft.read_dump(os.path.join(folder, "%s_%s_start.dump" % (lab, dt))) for dt in dts]
        q0, l0 = ft.quats(starts[0]), ft.angmoms(starts[0])
        if not all(ft.np.array_equal(ft.quats(s), q0) and ft.np.array_equal(ft.angmoms(s), l0)
                   for s in starts):
            raise SystemExit("%s: the runs start from different states" % lab)
        key = (q0.tobytes(), l0.tobytes())
        if key not in refs:
            refs[key] = ft.reference_checked(q0, l0)
        qa = refs[key]
        e0 = [ft.energy(q, l) for q, l in zip(q0, l0)]
        errs, des = [], []
        for dt in dts:
            end = ft.read_dump(os.path.join(folder, "%s_%s.dump" % (lab, dt)))
            q, l = ft.quats(end), ft.angmoms(end)
            errs.append(max(ft.angle(a, b) for a, b in zip(q, qa)))
            des.append(max(abs(ft.energy(a, b) - f) / f for a, b, f in zip(q, l, e0)))
            print("%-16s %9s %12.3e %12.3e" % (lab, dt, errs[-1], des[-1]))
        fit = [(float(d), e, g) for d, e, g in zip(dts, errs, des)
               if ft.REF_FLOOR < e < ft.ASYMPTOTIC]
        p = ft.slope([f[0] for f in fit], [f[1] for f in fit]) if len(fit) >= 2 else float("nan")
        pe = ft.slope([f[0] for f in fit], [f[2] for f in fit]) if len(fit) >= 2 else float("nan")
        summary.append((lab, p, pe, len(fit)))
    for lab, p, pe, k in summary:
        print("%-16s order angle %.2f, order dE %.2f (%d runs)" % (lab, p, pe, k))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2:])
