#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The LAMMPS study of the lieode plugin (README.md in this folder):
#   energy  three conservative decks where rotation matters, t = 5 at several dt:
#           512 YLZ ellipsoids (prep_ylz.in, energy_ylz.in) with fix
#           nve/asphere (fix lieode does not take atom style ellipsoid),
#           512 dipolar spheres (prep_dipole.in, energy_dipole.in) with fix
#           nve/sphere update dipole, update dipole/dlm, and fix lieode method
#           M dipole yes for every catalogue method M, and
#           512 dipolar asymmetric tops from a cold start (energy_aniso.in)
#           with fix rigid/small, rigid/nve/small (ellipsoids) and fix lieode
#           method M inertia d2_inertia dipole yes (bpm/sphere), the same
#           state at step 0; energy.py writes results/energy_runs.csv and
#           results/energy.md (one table), and the lieode-study example
#           lammps_energy_figure draws results/energy.{svg,png,csv} (one
#           figure); controls (the dipole deck with zero dipoles, four
#           methods; fix nve/asphere "update dipole" and fix nve/bpm/sphere,
#           which do not turn mu) go to results/control.{csv,md}
#   seeds   the dipolar tops at three orientation seeds, LAMMPS's rigid-body
#           fixes and the second-order lieode methods at dt = 0.01, 0.005,
#           0.0025: how much of the difference between integrators is the
#           particular start; results/seeds.{csv,md}
#   tops    the free tops of ../tests/free_tops.in with fix rigid/small and
#           rigid/nve/small (free_tops_rigid.in) beside fix nve/asphere, errors
#           against the test's reference (free_tops_rigid.py):
#           results/free_tops_rigid.txt
#   cost    cost.sh (100000 free tops, nve/asphere vs lieode spiral_leapfrog,
#           interleaved) into results/cost.txt
#
#   lammps-plugin/study/run.sh [energy] [seeds] [tops] [cost]   (default: energy and cost)
#
# LIEODE_STUDY_METHODS (space-separated) overrides the list of methods.
# A LAMMPS error stops the script.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../environment.sh
source "$here/../environment.sh"
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
    local t0=$SECONDS
    for dt in $dts; do
      if ! "$LMP" -screen none -log "${name}_${label}_$dt.log" -in "$here/energy_$name.in" \
          "${deck_vars[@]}" -var data "$data" -var plugin "$LIEODE_LAMMPS_PLUGIN" -var integrator "$integrator" \
          -var dt "$dt" -var tend "$tend"; then
        echo "energy: LAMMPS failed for $name $label at dt $dt: $(grep -m1 ERROR "${name}_${label}_$dt.log")" >&2
        exit 1
      fi
    done
    labels+=("$label")
    echo "energy: $name $label done in $((SECONDS - t0)) s"
  done
  specs+=("$name=$(IFS=,; echo "${labels[*]}")")
}

energy() {
  local work=$out/study/energy
  rm -rf "$work"
  mkdir -p "$work"
  cd "$work"
  specs=()
  deck_vars=()
  "$LMP" -screen none -log prep_ylz.log -in "$here/prep_ylz.in" -var out ylz.data
  deck ylz ylz.data "0.02 0.01 0.005 0.0025 0.00125" nve_asphere=nve/asphere
  "$LMP" -screen none -log prep_dipole.log -in "$here/prep_dipole.in" -var out dipole.data
  local lieode=() m
  for m in "${methods[@]}"; do lieode+=("$m=lieode method $m dipole yes"); done
  deck dipole dipole.data "0.01 0.005 0.0025 0.00125" \
    "nve_sphere=nve/sphere update dipole" "nve_sphere_dlm=nve/sphere update dipole/dlm" "${lieode[@]}"
  # the dipolar asymmetric tops: LAMMPS's rigid-body fixes on ellipsoids, the
  # plugin on bpm/sphere, the same cold start (energy.py checks E(0))
  local aniso_dts="0.01 0.005 0.0025 0.00125"
  deck_vars=(-var body rigid -var dump 1)
  deck aniso none "$aniso_dts" rigid_small=rigid/small rigid_nve_small=rigid/nve/small
  lieode=()
  for m in "${methods[@]}"; do lieode+=("$m=lieode method $m inertia d2_inertia dipole yes"); done
  deck_vars=(-var body bpm -var dump 1)
  deck aniso none "$aniso_dts" "${lieode[@]}"
  deck_vars=()
  # the step-0 states of the two atom styles, dipolar particles: id, x, quat, mu
  cmp <(head -n 521 aniso_rigid.dump | tail -n 512) <(tail -n 512 aniso_bpm.dump) \
    || { echo "energy: aniso step-0 states differ between the atom styles" >&2; exit 1; }
  echo "energy: aniso step-0 id, x, quat, mu identical in both atom styles (512 particles)"
  "$py" "$here/energy.py" . "$results/energy_runs.csv" "$results/energy.md" "${specs[@]}"
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
  # control: fix nve/asphere on the tops, its "update dipole" ignored (mu
  # stays in the lab; the v_mudev column of energy_aniso.in measures it)
  for dt in 0.01 0.005; do
    "$LMP" -screen none -log "asphere_nve_asphere_$dt.log" -in "$here/energy_aniso.in" \
      -var body asphere -var plugin "$LIEODE_LAMMPS_PLUGIN" \
      -var integrator "nve/asphere update dipole" -var dt "$dt" -var tend "$tend"
  done
  "$py" "$here/energy.py" . "$results/control.csv" "$results/control.md" \
    "nodipole=$(IFS=,; echo "${ctl[*]}")" asphere=nve_asphere
  # which integrators turn mu with the body: one free dipolar top each
  {
    local spec
    for spec in "ellipsoid:nve/asphere update dipole" "bpm/sphere:nve/bpm/sphere" \
        "bpm/sphere:nve/sphere update dipole" "bpm/sphere:lieode method spiral_leapfrog dipole yes"; do
      "$LMP" -screen none -log mu_check.log -in "$here/mu_check.in" -var style "${spec%%:*}" \
        -var integrator "${spec#*:}" -var plugin "$LIEODE_LAMMPS_PLUGIN" >/dev/null
      grep '^mu_check' mu_check.log
    done
  } | tee "$results/mu_check.txt"
  (cd "$repo" && cargo run --release -q -p lieode-study --example lammps_energy_figure -- \
    "$results/energy_runs.csv" "$results")
}

seeds() {
  local work=$out/study/seeds
  rm -rf "$work"
  mkdir -p "$work"
  cd "$work"
  local seed spec label integrator body dt specs=()
  local integrators=(rigid_small=rigid:rigid/small rigid_nve_small=rigid:rigid/nve/small)
  for m in spiral_leapfrog spiral_omelyan omelyan; do
    integrators+=("$m=bpm:lieode method $m inertia d2_inertia dipole yes")
  done
  for seed in 4811 1234 777; do
    for spec in "${integrators[@]}"; do
      label=${spec%%=*}
      body=${spec#*=}
      integrator=${body#*:}
      body=${body%%:*}
      for dt in 0.01 0.005 0.0025; do
        "$LMP" -screen none -log "s${seed}_${label}_$dt.log" -in "$here/energy_aniso.in" \
          -var body "$body" -var seed "$seed" -var plugin "$LIEODE_LAMMPS_PLUGIN" \
          -var integrator "$integrator" -var dt "$dt" -var tend "$tend"
      done
    done
    specs+=("s$seed=$(IFS=,; for spec in "${integrators[@]}"; do printf '%s,' "${spec%%=*}"; done)")
  done
  "$py" "$here/energy.py" . "$results/seeds.csv" "$results/seeds.md" "${specs[@]}"
}

tops() {
  local work=$out/study/tops dts=(0.02 0.01 0.005 0.0025 0.00125 0.000625) fx
  rm -rf "$work"
  mkdir -p "$work"
  cd "$work"
  "$py" "$here/../tests/free_tops.py" data tops.data
  "$LMP" -screen none -log nve_asphere.log -in "$here/../tests/free_tops.in" -var style ellipsoid \
    -var setup tops.data -var out nve_asphere -var plugin "$LIEODE_LAMMPS_PLUGIN" \
    -var integrator nve/asphere -var dt "${dts[@]}"
  for fx in rigid/small rigid/nve/small; do
    "$LMP" -screen none -log "${fx//\//_}.log" -in "$here/free_tops_rigid.in" -var setup tops.data \
      -var integrator "$fx" -var out "${fx//\//_}" -var dt "${dts[@]}"
  done
  "$py" "$here/free_tops_rigid.py" . nve_asphere rigid_small rigid_nve_small \
    | tee "$results/free_tops_rigid.txt"
}

for part in "${parts[@]}"; do
  case $part in
    energy) (energy) ;;
    seeds) (seeds) ;;
    tops) (tops) ;;
    cost) "$here/cost.sh" | tee "$results/cost.txt" ;;
    *) echo "unknown part $part (energy, seeds, tops, cost)" >&2; exit 2 ;;
  esac
done
