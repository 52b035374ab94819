"""A large ensemble of tumbling heavy tops spread over a Dask cluster, checked against the serial
run bit for bit — the path for ensembles that outgrow one machine.

Each Dask task integrates one block of members with ``lieode.rigid_body_ensemble`` (all of its
worker's cores); a member's numbers depend on its own start only, so the blocks, gathered in
order, are the serial run exactly.

    python crates/lieode-python/examples/dask_ensemble.py --members 20000 --workers 2

starts a ``LocalCluster`` on this machine; ``--scheduler tcp://host:8786`` uses a running
cluster instead (every worker needs ``lieode`` installed).
"""

import argparse
import time

import numpy as np

import lieode


def heavy_top_starts(members, seed=1):
    """Heavy tops with uncertain spin: unit rotors near the identity and angular velocities
    around a fast spin about the symmetry axis, drawn reproducibly from ``seed``."""
    rng = np.random.default_rng(seed)
    tilt = 0.1 * rng.standard_normal((members, 3))
    angle = np.linalg.norm(tilt, axis=1, keepdims=True)
    rotors = np.hstack([np.cos(angle / 2), np.sinc(angle / (2 * np.pi)) * tilt / 2])
    omegas = np.array([0.0, 0.0, 20.0]) + 0.5 * rng.standard_normal((members, 3))
    return rotors, omegas


#: The problem every member shares: a symmetric top (moments 1, 1, 0.5) with its centre of
#: mass 0.3 up the symmetry axis in gravity, and the output times.
PROBLEM = dict(
    inertia=[1.0, 1.0, 0.5],
    torque=lieode.FieldTorque(offset=(0.0, 0.0, 0.3), lab_force=(0.0, 0.0, -9.81)),
    t_eval=np.linspace(0.0, 5.0, 51),
)


def integrate_block(rotors, omegas, threads=None, **options):
    """One block of members (what a Dask task runs): rotors and angular velocities at
    ``PROBLEM["t_eval"]``."""
    result = lieode.rigid_body_ensemble(
        PROBLEM["inertia"], rotors, omegas, PROBLEM["t_eval"],
        torque=PROBLEM["torque"], threads=threads, **options,
    )
    return result.rotors, result.omegas


def integrate_on_cluster(client, rotors, omegas, blocks, threads=None, **options):
    """The ensemble split into ``blocks`` contiguous blocks, one Dask task each, gathered in
    order: ``(rotors, omegas)`` of shapes ``(M, T, 4)`` and ``(M, T, 3)``."""
    parts = np.array_split(np.arange(len(rotors)), blocks)
    futures = [
        client.submit(
            integrate_block, rotors[part], omegas[part], threads, pure=False, **options
        )
        for part in parts
    ]
    results = client.gather(futures)
    return (
        np.concatenate([r for r, _ in results]),
        np.concatenate([w for _, w in results]),
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--blocks", type=int, default=8)
    parser.add_argument("--scheduler", default=None, help="address of a running scheduler")
    args = parser.parse_args()

    from dask.distributed import Client, LocalCluster

    rotors, omegas = heavy_top_starts(args.members)
    start = time.perf_counter()
    serial = integrate_block(rotors, omegas)
    serial_time = time.perf_counter() - start

    if args.scheduler is None:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True)
        client = Client(cluster)
    else:
        cluster, client = None, Client(args.scheduler)
    try:
        start = time.perf_counter()
        spread = integrate_on_cluster(client, rotors, omegas, args.blocks, threads=1)
        cluster_time = time.perf_counter() - start
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    same = all(np.array_equal(a, b) for a, b in zip(serial, spread))
    print(f"{args.members} heavy tops, t in [0, 5], DOP853 lifted, rtol = atol = 1e-10")
    print(f"serial (all cores, one call): {serial_time:.2f} s")
    print(f"Dask, {args.blocks} blocks:       {cluster_time:.2f} s (includes shipping the arrays)")
    print(f"bit-identical to the serial run: {same}")
    if not same:
        raise SystemExit("the cluster's numbers differ from the serial run")


if __name__ == "__main__":
    main()
