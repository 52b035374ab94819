#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Builds the plugin (lammps-plugin/build.sh) and runs its tests:
#   rotor    a torque-free sphere with constant spin by fix lieode's SPIRAL
#            leapfrog against the exact rotor (|q|-1 and orientation at
#            round-off), LAMMPS's nve/bpm/sphere beside it
#   migrate  864 tumbling spheres with anisotropic inertia crossing between
#            subdomains, for methods of both forms and with 0, 10 and 12 doubles
#            of state: `mpirun -np 1` and `-np 2` dumps (sorted by atom id)
#            bit-identical; their output velocities exactly synchronised
#   groups   the same spheres split between two fix instances (gathered rows,
#            one synchronising every step): equal to the one-fix run
#   restart  write_restart on 2 ranks, read_restart on 1: the continued run
#            equals two runs in one deck on 1 rank
#   example  examples/settling_grains.in, shortened
#   refused  bad input (method name, inertia, array) stops LAMMPS with an
#            error naming it, the atom ID for per-atom values
#   contacts (information only) the spheres with Hertzian contacts: how far the
#            np 1 and np 2 runs drift apart
# Output in target/lammps-plugin/tests (or $LIEODE_LAMMPS_BUILD/tests).
# The last line is "N passed, N failed"; the exit status is non-zero on failure.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

t0=$(now)
# shellcheck source=../environment.sh
source "$here/../environment.sh"
t1=$(now)
echo "build: $(secs "$t0" "$t1") s"
work=$out/tests
rm -rf "$work"
mkdir -p "$work"
cd "$work"

lmp() { # lmp NP LOG ARGS...: LAMMPS on NP ranks, log to LOG
  local np=$1 log=$2
  shift 2
  if ! "$MPIRUN" -np "$np" "$LMP" -screen none -log "$log" -var plugin "$LIEODE_LAMMPS_PLUGIN" "$@"; then
    echo "LAMMPS failed on $np rank(s); tail of $work/$log:" >&2
    tail -n 20 "$log" >&2 || true
    return 1
  fi
}

status=0
deck=(-var plugin "$LIEODE_LAMMPS_PLUGIN" -var tests "$here")
t2=$(now)
lmp 1 rotor.log -in "$here/rotor.in" "${deck[@]}" -var out rotor.dump
"$py" "$here/check.py" rotor rotor.dump 0.01 | tee results.txt || status=1
t3=$(now)
echo "rotor: $(secs "$t2" "$t3") s"

# methods of both forms, with 0, 10, 10 and 12 doubles of state per atom
for method in spiral_leapfrog fincham velocity_verlet mercurydpm; do
  for np in 1 2; do
    lmp "$np" "migrate-$method-$np.log" -in "$here/migrate.in" "${deck[@]}" -var method "$method" \
      -var out "migrate-$method-$np.dump" -var procout "owner-$method-$np.dump"
  done
  "$py" "$here/check.py" migrate "$method" "migrate-$method-1.dump" "migrate-$method-2.dump" \
    "owner-$method-2.dump" | tee -a results.txt || status=1
  "$py" "$here/check.py" freefall "$method" "migrate-$method-1.dump" 0.005 0.5 | tee -a results.txt || status=1
done
t35=$(now)
echo "migrate (4 methods on np 1 and np 2): $(secs "$t3" "$t35") s"

# the same spheres in two groups, two fix instances (rows gathered, one
# synchronising every step), on 2 ranks: equal to the one-fix run on 1 rank
for method in spiral_leapfrog velocity_verlet; do
  lmp 2 "groups-$method.log" -in "$here/two_groups.in" "${deck[@]}" -var method "$method" \
    -var out "groups-$method.dump" -var procout "groups-owner-$method.dump"
  if cmp -s "migrate-$method-1.dump" "groups-$method.dump"; then
    echo "PASS two groups $method: odd and even atoms by two fixes (one with sync every) on 2 ranks, bit-identical to one fix on 1 rank" | tee -a results.txt
  else
    echo "FAIL two groups $method: the dumps differ from migrate-$method-1.dump" | tee -a results.txt
    status=1
  fi
done
t4=$(now)
echo "two groups (2 methods on np 2): $(secs "$t35" "$t4") s"

# restart: 1000 steps on 2 ranks, restart file, 1000 more on 1 rank, against
# two runs of 1000 steps in one deck on 1 rank
lmp 2 restart_write.log -in "$here/restart_write.in" "${deck[@]}" -var method fincham -var restart spheres.restart
lmp 1 restart_read.log -in "$here/restart_read.in" "${deck[@]}" -var method fincham -var restart spheres.restart -var out restart.dump
lmp 1 two_runs.log -in "$here/two_runs.in" "${deck[@]}" -var method fincham -var out two_runs.dump
"$py" "$here/check.py" restart fincham two_runs.dump restart.dump | tee -a results.txt || status=1
t5=$(now)
echo "restart (np 2 then np 1): $(secs "$t4" "$t5") s"

refused() { # refused NAME TEXT -- DECK VARIABLES...: the deck must fail with TEXT in its error
  local name=$1 text=$2
  shift 3
  if "$MPIRUN" -np 2 "$LMP" -screen none -log "refused-$name.log" -in "$here/refused.in" "${deck[@]}" "$@" >/dev/null 2>&1; then
    echo "FAIL refused $name: LAMMPS ran" | tee -a results.txt
    status=1
  else
    "$py" "$here/check.py" refused "$name" "refused-$name.log" "$text" | tee -a results.txt || status=1
  fi
}
ok=(-var atom 7 -var moment 0.0028 -var inertia inertia)
refused method 'unknown method "spiral_leapfrg"' -- "${ok[@]}" -var method spiral_leapfrg
refused negative-moment 'is atom ID 700' -- -var method spiral_leapfrog -var inertia inertia -var atom 700 -var moment -0.001
refused triangle 'is atom ID 7)' -- -var method fincham -var inertia inertia -var atom 7 -var moment 0.05
refused two-start-evaluations 'needs 2 load evaluations' -- "${ok[@]}" -var method spiral_magnus
refused no-array 'd2_nothere' -- -var method spiral_leapfrog -var inertia nothere -var atom 7 -var moment 0.0028
t6=$(now)
echo "refused (5 decks on np 2): $(secs "$t5" "$t6") s"

# the example deck, shortened
lmp 2 example.log -in "$here/../examples/settling_grains.in" -var plugin "$LIEODE_LAMMPS_PLUGIN" -var steps 2000
if grep -q '^Loop time' example.log; then
  echo "PASS example: settling_grains.in, 2000 steps on 2 ranks" | tee -a results.txt
else
  echo "FAIL example: settling_grains.in did not finish" | tee -a results.txt
  status=1
fi
t65=$(now)
echo "example (np 2): $(secs "$t6" "$t65") s"
t6=$t65

# information only: with contacts, forces are sums over neighbours whose order
# depends on the decomposition, so 1 and 2 ranks need not agree to the bit
for np in 1 2; do
  lmp "$np" "contacts$np.log" -in "$here/contacts.in" "${deck[@]}" -var out "contacts$np.dump"
done
"$py" "$here/check.py" differ contacts1.dump contacts2.dump
t7=$(now)
echo "contacts (np 1 and np 2, information): $(secs "$t6" "$t7") s"
echo "total with build: $(secs "$t0" "$t7") s"

"$here/free_tops.sh" | tee -a results.txt || status=1 # free tops against DOP853 (orders, |q|-1)
npass=$(grep -c '^PASS' results.txt || true)
nfail=$(grep -c '^FAIL' results.txt || true)
echo "$npass passed, $nfail failed"
[[ $status -eq 0 && $nfail -eq 0 ]]
