#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Builds the plugin (lammps-plugin/build.sh) and runs its tests:
#   rotor    a torque-free sphere with constant spin against the exact rotor
#            (|q|-1 and orientation at round-off), LAMMPS's nve/bpm/sphere beside it
#   migrate  864 spheres crossing between subdomains: `mpirun -np 1` and
#            `mpirun -np 2` dumps (sorted by atom id) bit-identical, and the
#            fix's per-atom state arrives with its atom
#   restart  write_restart on 2 ranks, read_restart on 1: the fix state comes back
#            with its atoms, and the run continues as the uninterrupted one
#   contacts (information only) the same spheres with Hertzian contacts: how
#            far the np 1 and np 2 runs drift apart
# Output in target/lammps-plugin/tests (or $LIEODE_LAMMPS_BUILD/tests).
# The last line is "N passed, N failed"; the exit status is non-zero on failure.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${LIEODE_LAMMPS_BUILD:-$repo/target/lammps-plugin}
export LIEODE_LAMMPS_BUILD=$out

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

t0=$(now)
"$here/../build.sh" >/dev/null
t1=$(now)
echo "build: $(secs "$t0" "$t1") s"
# shellcheck source=/dev/null
source "$out/env.sh"
py=${LIEODE_LAMMPS_VENV:-$repo/target/lammps-venv}/bin/python
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
t2=$(now)
lmp 1 rotor.log -in "$here/rotor.in" -var out rotor.dump
"$py" "$here/check.py" rotor rotor.dump 0.01 | tee rotor.txt || status=1
t3=$(now)
echo "rotor: $(secs "$t2" "$t3") s"
for np in 1 2; do
  lmp "$np" "migrate$np.log" -in "$here/migrate.in" -var out "migrate$np.dump" -var procout "owner$np.dump"
done
"$py" "$here/check.py" migrate migrate1.dump migrate2.dump owner2.dump 8 2000 | tee migrate.txt || status=1
t4=$(now)
echo "migrate (np 1 and np 2): $(secs "$t3" "$t4") s"
# restart: 1000 steps on 2 ranks, restart file, 1000 more on 1 rank, against
# the uninterrupted 1-rank run of migrate.in
lmp 2 restart_write.log -in "$here/restart_write.in" -var restart spheres.restart
lmp 1 restart_read.log -in "$here/restart_read.in" -var restart spheres.restart -var out restart.dump
"$py" "$here/check.py" restart migrate1.dump restart.dump | tee restart.txt || status=1
t45=$(now)
echo "restart (np 2 then np 1): $(secs "$t4" "$t45") s"
t4=$t45

# information only: with contacts, forces are sums over neighbours whose order
# depends on the decomposition, so 1 and 2 ranks need not agree to the bit
for np in 1 2; do
  lmp "$np" "contacts$np.log" -in "$here/contacts.in" -var out "contacts$np.dump"
done
"$py" "$here/check.py" differ contacts1.dump contacts2.dump
t5=$(now)
echo "contacts (np 1 and np 2, information): $(secs "$t4" "$t5") s"
echo "total with build: $(secs "$t0" "$t5") s"

cat rotor.txt migrate.txt restart.txt > results.txt
"$here/free_tops.sh" | tee -a results.txt || status=1 # free tops against DOP853 (orders, |q|-1)
npass=$(grep -c '^PASS' results.txt || true)
nfail=$(grep -c '^FAIL' results.txt || true)
echo "$npass passed, $nfail failed"
[[ $status -eq 0 && $nfail -eq 0 ]]
