# SPDX-License-Identifier: GPL-2.0-or-later
"""The energy study's table: relative energy change against dt per integrator.

    python energy.py DIR OUT_CSV OUT_MD DECK=LABEL[,LABEL...] [DECK=...]

Reads DIR/<DECK>_<LABEL>_<dt>.log (LAMMPS logs of energy_<DECK>.in, any dt;
a DECK given twice has its labels joined) and writes

  OUT_CSV  deck,label,fix,dt,steps,e0,rel_change_end,rel_change_max,mu_body_drift_max
           fix: the integrator's fix command as LAMMPS read it,
           rel_change_end = |E(t_end) - E(0)| / |E(0)|,
           rel_change_max = max over the thermo outputs of |E(t) - E(0)| / |E(0)|,
           E = translational + rotational kinetic + potential energy,
           mu_body_drift_max = max over the thermo outputs of the log's
           v_mudev column (energy_aniso.in: how far mu moved in the body
           frame), empty for logs without it;
  OUT_MD   one markdown table, a row per deck and integrator, a column per
           dt (the union over the decks), cells end / max, and the
           least-squares slope of log(rel_change_max) over log(dt).

Checks that every run of a deck starts from the same E(0) (to the bit) and
ends at the same time; exits non-zero otherwise.
"""
import glob
import os
import re
import sys

import numpy as np

TITLES = {
    "ylz": "512 YLZ ellipsoids (asymmetric tops, diameters 1 1.5 2; energy_ylz.in)",
    "dipole": "512 dipolar solid spheres (lj/sf/dipole/sf; energy_dipole.in)",
    "aniso": "512 dipolar asymmetric tops, cold start (energy_aniso.in)",
    "nodipole": "control: the 512 spheres of energy_dipole.in with every dipole zero "
                "(-var nodipole 1: translation only)",
    "asphere": "control: the tops of energy_aniso.in as ellipsoids with fix nve/asphere, "
               "whose `update dipole` is ignored (mu fixed in the lab)",
}
SHORT = {"ylz": "ellipsoids (YLZ)", "dipole": "dipolar spheres", "aniso": "dipolar tops",
         "nodipole": "spheres, no dipoles", "asphere": "dipolar tops, nve/asphere"}
for _seed in ("4811", "1234", "777"):
    TITLES["s" + _seed] = "the dipolar tops of energy_aniso.in, quat/random seed " + _seed
    SHORT["s" + _seed] = "tops, seed " + _seed


def read_log(path):
    """(fix arguments after the group, [(step, time, etot, mudev or None)]) of the last run."""
    rows, cols, inside, fix = [], None, False, None
    with open(path) as f:
        for line in f:
            words = line.split()
            if words[:3] == ["fix", "move", "all"] and "$" not in line:
                fix = " ".join(words[3:])
            if words[:2] == ["Step", "Time"]:
                cols, inside, rows = words, True, []
                continue
            if inside:
                if line.startswith("Loop time"):
                    inside = False
                    continue
                mudev = float(words[cols.index("v_mudev")]) if "v_mudev" in cols else None
                rows.append((int(words[0]), float(words[1]),
                             float(words[cols.index("v_etot")]), mudev))
    if not rows or fix is None:
        raise SystemExit("%s: no thermo output or no fix move" % path)
    return fix, rows


def deck_table(folder, deck, labels):
    out = []
    e0s, ends = set(), set()
    for label in labels:
        for path in glob.glob(os.path.join(folder, "%s_%s_*.log" % (deck, label))):
            m = re.match(r"%s_%s_([0-9.e-]+)\.log$" % (re.escape(deck), re.escape(label)),
                         os.path.basename(path))
            if not m:
                continue
            dt = m.group(1)
            fix, rows = read_log(path)
            e0 = rows[0][2]
            e0s.add(e0)
            ends.add(round(rows[-1][1], 9))
            end = abs(rows[-1][2] - e0) / abs(e0)
            worst = max(abs(r[2] - e0) for r in rows) / abs(e0)
            mus = [r[3] for r in rows if r[3] is not None]
            out.append((deck, label, fix, dt, rows[-1][0], e0, end, worst,
                        max(mus) if mus else None))
    if len(e0s) != 1 or len(ends) != 1:
        raise SystemExit("%s: runs differ in E(0) %s or t_end %s" % (deck, sorted(e0s), sorted(ends)))
    order = {label: i for i, label in enumerate(labels)}
    out.sort(key=lambda r: (order[r[1]], -float(r[3])))
    return out, e0s.pop(), ends.pop()


def fmt_dt(dt):
    return ("%g" % float(dt))


def markdown(decks):
    """One table: decks is [(deck, rows, e0, t_end)]."""
    dts = sorted({r[3] for _, rows, _, _ in decks for r in rows}, key=float, reverse=True)
    lines = []
    for deck, _, e0, t_end in decks:
        lines.append("- %s: %s, E(0) = %.10g, t_end = %g" % (SHORT.get(deck, deck),
                                                                 TITLES.get(deck, deck), e0, t_end))
    lines += ["", "Cells: |E(t_end) - E(0)|/|E(0)| / max over the run of |E(t) - E(0)|/|E(0)| "
              "(thermo every 0.1); slope: least-squares slope of the max against dt.", ""]
    lines.append("| deck | fix | " + " | ".join("dt = %s" % fmt_dt(d) for d in dts) + " | slope |")
    lines.append("|---|---|" + "---|" * len(dts) + "---|")
    for deck, rows, _, _ in decks:
        fixes = []
        for r in rows:
            if r[2] not in fixes:
                fixes.append(r[2])
        for fix in fixes:
            mine = {r[3]: r for r in rows if r[2] == fix}
            cells = ["%.2e / %.2e" % (mine[d][6], mine[d][7]) if d in mine else "–" for d in dts]
            pts = [(float(d), mine[d][7]) for d in dts if d in mine and mine[d][7] > 0]
            slope = np.polyfit(*np.log(np.array(pts)).T, 1)[0] if len(pts) >= 2 else float("nan")
            lines.append("| %s | `%s` | %s | %.2f |" % (SHORT.get(deck, deck), fix,
                                                        " | ".join(cells), slope))
    return "\n".join(lines) + "\n"


def main(folder, out_csv, out_md, specs):
    joined = {}
    for spec in specs:
        deck, labels = spec.split("=", 1)
        joined.setdefault(deck, []).extend(l for l in labels.split(",") if l)
    rows_all, decks = [], []
    for deck, labels in joined.items():
        rows, e0, t_end = deck_table(folder, deck, labels)
        rows_all += rows
        decks.append((deck, rows, e0, t_end))
    with open(out_csv, "w") as f:
        f.write("deck,label,fix,dt,steps,e0,rel_change_end,rel_change_max,mu_body_drift_max\n")
        for deck, label, fix, dt, steps, e0, end, worst, mu in rows_all:
            f.write('%s,%s,"%s",%s,%d,%r,%r,%r,%s\n' % (deck, label, fix, dt, steps, e0, end, worst,
                                                      "" if mu is None else repr(mu)))
    text = markdown(decks)
    with open(out_md, "w") as f:
        f.write(text)
    print(text, end="")


if __name__ == "__main__":
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
