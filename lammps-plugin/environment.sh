# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by the test and study scripts (tests/*.sh, study/*.sh), with `here`
# set to the script's folder: builds the plugin if needed (build.sh, quiet)
# and sets
#   repo  the repository root
#   out   the build folder ($LIEODE_LAMMPS_BUILD, exported; default
#         <repo>/target/lammps-plugin)
#   py    the venv's Python (numpy, scipy)
# and, from the build's env.sh, LMP, MPIRUN, LIEODE_LAMMPS_PLUGIN and
# LD_LIBRARY_PATH.
repo=$(cd "$here/../.." && pwd)
out=${LIEODE_LAMMPS_BUILD:-$repo/target/lammps-plugin}
export LIEODE_LAMMPS_BUILD=$out
"$repo/lammps-plugin/build.sh" >/dev/null
# shellcheck source=/dev/null
source "$out/env.sh"
py=${LIEODE_LAMMPS_VENV:-$repo/target/lammps-venv}/bin/python
