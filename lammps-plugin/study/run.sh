#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The LAMMPS study of the lieode plugin (README.md in this folder):
#   energy  512 YLZ ellipsoids (prep.in, energy.in), t = 5 at dt = 0.02 ...
#           0.00125, with fix nve/asphere and fix lieode method M for every
#           catalogue method M the plugin has; energy.py writes
#           results/energy.csv and results/energy.md, and the lieode-study
#           example lammps_energy_figure draws results/energy_figure.{svg,png,csv}
#   cost    cost.sh (100000 free tops, nve/asphere vs lieode spiral_leapfrog,
#           interleaved) into results/cost.txt
#
#   lammps-plugin/study/run.sh [energy] [cost]       (default: both)
#
# LIEODE_STUDY_METHODS (space-separated) overrides the list of methods.
# Methods the plugin does not have ("Unrecognized fix style") are skipped
# with a note; any other LAMMPS error stops the script.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${LIEODE_LAMMPS_BUILD:-$repo/target/lammps-plugin}
export LIEODE_LAMMPS_BUILD=$out
"$here/../build.sh" >/dev/null
# shellcheck source=/dev/null
source "$out/env.sh"
py=${LIEODE_LAMMPS_VENV:-$repo/target/lammps-venv}/bin/python
results=$here/results
mkdir -p "$results"
parts=("$@")
[[ ${#parts[@]} -gt 0 ]] || parts=(energy cost)
read -r -a methods <<< "${LIEODE_STUDY_METHODS:-spiral_leapfrog spiral spiral_omelyan omelyan fincham velocity_verlet direct_euler buss buss16 johnson mercurydpm}"
dts=(0.02 0.01 0.005 0.0025 0.00125)
tend=5

energy() {
  local work=$out/study/energy
  rm -rf "$work"
  mkdir -p "$work"
  cd "$work"
  "$LMP" -screen none -log prep.log -in "$here/prep.in" -var out ylz.data
  local labels=() label integrator dt
  for label in nve_asphere "${methods[@]}"; do
    if [[ $label == nve_asphere ]]; then integrator=nve/asphere; else integrator="lieode method $label"; fi
    local ok=1 t0=$SECONDS
    for dt in "${dts[@]}"; do
      if ! "$LMP" -screen none -log "energy_${label}_$dt.log" -in "$here/energy.in" \
          -var data ylz.data -var plugin "$LIEODE_LAMMPS_PLUGIN" -var integrator "$integrator" \
          -var dt "$dt" -var tend "$tend"; then
        if grep -q "Unrecognized fix style 'lieode'" "energy_${label}_$dt.log"; then
          echo "energy: skipped $label (this plugin has no fix lieode)"
          rm -f energy_"${label}"_*.log
          ok=0
          break
        fi
        echo "energy: LAMMPS failed for $label at dt $dt: $(grep -m1 ERROR "energy_${label}_$dt.log")" >&2
        exit 1
      fi
    done
    if (( ok )); then
      labels+=("$label")
      echo "energy: $label done in $((SECONDS - t0)) s"
    fi
  done
  "$py" "$here/energy.py" . "$results/energy.csv" "$results/energy.md" "${labels[@]}"
  (cd "$repo" && cargo run --release -q -p lieode-study --example lammps_energy_figure -- \
    "$results/energy.csv" "$results")
}

for part in "${parts[@]}"; do
  case $part in
    energy) (energy) ;;
    cost) "$here/cost.sh" | tee "$results/cost.txt" ;;
    *) echo "unknown part $part (energy, cost)" >&2; exit 2 ;;
  esac
done
