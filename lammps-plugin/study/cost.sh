#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Cost per atom-step of fix nve/asphere against fix lieode method
# spiral_leapfrog on 100000 free asymmetric tops, one rank (cost.in):
# A B A B ... in one LAMMPS run, and from each run's log the "Modify" time
# (the fixes' integration) and the loop time, printed as ns per atom-step,
# min and median per fix, and the ratio B/A of the medians.
#
#   lammps-plugin/study/cost.sh [REPEATS [STEPS]]      (default 4 pairs of 150 steps)
#
# LIEODE_COST_B overrides B (B = nve/asphere shows the machine's noise).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../environment.sh
source "$here/../environment.sh"
repeats=${1:-4}
steps=${2:-150}
work=$out/study/cost
mkdir -p "$work"
cd "$work"

a="nve/asphere"
b=${LIEODE_COST_B:-lieode method spiral_leapfrog inertia d2_inertia}
"$LMP" -screen none -log cost.log -in "$here/cost.in" -var plugin "$LIEODE_LAMMPS_PLUGIN" \
  -var a "$a" -var b "$b" -var steps "$steps" -var repeats "$repeats"
"$py" - cost.log "$steps" <<'PY'
import statistics, sys
path, steps = sys.argv[1], int(sys.argv[2])
runs, which, atoms = {"A": [], "B": []}, None, None
names = {}
for line in open(path):
    if line.startswith("cost: "):
        which, names[line[6]] = line[6], line[8:].strip()
    elif line.startswith("Loop time of") and which:
        w = line.split()
        loop, atoms = float(w[3]), int(w[11])
    elif line.startswith("Modify ") and which:
        runs[which].append((float(line.split("|")[1]), loop))
        which = None
scale = 1e9 / (atoms * steps)
print("%d atoms, %d steps per run, %d runs each, alternating A B" % (atoms, steps, len(runs["A"])))
print("%-56s %28s %28s" % ("fix", "Modify ns/atom-step min/med", "loop ns/atom-step min/med"))
med = {}
for k in "AB":
    m = [r[0] * scale for r in runs[k]]
    l = [r[1] * scale for r in runs[k]]
    med[k] = statistics.median(m)
    print("%-56s %13.1f / %-12.1f %13.1f / %-12.1f" % (k + " " + names[k], min(m), med[k], min(l), statistics.median(l)))
    print("    each run (Modify):", " ".join("%.1f" % x for x in m))
print("ratio B/A of the median Modify times: %.2f" % (med["B"] / med["A"]))
PY
