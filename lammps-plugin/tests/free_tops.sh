#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Free asymmetric tops (free_tops.in, free_tops.py): four torque-free
# ellipsoids to t = 20 at dt = 0.02 ... 0.0025 with LAMMPS's fix nve/asphere
# and with `fix lieode method M` for every catalogue method M, against an
# independent DOP853 solution.  Prints the error table and PASS/FAIL lines.
#
#   lammps-plugin/tests/free_tops.sh [METHOD ...]
#
# Without arguments, the eleven methods fix lieode accepts.  If the plugin has
# no `fix lieode` yet (LAMMPS answers "Unrecognized fix style"), the lieode
# runs are reported as SKIP and only nve/asphere is checked; any other LAMMPS
# error fails.  Output in $LIEODE_LAMMPS_BUILD/tests/free_tops.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${LIEODE_LAMMPS_BUILD:-$repo/target/lammps-plugin}
export LIEODE_LAMMPS_BUILD=$out
"$here/../build.sh" >/dev/null
# shellcheck source=/dev/null
source "$out/env.sh"
py=${LIEODE_LAMMPS_VENV:-$repo/target/lammps-venv}/bin/python
methods=("$@")
if [[ ${#methods[@]} -eq 0 ]]; then
  methods=(spiral_leapfrog spiral spiral_omelyan omelyan fincham velocity_verlet
           direct_euler buss buss16 johnson mercurydpm)
fi
work=$out/tests/free_tops
rm -rf "$work"
mkdir -p "$work"
cd "$work"
"$py" "$here/free_tops.py" data tops.data

run() { # run LABEL INTEGRATOR...: the deck with one integrator
  local label=$1
  shift
  "$LMP" -screen none -log "$label.log" -in "$here/free_tops.in" -var data tops.data \
    -var out "$label" -var plugin "$LIEODE_LAMMPS_PLUGIN" -var integrator "$*"
}

labels=()
run nve_asphere nve/asphere || { echo "FAIL free_tops nve/asphere: LAMMPS failed, see $work/nve_asphere.log"; exit 1; }
labels+=(nve_asphere)
status=0
for m in "${methods[@]}"; do
  if run "$m" lieode method "$m"; then
    labels+=("$m")
  elif grep -q "Unrecognized fix style 'lieode'" "$m.log"; then
    echo "SKIP free_tops $m: this plugin has no fix lieode"
  else
    echo "FAIL free_tops $m: LAMMPS failed; $(grep -m1 ERROR "$m.log" || true)"
    status=1
  fi
done
"$py" "$here/free_tops.py" check . "${labels[@]}" || status=1
exit $status
