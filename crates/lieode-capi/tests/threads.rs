//! One handle used from two threads at once, each on its own slice of the particles, gives the
//! run of the whole array bit for bit (the handle is immutable; particles are independent).

mod common;

use common::{Host, Method};
use lieode_capi::{LIEODE_FRAME_LAB, LieodeMethod};

/// A host of `n` particles of different inertia, with a lab torque depending on the attitude.
fn host(method: &Method, n: usize) -> Host {
    let info = method.info();
    Host {
        id: (0..n).collect(),
        mass: (0..n).map(|i| 1.0 + 0.1 * i as f64).collect(),
        inertia: (0..n).map(|i| [0.4 + 0.01 * i as f64, 0.5, 0.6]).collect(),
        x: (0..n).map(|i| [i as f64, 0.0, 0.0]).collect(),
        v: vec![[0.1, 0.0, -0.1]; n],
        q: vec![[1.0, 0.0, 0.0, 0.0]; n],
        w: (0..n).map(|i| [0.3, -0.9 + 0.1 * i as f64, 0.6]).collect(),
        state: vec![0.0; n * info.state_len],
        state_len: info.state_len,
        forces: vec![[0.0; 3]; n],
        torques: vec![[0.0; 3]; n],
    }
}

fn loads(host: &mut Host) {
    for i in 0..host.len() {
        let q = host.q[i];
        host.forces[i] = [-host.x[i][0], -host.x[i][1], -1.0];
        host.torques[i] = [0.5 * q[1] + 0.1, -0.3 * q[2], 0.2 * q[0] * q[3]];
    }
}

/// `steps` steps of `host` with the method at `handle` (shared between threads as an address).
fn run(handle: usize, host: &mut Host, steps: usize) {
    let m = Method(handle as *mut LieodeMethod);
    let info = m.info();
    for stage in 0..info.start_evaluations {
        host.start_prepare(&m, stage, 0.0, 0.01);
        loads(host);
        host.start_finish(&m, stage, 0.0, 0.01, LIEODE_FRAME_LAB);
    }
    for n in 0..steps {
        let t = n as f64 * 0.01;
        host.prepare(&m, t, 0.01);
        loads(host);
        host.finish(&m, t, 0.01, LIEODE_FRAME_LAB);
    }
    // The handle belongs to the caller.
    std::mem::forget(m);
}

#[test]
fn one_handle_on_two_threads_equals_one_call() {
    for name in lieode::rotation::catalogue::MANY_BODY_NAMES {
        let method = Method::new(name);
        let mut whole = host(&method, 9);
        run(method.0 as usize, &mut whole, 20);
        let mut parts = host(&method, 9);
        let (a, b) = (parts.clone(), parts.clone());
        let split = |mut h: Host, range: std::ops::Range<usize>| {
            let len = h.state_len;
            h.id = h.id[range.clone()].to_vec();
            h.mass = h.mass[range.clone()].to_vec();
            h.inertia = h.inertia[range.clone()].to_vec();
            h.x = h.x[range.clone()].to_vec();
            h.v = h.v[range.clone()].to_vec();
            h.q = h.q[range.clone()].to_vec();
            h.w = h.w[range.clone()].to_vec();
            h.forces = h.forces[range.clone()].to_vec();
            h.torques = h.torques[range.clone()].to_vec();
            h.state = h.state[range.start * len..range.end * len].to_vec();
            h
        };
        let (mut a, mut b) = (split(a, 0..4), split(b, 4..9));
        let handle = method.0 as usize;
        std::thread::scope(|s| {
            s.spawn(|| run(handle, &mut a, 20));
            s.spawn(|| run(handle, &mut b, 20));
        });
        parts.q = [a.q, b.q].concat();
        parts.w = [a.w, b.w].concat();
        parts.x = [a.x, b.x].concat();
        parts.v = [a.v, b.v].concat();
        parts.state = [a.state, b.state].concat();
        let bits = |v: &[[f64; 3]]| v.iter().flatten().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&parts.x), bits(&whole.x), "{name}");
        assert_eq!(bits(&parts.v), bits(&whole.v), "{name}");
        assert_eq!(bits(&parts.w), bits(&whole.w), "{name}");
        assert_eq!(parts.q, whole.q, "{name}");
        assert_eq!(
            parts.state.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            whole.state.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            "{name}"
        );
    }
}
