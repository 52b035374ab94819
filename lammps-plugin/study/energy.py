# SPDX-License-Identifier: GPL-2.0-or-later
"""The energy study's table: relative energy change against dt per integrator.

    python energy.py DIR OUT_CSV OUT_MD DECK=LABEL[,LABEL...] [DECK=...]

Reads DIR/<DECK>_<LABEL>_<dt>.log (LAMMPS logs of energy_<DECK>.in, any dt)
and writes

  OUT_CSV  deck,label,fix,dt,steps,e0,rel_change_end,rel_change_max
           fix: the integrator's fix command as LAMMPS read it,
           rel_change_end = |E(t_end) - E(0)| / |E(0)|,
           rel_change_max = max over the thermo outputs of |E(t) - E(0)| / |E(0)|,
           E = translational + rotational kinetic + potential energy;
  OUT_MD   per deck a markdown table of both against dt, with the
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
    "nodipole": "control: the 512 spheres of energy_dipole.in with every dipole zero "
                "(-var nodipole 1: translation only)",
}


def read_log(path):
    """(fix arguments after the group, [(step, time, etot)]) of the last run in a LAMMPS log."""
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
                rows.append((int(words[0]), float(words[1]), float(words[cols.index("v_etot")])))
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
            worst = max(abs(e - e0) for _, _, e in rows) / abs(e0)
            out.append((deck, label, fix, dt, rows[-1][0], e0, end, worst))
    if len(e0s) != 1 or len(ends) != 1:
        raise SystemExit("%s: runs differ in E(0) %s or t_end %s" % (deck, sorted(e0s), sorted(ends)))
    order = {label: i for i, label in enumerate(labels)}
    out.sort(key=lambda r: (order[r[1]], -float(r[3])))
    return out, e0s.pop(), ends.pop()


def markdown(deck, rows, e0, t_end):
    dts = sorted({r[3] for r in rows}, key=float, reverse=True)
    lines = ["**%s**: E(0) = %.10g, t_end = %g; each cell |E(t_end) - E(0)|/|E(0)| / "
             "max over the run of |E(t) - E(0)|/|E(0)| (thermo every 0.1); slope: least-squares "
             "slope of the max against dt." % (TITLES.get(deck, deck), e0, t_end), ""]
    lines.append("| fix | " + " | ".join("dt = %s" % d for d in dts) + " | slope |")
    lines.append("|---|" + "---|" * len(dts) + "---|")
    fixes = []
    for r in rows:
        if r[2] not in fixes:
            fixes.append(r[2])
    for fix in fixes:
        mine = {r[3]: r for r in rows if r[2] == fix}
        cells = ["%.2e / %.2e" % (mine[d][6], mine[d][7]) if d in mine else "-" for d in dts]
        pts = [(float(d), mine[d][7]) for d in dts if d in mine and mine[d][7] > 0]
        slope = np.polyfit(*np.log(np.array(pts)).T, 1)[0] if len(pts) >= 2 else float("nan")
        lines.append("| `%s` | %s | %.2f |" % (fix, " | ".join(cells), slope))
    return "\n".join(lines) + "\n"


def main(folder, out_csv, out_md, specs):
    rows_all, text = [], []
    for spec in specs:
        deck, labels = spec.split("=", 1)
        rows, e0, t_end = deck_table(folder, deck, labels.split(","))
        rows_all += rows
        text.append(markdown(deck, rows, e0, t_end))
    with open(out_csv, "w") as f:
        f.write("deck,label,fix,dt,steps,e0,rel_change_end,rel_change_max\n")
        for deck, label, fix, dt, steps, e0, end, worst in rows_all:
            f.write('%s,%s,"%s",%s,%d,%r,%r,%r\n' % (deck, label, fix, dt, steps, e0, end, worst))
    with open(out_md, "w") as f:
        f.write("\n".join(text))
    print("\n".join(text), end="")


if __name__ == "__main__":
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
