//! The interface's calls for one method `K` of the catalogue: the per-particle arithmetic of
//! [`lieode::system::CatalogueSystem`] on the host's arrays, with everything the method carries
//! for a particle between calls in the particle's row of the host's state array.

use lieode::body::quaternion::rotate_inverse;
use lieode::rotation::{Carried, PackedState, RigidBodyMethod, TorquePoint};
use lieode::system::Body;
use nalgebra::{Quaternion, Vector3};

use crate::failure::Failure;
use crate::info::LieodeMethodInfo;
use crate::status::LieodeStatus;

/// What the methods say when their own state (not the host's loads) is not finite where the
/// loads are to be evaluated (as [`lieode::system::CatalogueSystem`] says it).
const METHOD_STATE: &str = "method state (where the loads are evaluated)";
/// The same for the start's half step back.
const METHOD_STATE_HALF_STEP: &str = "method state (the start's half step back)";

/// The host's arrays for `n` particles, as slices (checked by `crate::arrays`).
pub(crate) struct View<'a> {
    pub mass: &'a [f64],
    pub inertia: &'a [[f64; 3]],
    pub positions: &'a mut [[f64; 3]],
    pub velocities: &'a mut [[f64; 3]],
    pub rotors: &'a mut [[f64; 4]],
    pub omegas: &'a mut [[f64; 3]],
    /// `n` rows of `state_len` doubles.
    pub state: &'a mut [f64],
}

/// The loads the host evaluated: forces (lab frame) and torques in `lab` or the body frame.
#[derive(Clone, Copy)]
pub(crate) struct LoadsView<'a> {
    pub forces: &'a [[f64; 3]],
    pub torques: &'a [[f64; 3]],
    pub lab: bool,
}

/// Row `i` of each of the host's arrays: one particle.
struct Particle<'a> {
    mass: f64,
    inertia: &'a [f64; 3],
    x: &'a mut [f64; 3],
    v: &'a mut [f64; 3],
    q: &'a mut [f64; 4],
    w: &'a mut [f64; 3],
    /// The particle's row of the state array.
    row: &'a mut [f64],
}

impl<'a> View<'a> {
    /// The particles in order, each with its row of `state_len` doubles (one pass over every
    /// array, whichever rows a call reads).
    #[inline(always)]
    fn particles(self, state_len: usize) -> impl Iterator<Item = Particle<'a>> {
        (self.mass.iter().zip(self.inertia))
            .zip(self.positions.iter_mut().zip(self.velocities.iter_mut()))
            .zip(self.rotors.iter_mut().zip(self.omegas.iter_mut()))
            .zip(Rows::new(self.state, state_len))
            .map(|((((mass, inertia), (x, v)), (q, w)), row)| Particle {
                mass: *mass,
                inertia,
                x,
                v,
                q,
                w,
                row,
            })
    }
}

impl<'a> LoadsView<'a> {
    /// Each particle's force and torque, in order.
    #[inline(always)]
    fn rows(&self) -> impl Iterator<Item = (&'a [f64; 3], &'a [f64; 3])> {
        self.forces.iter().zip(self.torques)
    }
}

/// The calls of one method, erased over its type (one virtual call per array, not per
/// particle).
pub(crate) trait Abi: Send + Sync {
    fn info(&self) -> LieodeMethodInfo;
    fn start_prepare(
        &self,
        stage: usize,
        t0: f64,
        dt: f64,
        arrays: View<'_>,
    ) -> Result<(), Failure>;
    fn start_finish(
        &self,
        stage: usize,
        t0: f64,
        dt: f64,
        arrays: View<'_>,
        loads: LoadsView<'_>,
    ) -> Result<(), Failure>;
    fn prepare(
        &self,
        t: f64,
        dt: f64,
        arrays: View<'_>,
        forces: Option<&[[f64; 3]]>,
    ) -> Result<(), Failure>;
    fn finish(
        &self,
        t: f64,
        dt: f64,
        arrays: View<'_>,
        loads: LoadsView<'_>,
    ) -> Result<(), Failure>;
    fn synchronise(
        &self,
        t: f64,
        dt: f64,
        arrays: View<'_>,
        loads: Option<LoadsView<'_>>,
        out: Synchronised<'_>,
    ) -> Result<(), Failure>;
}

/// The caller's output arrays of [`Abi::synchronise`].
pub(crate) struct Synchronised<'a> {
    pub rotors: &'a mut [[f64; 4]],
    pub velocities: &'a mut [[f64; 3]],
    pub omegas: &'a mut [[f64; 3]],
}

/// A method of the catalogue with the normalisation its default policy applies every step.
pub(crate) struct Typed<K: RigidBodyMethod> {
    pub method: K,
    pub renormalise: bool,
}

/// The layout of a particle's row of the state array: the method's `Extra`, then (if
/// [`Typed::SAVE`]) the carried rotor and angular velocity while the host's arrays hold the
/// torque point, then (if [`Typed::FIRST_FORCE`]) the start's first force.
impl<K: RigidBodyMethod> Typed<K> {
    /// Whether the carried rotor and angular velocity are kept in the row while the host's
    /// arrays hold a torque point that differs from them.
    const SAVE: bool = !K::POINT_IS_CARRIED || K::START_EVALUATIONS > 1;
    /// Whether the start keeps its first force for the velocity's half step back (more than
    /// one start evaluation).
    const FIRST_FORCE: bool = K::START_EVALUATIONS > 1;
    const EXTRA: usize = <K::Extra as PackedState>::LEN;
    const SAVED_AT: usize = Self::EXTRA;
    const FORCE_AT: usize = Self::SAVED_AT + if Self::SAVE { 7 } else { 0 };
    /// Doubles per particle.
    pub(crate) const STATE_LEN: usize = Self::FORCE_AT + if Self::FIRST_FORCE { 3 } else { 0 };
    /// Load evaluations of the start: the loads at `t_0` always (the translation needs them).
    const STAGES: usize = if K::START_EVALUATIONS > 1 {
        K::START_EVALUATIONS
    } else {
        1
    };

    fn extra(row: &[f64], i: usize) -> Result<K::Extra, Failure> {
        K::Extra::unpack(row).ok_or_else(|| {
            Failure::new(
                LieodeStatus::InvalidArgument,
                format!("the state row of particle {i} was not written by this method"),
            )
        })
    }

    /// The carried state kept in the row if `saved` (the start's stages of a method that keeps
    /// it, a step's of a method whose point is not its carried state), else in the host's
    /// arrays.
    fn carried_saved(
        saved: bool,
        row: &[f64],
        q: &[f64; 4],
        w: &[f64; 3],
        i: usize,
    ) -> Result<Carried<K::Extra>, Failure> {
        let extra = Self::extra(row, i)?;
        if saved {
            let s = &row[Self::SAVED_AT..Self::SAVED_AT + 7];
            Ok(Carried::new(
                Quaternion::new(s[0], s[1], s[2], s[3]),
                Vector3::new(s[4], s[5], s[6]),
                extra,
            ))
        } else {
            Ok(Carried::new(quat(q), vec3(w), extra))
        }
    }

    /// The carried state between steps: the host's rotor and angular velocity, the row's extra.
    fn carried_host(
        row: &[f64],
        q: &[f64; 4],
        w: &[f64; 3],
        i: usize,
    ) -> Result<Carried<K::Extra>, Failure> {
        Ok(Carried::new(quat(q), vec3(w), Self::extra(row, i)?))
    }

    fn save(row: &mut [f64], c: &Carried<K::Extra>) {
        c.extra.pack(&mut row[..Self::EXTRA]);
        if Self::SAVE {
            let s = &mut row[Self::SAVED_AT..Self::SAVED_AT + 7];
            s[..4].copy_from_slice(&quat_out(&c.q));
            s[4..].copy_from_slice(&vec_out(&c.omega));
        }
    }

    /// Body and constants of particle `i`, reusing the previous particle's when its mass and
    /// inertia are the same bits (a uniform system computes them once per call).
    #[inline(always)]
    fn kind<'c>(
        &self,
        cache: &'c mut Cache<K>,
        mass: f64,
        inertia: &[f64; 3],
        dt: f64,
        i: usize,
    ) -> Result<(&'c Body, &'c K::Constants), Failure> {
        let key = [mass, inertia[0], inertia[1], inertia[2]].map(f64::to_bits);
        // Compared entry by entry, `&` not `&&`: one branch.
        let same = |k: &[u64; 4]| {
            (k[0] == key[0]) & (k[1] == key[1]) & (k[2] == key[2]) & (k[3] == key[3])
        };
        if !matches!(cache, Some((k, ..)) if same(k)) {
            self.refill(cache, key, mass, inertia, dt, i)?;
        }
        cache
            .as_ref()
            .map(|(_, body, constants)| (body, constants))
            .ok_or_else(|| Failure::internal("the constants' cache is empty"))
    }

    /// The cache for a particle of another body.
    #[cold]
    #[inline(never)]
    fn refill(
        &self,
        cache: &mut Cache<K>,
        key: [u64; 4],
        mass: f64,
        inertia: &[f64; 3],
        dt: f64,
        i: usize,
    ) -> Result<(), Failure> {
        let body = Body::new(mass, *inertia).map_err(|e| {
            Failure::new(
                LieodeStatus::InvalidArgument,
                format!("particle {i}: mass or inertia: {e}"),
            )
        })?;
        let constants = self.method.constants(body.rigid(), dt);
        *cache = Some((key, body, constants));
        Ok(())
    }
}

/// The last particle's key (mass and inertia bits), body and constants.
type Cache<K> = Option<([u64; 4], Body, <K as RigidBodyMethod>::Constants)>;

fn quat(q: &[f64; 4]) -> Quaternion<f64> {
    Quaternion::new(q[0], q[1], q[2], q[3])
}

fn quat_out(q: &Quaternion<f64>) -> [f64; 4] {
    [q.w, q.i, q.j, q.k]
}

fn vec3(v: &[f64; 3]) -> Vector3<f64> {
    Vector3::new(v[0], v[1], v[2])
}

fn vec_out(v: &Vector3<f64>) -> [f64; 3] {
    [v.x, v.y, v.z]
}

fn finite(v: &[f64]) -> bool {
    v.iter().all(|x| x.is_finite())
}

fn non_finite(function: &str, what: &str, i: usize, t: f64) -> Failure {
    Failure::new(
        LieodeStatus::NonFinite,
        format!("{function}: non-finite {what} of particle {i} at t = {t:e}"),
    )
}

/// The rows of `len` doubles of a state array (also for `len = 0`: then every row is empty).
struct Rows<'a> {
    rest: &'a mut [f64],
    len: usize,
}

impl<'a> Rows<'a> {
    fn new(rest: &'a mut [f64], len: usize) -> Self {
        Self { rest, len }
    }
}

impl<'a> Iterator for Rows<'a> {
    type Item = &'a mut [f64];

    #[inline(always)]
    fn next(&mut self) -> Option<&'a mut [f64]> {
        let rest = core::mem::take(&mut self.rest);
        let (row, rest) = rest.split_at_mut_checked(self.len)?;
        self.rest = rest;
        Some(row)
    }
}

/// The body-frame torque of a load given in the lab frame (`lab`) or the body frame, at the
/// point's rotor `q`.
#[inline(always)]
fn body_torque(lab: bool, q: &Quaternion<f64>, torque: &Vector3<f64>) -> Vector3<f64> {
    if lab {
        rotate_inverse(q, torque)
    } else {
        *torque
    }
}

/// The first non-finite load, named as a force or a torque of particle `i` at `t`.
fn check_loads(function: &str, loads: &LoadsView<'_>, t: f64) -> Result<(), Failure> {
    for (i, (f, tau)) in loads.forces.iter().zip(loads.torques).enumerate() {
        for (what, v) in [("force", f), ("torque", tau)] {
            if !finite(v) {
                return Err(non_finite(function, what, i, t));
            }
        }
    }
    Ok(())
}

impl<K: RigidBodyMethod> Abi for Typed<K> {
    fn info(&self) -> LieodeMethodInfo {
        let info = self.method.info();
        LieodeMethodInfo {
            state_len: Self::STATE_LEN,
            start_evaluations: Self::STAGES,
            evaluations: info.evaluations,
            leapfrog_rotation: info.leapfrog,
            velocity_verlet_form: K::TORQUE_AT_END,
            renormalises: self.renormalise,
            order_rotor: info.order[0],
            order_omega: info.order[1],
        }
    }

    /// Stage 0: `begin` from the host's `(q_0, ω_0)`, the point `(start_rotor(q_0), ω_0)` into
    /// the host's arrays. Stage `s ≥ 1`: the method's start point `s` into the host's arrays.
    fn start_prepare(
        &self,
        stage: usize,
        t0: f64,
        dt: f64,
        arrays: View<'_>,
    ) -> Result<(), Failure> {
        const {
            assert!(
                !(K::TORQUE_AT_END && K::START_EVALUATIONS > 1),
                "the velocity Verlet form kicks with the last start evaluation's forces"
            )
        };
        let t = t0 + stage as f64 * dt;
        let mut cache: Cache<K> = None;
        for (i, p) in arrays.particles(Self::STATE_LEN).enumerate() {
            let (_, k) = self.kind(&mut cache, p.mass, p.inertia, dt, i)?;
            if stage == 0 {
                let (q0, w0) = (quat(p.q), vec3(p.w));
                let c = self.method.begin(k, &q0, &w0);
                let at = self.method.start_rotor(&q0);
                if !Self::SAVE && (c.q != at || c.omega != w0) {
                    return Err(Failure::internal(
                        "a method whose carried start differs from its start point keeps no copy",
                    ));
                }
                Self::save(p.row, &c);
                *p.q = quat_out(&at);
            } else {
                let c = Self::carried_saved(Self::SAVE, p.row, p.q, p.w, i)?;
                let at = self.method.start_point(k, &c, stage, dt);
                if !(finite(at.q.coords.as_slice()) && finite(at.omega.as_slice())) {
                    return Err(non_finite("lieode_start_prepare", METHOD_STATE, i, t));
                }
                (*p.q, *p.w) = (quat_out(&at.q), vec_out(&at.omega));
            }
        }
        Ok(())
    }

    /// The start evaluation `stage` absorbed; after the last, the carried state into the host's
    /// arrays and, in the leapfrog form, the velocity's half step back with the first forces.
    fn start_finish(
        &self,
        stage: usize,
        t0: f64,
        dt: f64,
        arrays: View<'_>,
        loads: LoadsView<'_>,
    ) -> Result<(), Failure> {
        let function = "lieode_start_finish";
        let t = t0 + stage as f64 * dt;
        check_loads(function, &loads, t)?;
        let last = stage + 1 == Self::STAGES;
        let mut cache: Cache<K> = None;
        let particles = arrays.particles(Self::STATE_LEN).zip(loads.rows());
        for (i, (p, (f, torque))) in particles.enumerate() {
            let (body, k) = self.kind(&mut cache, p.mass, p.inertia, dt, i)?;
            let mut c = Self::carried_saved(Self::SAVE, p.row, p.q, p.w, i)?;
            if stage < K::START_EVALUATIONS {
                let tau = body_torque(loads.lab, &quat(p.q), &vec3(torque));
                if !self.method.absorb_start(k, &mut c, stage, &tau, dt) {
                    return Err(non_finite(
                        function,
                        METHOD_STATE_HALF_STEP,
                        i,
                        t0 - 0.5 * dt,
                    ));
                }
            }
            if Self::FIRST_FORCE && stage == 0 {
                p.row[Self::FORCE_AT..Self::FORCE_AT + 3].copy_from_slice(f);
            }
            if last {
                if !K::TORQUE_AT_END {
                    let first = if Self::FIRST_FORCE {
                        let s = &p.row[Self::FORCE_AT..Self::FORCE_AT + 3];
                        Vector3::new(s[0], s[1], s[2])
                    } else {
                        vec3(f)
                    };
                    let new_v = vec3(p.v) - first * (0.5 * dt * body.inverse_mass());
                    if !finite(new_v.as_slice()) {
                        return Err(non_finite(
                            function,
                            METHOD_STATE_HALF_STEP,
                            i,
                            t0 - 0.5 * dt,
                        ));
                    }
                    *p.v = vec_out(&new_v);
                }
                c.extra.pack(&mut p.row[..Self::EXTRA]);
                (*p.q, *p.w) = (quat_out(&c.q), vec_out(&c.omega));
            } else {
                Self::save(p.row, &c);
            }
        }
        Ok(())
    }

    /// The velocity Verlet form's half kick and drift, then every particle's torque point into
    /// the host's arrays (the carried rotor and angular velocity kept in the row where they
    /// differ).
    fn prepare(
        &self,
        t: f64,
        dt: f64,
        arrays: View<'_>,
        forces: Option<&[[f64; 3]]>,
    ) -> Result<(), Failure> {
        // The policy as a constant of the loop, as in `finish`.
        if self.renormalise {
            self.prepare_with::<true>(t, dt, arrays, forces)
        } else {
            self.prepare_with::<false>(t, dt, arrays, forces)
        }
    }

    /// Every particle's rotation finished with its torque, and the translation's kick (and, in
    /// the leapfrog form, drift); the carried state back into the host's arrays.
    fn finish(
        &self,
        t: f64,
        dt: f64,
        arrays: View<'_>,
        loads: LoadsView<'_>,
    ) -> Result<(), Failure> {
        // The policy as a constant of the loop: with a run-time flag the two paths of the
        // rotor's normalisation merged through the stack, and the finiteness check's load of
        // the rotor then straddled the two stores (a store-forwarding stall, an eighth of the
        // call's time).
        if self.renormalise {
            self.finish_with::<true>(t, dt, arrays, loads)
        } else {
            self.finish_with::<false>(t, dt, arrays, loads)
        }
    }

    /// The synchronised rotor, velocity and angular velocity at `t_n` (leapfrog form: after
    /// `prepare`, with the loads there; velocity Verlet form: between steps, no loads).
    fn synchronise(
        &self,
        t: f64,
        dt: f64,
        arrays: View<'_>,
        loads: Option<LoadsView<'_>>,
        out: Synchronised<'_>,
    ) -> Result<(), Failure> {
        let function = "lieode_synchronise";
        let loads = match loads {
            Some(loads) => {
                check_loads(function, &loads, t)?;
                Some(loads)
            }
            None if K::TORQUE_AT_END => None,
            None => {
                return Err(Failure::new(
                    LieodeStatus::NullPointer,
                    format!(
                        "{function}: forces or torques is null; {} synchronises with the loads \
                         at the point of lieode_prepare",
                        self.method.info().name
                    ),
                ));
            }
        };
        let mut cache: Cache<K> = None;
        let outs =
            (out.rotors.iter_mut()).zip(out.velocities.iter_mut().zip(out.omegas.iter_mut()));
        for (i, (p, (oq, (ov, ow)))) in arrays.particles(Self::STATE_LEN).zip(outs).enumerate() {
            let (body, k) = self.kind(&mut cache, p.mass, p.inertia, dt, i)?;
            // Read only: the host's arrays stay as they are.
            let (q, w, v, row) = (&*p.q, &*p.w, &*p.v, &*p.row);
            let (v_n, omega, c) = match (K::TORQUE_AT_END, loads) {
                (false, Some(loads)) => {
                    let c = Self::carried_saved(!K::POINT_IS_CARRIED, row, q, w, i)?;
                    let f = vec3(&loads.forces[i]);
                    let v_n = vec3(v) + f * (0.5 * dt * body.inverse_mass());
                    // The point of the synchronisation (without normalisation, as
                    // `CatalogueSystem::state` takes it) is the one `lieode_prepare` wrote and
                    // the host evaluated its loads at: checked, so that a missing
                    // `lieode_prepare` (or a method whose point would depend on the
                    // normalisation) is an error, not a silently different `ω_n`.
                    let (_, at) = self.method.prepare(k, &c, false, dt);
                    if quat_out(&at.q) != *q || vec_out(&at.omega) != *w {
                        return Err(Failure::invalid(
                            function,
                            format!(
                                "particle {i}: the arrays do not hold the point of \
                                 lieode_prepare; in the leapfrog form call lieode_synchronise \
                                 after lieode_prepare of the step from t = {t:e}"
                            ),
                        ));
                    }
                    let tau = if K::SYNC_EVALUATES {
                        body_torque(loads.lab, &at.q, &vec3(&loads.torques[i]))
                    } else {
                        Vector3::zeros()
                    };
                    (v_n, self.method.sync(k, &c, &tau, dt), c)
                }
                _ => {
                    let c = Self::carried_host(row, q, w, i)?;
                    (vec3(v), self.method.sync(k, &c, &Vector3::zeros(), dt), c)
                }
            };
            if !(finite(c.q.coords.as_slice())
                && finite(v_n.as_slice())
                && finite(omega.as_slice()))
            {
                return Err(non_finite(function, "state", i, t));
            }
            (*oq, *ov, *ow) = (quat_out(&c.q), vec_out(&v_n), vec_out(&omega));
        }
        Ok(())
    }
}

impl<K: RigidBodyMethod> Typed<K> {
    /// [`Abi::finish`] with the normalisation policy `RENORMALISE`.
    fn finish_with<const RENORMALISE: bool>(
        &self,
        t: f64,
        dt: f64,
        arrays: View<'_>,
        loads: LoadsView<'_>,
    ) -> Result<(), Failure> {
        let function = "lieode_finish";

        let (t_loads, t_next) = if K::TORQUE_AT_END {
            (t + dt, t + dt)
        } else {
            (t, t + dt)
        };
        let mut cache: Cache<K> = None;
        let particles = arrays.particles(Self::STATE_LEN).zip(loads.rows());
        for (i, (p, (f, torque))) in particles.enumerate() {
            let (body, k) = self.kind(&mut cache, p.mass, p.inertia, dt, i)?;
            let mut c = Self::carried_saved(!K::POINT_IS_CARRIED, p.row, p.q, p.w, i)?;
            // Where the host's arrays hold the point `prepare` wrote, the methods whose pending
            // part is that point finish without computing it again (Johnson's RK4 rotor update
            // ran twice per step before).
            let host_point = TorquePoint {
                q: quat(p.q),
                omega: vec3(p.w),
            };
            let recovered = if K::POINT_IS_CARRIED {
                None
            } else {
                self.method.pending_from_point(&host_point)
            };
            let (pending, at) = match recovered {
                Some(pending) => (pending, host_point),
                None => self.method.prepare(k, &c, RENORMALISE, dt),
            };
            let (f, torque) = (vec3(f), vec3(torque));
            let tau = body_torque(loads.lab, &at.q, &torque);
            let rotation_finite =
                (self.method).finish(k, c.as_mut(), pending, &tau, RENORMALISE, dt);
            let (mut x_new, mut v_new) = (vec3(p.x), vec3(p.v));
            if K::TORQUE_AT_END {
                v_new += f * (0.5 * dt * body.inverse_mass());
            } else {
                v_new += f * (dt * body.inverse_mass());
                x_new += v_new * dt;
            }
            // One branch for the particle (`&`, not `&&`): 0·x is ±0 for finite x, NaN otherwise.
            let zero = |a: &Vector3<f64>| (a.x * 0.0 + a.y * 0.0) + a.z * 0.0;
            if !(rotation_finite & (zero(&x_new) + zero(&v_new) == 0.0)) {
                let at_finite = finite(at.q.coords.as_slice()) && finite(at.omega.as_slice());
                return Err(if !at_finite {
                    non_finite(function, METHOD_STATE, i, t_loads)
                } else if !finite(f.as_slice()) {
                    non_finite(function, "force", i, t_loads)
                } else if !finite(torque.as_slice()) {
                    non_finite(function, "torque", i, t_loads)
                } else {
                    non_finite(function, "state", i, t_next)
                });
            }
            (*p.x, *p.v) = (vec_out(&x_new), vec_out(&v_new));
            (*p.q, *p.w) = (quat_out(&c.q), vec_out(&c.omega));
            c.extra.pack(&mut p.row[..Self::EXTRA]);
        }
        Ok(())
    }

    /// [`Abi::prepare`] with the normalisation policy `RENORMALISE`.
    fn prepare_with<const RENORMALISE: bool>(
        &self,
        t: f64,
        dt: f64,
        arrays: View<'_>,
        forces: Option<&[[f64; 3]]>,
    ) -> Result<(), Failure> {
        let function = "lieode_prepare";
        if K::POINT_IS_CARRIED && !K::TORQUE_AT_END {
            // The point is the carried state and the translation waits for the loads: nothing
            // to do (no pass over the arrays).
            return Ok(());
        }
        let mut cache: Cache<K> = None;
        let n = arrays.mass.len();
        let no_forces = [[0.0; 3]; 0];
        let forces = forces.unwrap_or(&no_forces);
        if K::TORQUE_AT_END && forces.len() != n {
            return Err(Failure::new(
                LieodeStatus::NullPointer,
                format!(
                    "{function}: forces is null; {} kicks with the forces of the last evaluation",
                    self.method.info().name
                ),
            ));
        }
        for (i, p) in arrays.particles(Self::STATE_LEN).enumerate() {
            let (body, k) = self.kind(&mut cache, p.mass, p.inertia, dt, i)?;
            if K::TORQUE_AT_END {
                let f = vec3(&forces[i]);
                let new_v = vec3(p.v) + f * (0.5 * dt * body.inverse_mass());
                let new_x = vec3(p.x) + new_v * dt;
                if !(finite(new_v.as_slice()) && finite(new_x.as_slice())) {
                    return Err(non_finite(function, "state", i, t + dt));
                }
                (*p.x, *p.v) = (vec_out(&new_x), vec_out(&new_v));
            }
            if !K::POINT_IS_CARRIED {
                let c = Self::carried_host(p.row, p.q, p.w, i)?;
                let (_, at) = self.method.prepare(k, &c, RENORMALISE, dt);
                Self::save(p.row, &c);
                (*p.q, *p.w) = (quat_out(&at.q), vec_out(&at.omega));
            }
        }
        Ok(())
    }
}
