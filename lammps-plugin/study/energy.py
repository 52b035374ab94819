# SPDX-License-Identifier: GPL-2.0-or-later
"""The energy study's table: relative energy change against dt per integrator.

    python energy.py DIR OUT_CSV OUT_MD LABEL [LABEL ...]

Reads DIR/energy_<LABEL>_<dt>.log (LAMMPS logs of energy.in, any dt) and
writes

  OUT_CSV  integrator,dt,steps,e0,rel_change_end,rel_change_max
           rel_change_end = |E(t_end) - E(0)| / |E(0)|,
           rel_change_max = max over the thermo outputs of |E(t) - E(0)| / |E(0)|,
           E = translational + rotational kinetic + potential energy;
  OUT_MD   a markdown table of both against dt, with the least-squares slope
           of log(rel_change_max) over log(dt) per integrator.

Checks that every run starts from the same E(0) (to the bit) and that the
last thermo line is at t_end; exits non-zero otherwise.
"""
import glob
import math
import os
import re
import sys

import numpy as np


def thermo(path):
    """[(step, time, etot)] of the last thermo block of a LAMMPS log."""
    rows, cols, inside = [], None, False
    with open(path) as f:
        for line in f:
            words = line.split()
            if words[:2] == ["Step", "Time"]:
                cols, inside, rows = words, True, []
                continue
            if inside:
                if line.startswith("Loop time"):
                    inside = False
                    continue
                rows.append((int(words[0]), float(words[1]), float(words[cols.index("v_etot")])))
    if not rows:
        raise SystemExit("%s: no thermo output" % path)
    return rows


def main(folder, out_csv, out_md, labels):
    table = []
    e0_all = set()
    t_end_all = set()
    for label in labels:
        runs = []
        for path in glob.glob(os.path.join(folder, "energy_%s_*.log" % label)):
            dt = re.match(r"energy_%s_(.*)\.log$" % re.escape(label), os.path.basename(path)).group(1)
            rows = thermo(path)
            e0 = rows[0][2]
            e0_all.add(e0)
            t_end_all.add(round(rows[-1][1], 9))
            end = abs(rows[-1][2] - e0) / abs(e0)
            worst = max(abs(e - e0) for _, _, e in rows) / abs(e0)
            runs.append((float(dt), dt, rows[-1][0], e0, end, worst))
        if not runs:
            raise SystemExit("no logs for %s in %s" % (label, folder))
        table.append((label, sorted(runs, reverse=True)))
    if len(e0_all) != 1 or len(t_end_all) != 1:
        raise SystemExit("runs differ in E(0) %s or t_end %s" % (sorted(e0_all), sorted(t_end_all)))
    e0 = e0_all.pop()
    t_end = t_end_all.pop()

    with open(out_csv, "w") as f:
        f.write("integrator,dt,steps,e0,rel_change_end,rel_change_max\n")
        for label, runs in table:
            for _, dt, steps, e, end, worst in runs:
                f.write("%s,%s,%d,%r,%r,%r\n" % (label, dt, steps, e, end, worst))

    dts = [r[1] for r in table[0][1]]
    lines = []
    lines.append("Relative energy change |E(t) - E(0)| / |E(0)| of the 512 YLZ ellipsoids "
                 "(E(0) = %.10g, t_end = %g); each cell: at t_end / max over the run "
                 "(thermo every 0.1); slope: least-squares slope of the max against dt." % (e0, t_end))
    lines.append("")
    lines.append("| integrator | " + " | ".join("dt = %s" % d for d in dts) + " | slope |")
    lines.append("|---|" + "---|" * len(dts) + "---|")
    for label, runs in table:
        by_dt = {r[1]: r for r in runs}
        cells = []
        for d in dts:
            r = by_dt.get(d)
            cells.append("%.2e / %.2e" % (r[4], r[5]) if r else "-")
        xs = [r[0] for r in runs if r[5] > 0]
        ys = [r[5] for r in runs if r[5] > 0]
        slope = np.polyfit(np.log(xs), np.log(ys), 1)[0] if len(xs) >= 2 else math.nan
        name = "fix nve/asphere" if label == "nve_asphere" else "fix lieode method " + label
        lines.append("| %s | %s | %.2f |" % (name, " | ".join(cells), slope))
    text = "\n".join(lines) + "\n"
    with open(out_md, "w") as f:
        f.write(text)
    print(text, end="")


if __name__ == "__main__":
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
