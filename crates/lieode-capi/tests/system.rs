//! Every many-body method of the catalogue through the C interface equals
//! `lieode::system::CatalogueSystem` bit for bit: N different bodies under attitude-,
//! velocity- and time-dependent loads, torques in the body and in the lab frame, the host's
//! particles permuted between steps (a migration) — each particle's carried state after every
//! step, its method state, and the synchronised state at the end — with the method's default
//! normalisation policy and with each policy a host may choose
//! (`lieode_method_new_with_renormalisation`).

mod common;

use common::{Host, Method};
use lieode::Result;
use lieode::body::quaternion::{rotate, rotate_inverse};
use lieode::rotation::catalogue::{self, MethodVisitor};
use lieode::rotation::{PackedState, Renormalisation, RigidBody, RigidBodyMethod, SingleBody};
use lieode::stepper::{Span, Stepper};
use lieode::system::{
    Body, BodyView, CatalogueSystem, Loads, PerBody, SystemForces, SystemState, SystemView,
};
use lieode_capi::{
    LIEODE_FRAME_BODY, LIEODE_FRAME_LAB, LIEODE_RENORMALISE_ALWAYS, LIEODE_RENORMALISE_DEFAULT,
    LIEODE_RENORMALISE_NEVER,
};
use nalgebra::{Quaternion, Vector3};

const N: usize = 7;
const STEPS: usize = 12;
const T0: f64 = 0.25;
const DT: f64 = 0.03;

/// The loads on one body: a spring to the origin with drag and gravity; a torque from a
/// body-fixed lever in gravity, spin drag and a time-dependent body-fixed part, in the body
/// frame, or (`lab`) the same torque expressed in the lab frame.
fn load(
    lab: bool,
    t: f64,
    x: &Vector3<f64>,
    v: &Vector3<f64>,
    q: &Quaternion<f64>,
    w: &Vector3<f64>,
) -> (Vector3<f64>, Vector3<f64>) {
    let gravity = Vector3::new(0.1, -0.2, -1.0);
    let force = -2.0 * x - 0.1 * v + gravity;
    let lever = Vector3::new(0.2, 0.1, 0.3);
    let body = lever.cross(&rotate_inverse(q, &gravity)) - 0.05 * w
        + Vector3::new(0.3 * (2.0 * t).sin(), 0.0, 0.1);
    let torque = if lab { rotate(q, &body) } else { body };
    (force, torque)
}

fn v3(a: &[f64; 3]) -> Vector3<f64> {
    Vector3::new(a[0], a[1], a[2])
}

/// The loads as a whole-system model (the two-pass step).
struct Field {
    lab: bool,
}

impl SystemForces for Field {
    fn torque_frame(&self) -> lieode::body::Frame {
        if self.lab {
            lieode::body::Frame::Lab
        } else {
            lieode::body::Frame::Body
        }
    }

    fn loads(&mut self, view: &SystemView<'_>, loads: &mut Loads) {
        for i in 0..view.positions.len() {
            (loads.forces[i], loads.torques[i]) = load(
                self.lab,
                view.t,
                &view.positions[i],
                &view.velocities[i],
                &view.rotors[i],
                &view.omegas[i],
            );
        }
    }
}

fn bodies() -> Vec<Body> {
    (0..N)
        .map(|i| {
            let s = i as f64;
            // Two particles share a body (the interface's cache of constants).
            let s = if i == 3 { 2.0 } else { s };
            Body::new(1.0 + 0.3 * s, [0.4 + 0.05 * s, 0.7, 1.1 - 0.02 * s]).expect("a body")
        })
        .collect()
}

fn initial() -> SystemState {
    let mut positions = Vec::new();
    let mut velocities = Vec::new();
    let mut rotors = Vec::new();
    let mut omegas = Vec::new();
    for i in 0..N {
        let s = i as f64;
        positions.push(Vector3::new(s, -0.5 * s, 0.2));
        velocities.push(Vector3::new(0.1, 0.3 - 0.1 * s, -0.2));
        // Not quite unit (the methods that normalise do so at the start).
        let q = Quaternion::new(1.0, 0.1 * s, -0.2, 0.05 * s);
        rotors.push(q / q.norm() * (1.0 + 1e-12 * s));
        omegas.push(Vector3::new(0.3 + 0.2 * s, -0.9, 0.6 - 0.1 * s));
    }
    SystemState::new(T0, positions, velocities, rotors, omegas).expect("a state")
}

/// The host's loads from its own arrays at `t`.
fn host_loads(host: &mut Host, lab: bool, t: f64) {
    for i in 0..host.len() {
        let q = host.q[i];
        let (f, tau) = load(
            lab,
            t,
            &v3(&host.x[i]),
            &v3(&host.v[i]),
            &Quaternion::new(q[0], q[1], q[2], q[3]),
            &v3(&host.w[i]),
        );
        host.forces[i] = [f.x, f.y, f.z];
        host.torques[i] = [tau.x, tau.y, tau.z];
    }
}

fn bits<const K: usize>(a: &[f64; K]) -> [u64; K] {
    a.map(f64::to_bits)
}

fn q4(q: &Quaternion<f64>) -> [f64; 4] {
    [q.w, q.i, q.j, q.k]
}

fn a3(v: &Vector3<f64>) -> [f64; 3] {
    [v.x, v.y, v.z]
}

/// The permutation of step `n`: a rotation by `n + 1` rows, reversed on odd steps.
fn permutation(n: usize) -> Vec<usize> {
    let mut p: Vec<usize> = (0..N).map(|i| (i + n + 1) % N).collect();
    if n % 2 == 1 {
        p.reverse();
    }
    p
}

struct Compare {
    lab: bool,
    fused: bool,
    /// The host's `LIEODE_RENORMALISE_*`.
    renormalise: i32,
    checked: Vec<&'static str>,
    /// Each method's carried rotors (bits, by particle) after the last step.
    rotors: Vec<(&'static str, Vec<[u64; 4]>)>,
}

/// The policy of `LIEODE_RENORMALISE_*` (`None`: the method's default).
fn policy(renormalise: i32) -> Option<Renormalisation> {
    match renormalise {
        LIEODE_RENORMALISE_DEFAULT => None,
        LIEODE_RENORMALISE_ALWAYS => Some(Renormalisation::EveryStep),
        LIEODE_RENORMALISE_NEVER => Some(Renormalisation::Never),
        other => panic!("renormalise = {other}"),
    }
}

impl MethodVisitor for Compare {
    fn visit<K: RigidBodyMethod>(&mut self, make: fn(RigidBody) -> SingleBody<K>) -> Result<()> {
        let single = make(RigidBody::new([1.0; 3])?);
        let info = single.method().info();
        let name = info.name;
        let policy = policy(self.renormalise);
        if policy.is_some() && !info.renormalisable {
            // Its normalisation is part of the method: only the default (tests/errors.rs).
            return Ok(());
        }
        let frame = if self.lab {
            LIEODE_FRAME_LAB
        } else {
            LIEODE_FRAME_BODY
        };
        let y0 = initial();
        let mut system = CatalogueSystem::new(bodies(), move |b| match policy {
            None => make(b),
            Some(p) => make(b)
                .with_renormalisation(p)
                .expect("a renormalisable method"),
        });
        let lab = self.lab;
        let mut field = Field { lab };
        let mut per_body = PerBody {
            frame: field.torque_frame(),
            model: move |b: &BodyView<'_>| load(lab, b.t, b.position, b.velocity, b.rotor, b.omega),
        };
        #[allow(clippy::type_complexity)]
        let model: &mut dyn FnMut(
            &mut CatalogueSystem<K>,
            u8,
        ) -> Result<Option<SystemState>> = &mut |system, what| match (what, self.fused) {
            (0, false) => system
                .start(&mut field, &Span::open(T0, DT)?, &y0)
                .map(|_| None),
            (0, true) => system
                .start(&mut per_body, &Span::open(T0, DT)?, &y0)
                .map(|_| None),
            (1, false) => system.step(&mut field).map(|_| None),
            (1, true) => system.step(&mut per_body).map(|_| None),
            (_, false) => system.state(&mut field).map(Some),
            (_, true) => system.state(&mut per_body).map(Some),
        };
        model(&mut system, 0)?;

        // The host: the same particles, started through the interface.
        let m = if self.renormalise == LIEODE_RENORMALISE_DEFAULT {
            Method::new(name)
        } else {
            Method::with_renormalisation(name, self.renormalise)
        };
        let renormalises =
            policy.unwrap_or(info.default_renormalisation) == Renormalisation::EveryStep;
        let info = m.info();
        assert_eq!(info.velocity_verlet_form, K::TORQUE_AT_END, "{name}");
        assert_eq!(info.renormalises, renormalises, "{name}");
        let mut host = Host {
            id: (0..N).collect(),
            mass: bodies().iter().map(|b| b.mass()).collect(),
            inertia: bodies().iter().map(|b| a3(&b.rigid().inertia())).collect(),
            x: y0.positions.iter().map(a3).collect(),
            v: y0.velocities.iter().map(a3).collect(),
            q: y0.rotors.iter().map(q4).collect(),
            w: y0.omegas.iter().map(a3).collect(),
            state: vec![f64::NAN; N * info.state_len],
            state_len: info.state_len,
            forces: vec![[0.0; 3]; N],
            torques: vec![[0.0; 3]; N],
        };
        for stage in 0..info.start_evaluations {
            host.start_prepare(&m, stage, T0, DT);
            host_loads(&mut host, lab, T0 + stage as f64 * DT);
            host.start_finish(&m, stage, T0, DT, frame);
        }
        let same = |system: &CatalogueSystem<K>, host: &Host, when: &str| {
            let view = system.arrays().expect("started");
            for id in 0..N {
                let r = host.row(id);
                let at = format!(
                    "{name}, lab {lab}, fused {}, renormalise {}, {when}, particle {id}",
                    self.fused, self.renormalise
                );
                assert_eq!(bits(&host.x[r]), bits(&a3(&view.positions[id])), "x: {at}");
                assert_eq!(bits(&host.v[r]), bits(&a3(&view.velocities[id])), "v: {at}");
                assert_eq!(bits(&host.q[r]), bits(&q4(&view.rotors[id])), "q: {at}");
                assert_eq!(bits(&host.w[r]), bits(&a3(&view.omegas[id])), "ω: {at}");
                let extra = system.carried(id).expect("a body").extra;
                let mut packed = vec![0.0; <K::Extra as PackedState>::LEN];
                extra.pack(&mut packed);
                let row = &host.state[r * info.state_len..][..packed.len()];
                assert_eq!(
                    row.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                    packed.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                    "extra: {at}"
                );
                let mut again = vec![0.0; packed.len()];
                K::Extra::unpack(row).expect("unpacks").pack(&mut again);
                assert_eq!(
                    again.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                    packed.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                    "unpacked extra: {at}"
                );
            }
        };
        same(&system, &host, "start");
        for n in 0..STEPS {
            host.permute(&permutation(n));
            let t = T0 + n as f64 * DT;
            host.prepare(&m, t, DT);
            let t_loads = if K::TORQUE_AT_END {
                T0 + (n + 1) as f64 * DT
            } else {
                t
            };
            host_loads(&mut host, lab, t_loads);
            host.finish(&m, t, DT, frame);
            model(&mut system, 1)?;
            same(&system, &host, &format!("step {n}"));
        }
        let rotors = (0..N).map(|id| bits(&host.q[host.row(id)])).collect();
        self.rotors.push((name, rotors));
        // The synchronised state at the end.
        let t = T0 + STEPS as f64 * DT;
        let (q, v, w) = if K::TORQUE_AT_END {
            host.synchronise(&m, t, DT, frame, false)
        } else {
            host.prepare(&m, t, DT);
            host_loads(&mut host, lab, t);
            host.synchronise(&m, t, DT, frame, true)
        };
        let state = model(&mut system, 2)?.expect("a state");
        for id in 0..N {
            let r = host.row(id);
            let at = format!(
                "{name}, lab {lab}, fused {}, renormalise {}, synchronised, particle {id}",
                self.fused, self.renormalise
            );
            assert_eq!(bits(&q[r]), bits(&q4(&state.rotors[id])), "q: {at}");
            assert_eq!(bits(&v[r]), bits(&a3(&state.velocities[id])), "v: {at}");
            assert_eq!(bits(&w[r]), bits(&a3(&state.omegas[id])), "ω: {at}");
            assert_eq!(bits(&host.x[r]), bits(&a3(&state.positions[id])), "x: {at}");
        }
        self.checked.push(name);
        Ok(())
    }
}

#[test]
fn every_many_body_method_equals_the_catalogue_system_bit_for_bit() -> Result<()> {
    for lab in [false, true] {
        for fused in [false, true] {
            compare(
                lab,
                fused,
                LIEODE_RENORMALISE_DEFAULT,
                &catalogue::MANY_BODY_NAMES,
            )?;
        }
    }
    Ok(())
}

/// With each policy a host may choose, every method that takes one equals the system built with
/// the same policy, and the two policies give other rotors (the start's are not quite unit).
#[test]
fn every_normalisation_policy_equals_the_catalogue_system_bit_for_bit() -> Result<()> {
    let renormalisable: Vec<&str> = (catalogue::MANY_BODY_NAMES.iter().copied())
        .filter(|name| *name != "mercurydpm")
        .collect();
    for lab in [false, true] {
        for fused in [false, true] {
            let always = compare(lab, fused, LIEODE_RENORMALISE_ALWAYS, &renormalisable)?;
            let never = compare(lab, fused, LIEODE_RENORMALISE_NEVER, &renormalisable)?;
            for ((name, a), (_, b)) in always.iter().zip(&never) {
                assert_ne!(a, b, "{name}: the policies give the same rotors");
            }
        }
    }
    Ok(())
}

/// Every many-body method through the interface against the system, with `renormalise`; the
/// methods checked are `expected`; returns each one's rotors after the last step.
#[allow(clippy::type_complexity)]
fn compare(
    lab: bool,
    fused: bool,
    renormalise: i32,
    expected: &[&str],
) -> Result<Vec<(&'static str, Vec<[u64; 4]>)>> {
    let mut compare = Compare {
        lab,
        fused,
        renormalise,
        checked: Vec::new(),
        rotors: Vec::new(),
    };
    catalogue::visit_many_bodies(&mut compare)?;
    assert_eq!(compare.checked, expected);
    Ok(compare.rotors)
}
