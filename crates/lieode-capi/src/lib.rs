//! # lieode-capi: the rigid-body catalogue behind a C interface
//!
//! For host codes — LAMMPS, LIGGGHTS, MercuryDPM — that own their particle arrays, migrate
//! particles between MPI ranks and compute the forces and torques themselves. The host creates a
//! method of the catalogue by name ([`lieode_method_new`]; the names are
//! [`lieode::rotation::catalogue::MANY_BODY_NAMES`]) and steps its own arrays in place:
//!
//! ```text
//! start:  for s in 0..info.start_evaluations:
//!             lieode_start_prepare(m, s, t0, dt, &particles)   // the point of evaluation s
//!             host: forces, torques at t0 + s·dt from its arrays
//!             lieode_start_finish(m, s, t0, dt, &particles, forces, torques, frame)
//! step n (t = t0 + n·dt):
//!             lieode_prepare(m, t, dt, &particles, forces)        // kick–drift to the load point
//!             host: forces, torques from its arrays (at t, or t + dt in the velocity Verlet form)
//!             [lieode_synchronise(...) here in the leapfrog form, for output at t]
//!             lieode_finish(m, t, dt, &particles, forces, torques, frame)
//! ```
//!
//! Each call is the per-particle arithmetic of [`lieode::system::CatalogueSystem`] — the same
//! operations in the same order, so the host's arrays after `n` steps equal the system's
//! carried arrays ([`lieode::system::CatalogueSystem::arrays`]) bit for bit (tested for every
//! many-body method, both torque frames, with the particles permuted between steps).
//!
//! **Nothing of a particle stays inside the library between calls.** What a method carries
//! beyond the host's rotor and angular velocity (Fincham's and Johnson's angular momentum `L`,
//! Velocity Verlet's `τ_n`, MercuryDPM's matrix and lab angular velocity, SPIRAL–Magnus's
//! torque history, and during a step the carried rotor and angular velocity where the host's
//! arrays hold the torque point) lives in the host's state array,
//! [`LieodeMethodInfo::state_len`] doubles per particle, which the host migrates with the
//! particle. A handle holds only the method's definition.
//!
//! **Arrays** ([`LieodeParticles`]): `n` particles, each array contiguous, row `i` for particle
//! `i`: mass (`n`), principal moments of inertia (`n × 3`, body frame = principal axes),
//! positions and velocities (`n × 3`, lab frame), rotors (`n × 4`, body → lab, **scalar first**
//! `(w, x, y, z)` as LAMMPS stores them), angular velocities (`n × 3`, **body frame**, the one the
//! method carries: `ω_{n−½}` for the leapfrog rotations, [`LieodeMethodInfo::leapfrog_rotation`]),
//! state (`n × state_len`). Forces are in the lab frame; torques in the lab or the body frame
//! ([`LIEODE_FRAME_LAB`], [`LIEODE_FRAME_BODY`]). The host's velocities are `v_{n−½}` between
//! steps in the leapfrog form and `v_n` in the velocity Verlet form
//! ([`LieodeMethodInfo::velocity_verlet_form`]); [`lieode_synchronise`] gives `v_n`, `ω_n` and
//! `q_n`. The rotor is normalised as the method's default policy says, or as the host chose
//! with [`lieode_method_new_with_renormalisation`] ([`LieodeMethodInfo::renormalises`]).
//!
//! **What the forces see** (the point written by `lieode_prepare` into the host's arrays): in
//! the leapfrog form `(t_n, x_n, v_{n−½}, q_n, ω*)`, in the velocity Verlet form
//! `(t_{n+1}, x_{n+1}, v_{n+½}, q_{n+1}, ω*)`, with `ω*` the method's angular velocity there
//! (`ω_{n−½}` for the leapfrog rotations, `ω_n` for SPIRAL, Direct Euler and Buss, `ω_{n+½}`
//! for Velocity Verlet, `J⁻¹R(q_{n+1})ᵀL_n` for Johnson; SPIRAL paper, Table 1 and App. B).
//!
//! **Errors.** Every function returns a [`LieodeStatus`]; the message of the last failure on
//! the calling thread is [`lieode_last_error_message`], naming the particle index and the time
//! for non-finite loads or states. A failure part way leaves the particles before the named one
//! updated and the rest as they were: the host should stop. No Rust panic crosses the boundary
//! (every entry point catches unwinding and reports [`LieodeStatus::Internal`]).
//!
//! **Threads.** A handle is immutable after creation: one handle may be used from any number of
//! threads at once, each call on arrays the caller owns (e.g. one call per thread on disjoint
//! slices of the particles: particles are independent). The interface starts no threads.

#![deny(missing_docs)]
#![warn(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod failure;
mod frame;
mod info;
mod particles;
mod renormalise;
mod status;
mod typed;

use std::ffi::{CStr, CString, c_char};

use lieode::Result as LieodeResult;
use lieode::rotation::{Renormalisation, RigidBody, RigidBodyMethod, SingleBody, catalogue};

use failure::{Failure, guard};
use typed::{Abi, LoadsView, Synchronised, Typed, View};

pub use failure::lieode_last_error_message;
pub use frame::{LIEODE_FRAME_BODY, LIEODE_FRAME_LAB};
pub use info::LieodeMethodInfo;
pub use particles::LieodeParticles;
pub use renormalise::{
    LIEODE_RENORMALISE_ALWAYS, LIEODE_RENORMALISE_DEFAULT, LIEODE_RENORMALISE_NEVER,
};
pub use status::LieodeStatus;

/// A method of the catalogue (opaque): created by [`lieode_method_new`] or
/// [`lieode_method_new_with_renormalisation`], freed by [`lieode_method_free`], immutable in
/// between.
pub struct LieodeMethod {
    abi: Box<dyn Abi>,
    name: CString,
}

/// Finds the many-body method `name` of the catalogue, with the normalisation `policy` (`None`:
/// its default) that the host's `renormalise` asked for.
struct Find<'a> {
    function: &'a str,
    name: &'a str,
    renormalise: i32,
    policy: Option<Renormalisation>,
    found: Option<Result<Box<dyn Abi>, Failure>>,
}

impl catalogue::MethodVisitor for Find<'_> {
    fn visit<K: RigidBodyMethod>(
        &mut self,
        make: fn(RigidBody) -> SingleBody<K>,
    ) -> LieodeResult<()> {
        let single = make(RigidBody::new([1.0; 3])?);
        let info = single.method().info();
        if info.name != self.name {
            return Ok(());
        }
        // The policy checked as `SingleBody::with_renormalisation` checks it, so that the
        // interface accepts exactly the policies the Rust steppers do.
        let policy = match self.policy {
            None => info.default_renormalisation,
            Some(policy) => match single.clone().with_renormalisation(policy) {
                Ok(_) => policy,
                Err(_) => {
                    self.found = Some(Err(Failure::invalid(
                        self.function,
                        format!(
                            "renormalise = {}: {} normalises as part of the method; expected \
                             LIEODE_RENORMALISE_DEFAULT ({LIEODE_RENORMALISE_DEFAULT})",
                            self.renormalise, info.name
                        ),
                    )));
                    return Ok(());
                }
            },
        };
        // The interface keeps no step count, so only the policies that decide every step alike.
        let renormalise = match policy {
            Renormalisation::Never => false,
            Renormalisation::EveryStep | Renormalisation::Every(1) => true,
            Renormalisation::Every(_) => return Ok(()),
        };
        self.found = Some(Ok(Box::new(Typed {
            method: single.method().clone(),
            renormalise,
        })));
        Ok(())
    }
}

/// The many-body method of the catalogue called `name` (NUL-terminated: `"spiral_leapfrog"`,
/// `"spiral"`, `"spiral_omelyan"`, `"omelyan"`, `"fincham"`, `"velocity_verlet"`,
/// `"direct_euler"`, `"buss"`, `"buss16"`, `"johnson"`, `"mercurydpm"`, `"spiral_magnus"`;
/// SPIRAL paper App. B and `lieode::rotation::catalogue`), with its default normalisation
/// policy; null on failure, with the status in `*status` if `status` is not null.
///
/// # Safety
/// `name` is null or a NUL-terminated string; `status` is null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn lieode_method_new(
    name: *const c_char,
    status: *mut LieodeStatus,
) -> *mut LieodeMethod {
    // SAFETY: the same contract.
    unsafe {
        method_new(
            "lieode_method_new",
            name,
            LIEODE_RENORMALISE_DEFAULT,
            status,
        )
    }
}

/// [`lieode_method_new`] with the normalisation policy `renormalise` chosen by the host:
/// [`LIEODE_RENORMALISE_DEFAULT`] (the method's own, as [`lieode_method_new`]),
/// [`LIEODE_RENORMALISE_ALWAYS`] (`q ← q/|q|` after every step) or [`LIEODE_RENORMALISE_NEVER`];
/// [`LieodeMethodInfo::renormalises`] reports the choice. The arithmetic is that of
/// `lieode::system::CatalogueSystem` built from `SingleBody::with_renormalisation` with the
/// same policy, bit for bit.
///
/// # Errors
/// [`LieodeStatus::NullPointer`] for a null `name`, [`LieodeStatus::InvalidArgument`] naming
/// `renormalise` for another value or for a policy the method does not take (`"mercurydpm"`
/// normalises as part of the method: only [`LIEODE_RENORMALISE_DEFAULT`]),
/// [`LieodeStatus::UnknownMethod`].
///
/// # Safety
/// As [`lieode_method_new`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn lieode_method_new_with_renormalisation(
    name: *const c_char,
    renormalise: i32,
    status: *mut LieodeStatus,
) -> *mut LieodeMethod {
    let function = "lieode_method_new_with_renormalisation";
    // SAFETY: the same contract.
    unsafe { method_new(function, name, renormalise, status) }
}

/// The method `name` with the policy `renormalise`, for the entry point `function`.
///
/// # Safety
/// The contract of [`lieode_method_new`].
unsafe fn method_new(
    function: &str,
    name: *const c_char,
    renormalise: i32,
    status: *mut LieodeStatus,
) -> *mut LieodeMethod {
    let mut handle: *mut LieodeMethod = core::ptr::null_mut();
    let result = guard(function, || {
        if name.is_null() {
            return Err(Failure::null(function, "name"));
        }
        let policy = renormalise::policy(function, renormalise)?;
        // SAFETY: a non-null NUL-terminated string, by the contract.
        let c_name = unsafe { CStr::from_ptr(name) };
        let unknown = || {
            Failure::new(
                LieodeStatus::UnknownMethod,
                format!(
                    "{function}: unknown method {c_name:?}; expected one of {:?}",
                    catalogue::MANY_BODY_NAMES
                ),
            )
        };
        let text = c_name.to_str().map_err(|_| unknown())?;
        let mut find = Find {
            function,
            name: text,
            renormalise,
            policy,
            found: None,
        };
        catalogue::visit_many_bodies(&mut find)
            .map_err(|e| Failure::internal(&format!("{function}: {e}")))?;
        let abi = find.found.ok_or_else(unknown)??;
        handle = Box::into_raw(Box::new(LieodeMethod {
            abi,
            name: c_name.to_owned(),
        }));
        Ok(())
    });
    if !status.is_null() {
        // SAFETY: writable by the contract.
        unsafe { *status = result };
    }
    handle
}

/// Frees a method made by [`lieode_method_new`] or [`lieode_method_new_with_renormalisation`]
/// (nothing for null).
///
/// # Safety
/// `method` is null or a handle from [`lieode_method_new`] (or
/// [`lieode_method_new_with_renormalisation`]) not yet freed, used by no other
/// thread.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn lieode_method_free(method: *mut LieodeMethod) {
    if !method.is_null() {
        let _ = guard("lieode_method_free", || {
            // SAFETY: from `Box::into_raw` in `method_new`, by the contract.
            drop(unsafe { Box::from_raw(method) });
            Ok(())
        });
    }
}

/// The method's catalogue name (NUL-terminated, owned by the handle); null for a null handle.
///
/// # Safety
/// `method` is null or a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn lieode_method_name(method: *const LieodeMethod) -> *const c_char {
    // SAFETY: null or live, by the contract.
    match unsafe { method.as_ref() } {
        Some(m) => m.name.as_ptr(),
        None => core::ptr::null(),
    }
}

/// The method's [`LieodeMethodInfo`] into `*info`.
///
/// # Safety
/// `method` is null or a live handle; `info` is null or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn lieode_method_info(
    method: *const LieodeMethod,
    info: *mut LieodeMethodInfo,
) -> LieodeStatus {
    let function = "lieode_method_info";
    guard(function, || {
        // SAFETY: null or live, by the contract.
        let m = unsafe { method.as_ref() }.ok_or_else(|| Failure::null(function, "method"))?;
        if info.is_null() {
            return Err(Failure::null(function, "info"));
        }
        // SAFETY: non-null and writable by the contract.
        unsafe { *info = m.abi.info() };
        Ok(())
    })
}

/// A slice of `n` rows of `N` doubles at `ptr`, checked for null and alignment.
///
/// # Safety
/// A non-null `ptr` points to `n·N` doubles valid for the call, not written through another
/// slice at the same time.
unsafe fn rows<'a, const N: usize>(
    function: &str,
    what: &str,
    ptr: *const f64,
    n: usize,
) -> Result<&'a [[f64; N]], Failure> {
    if ptr.is_null() {
        return Err(Failure::null(function, what));
    }
    if !ptr.cast::<[f64; N]>().is_aligned() {
        return Err(Failure::invalid(function, format!("{what} is not aligned")));
    }
    // SAFETY: non-null, aligned, `n` rows by the contract.
    Ok(unsafe { core::slice::from_raw_parts(ptr.cast::<[f64; N]>(), n) })
}

/// [`rows`], writable.
///
/// # Safety
/// As [`rows`], and not read or written through another slice at the same time.
unsafe fn rows_mut<'a, const N: usize>(
    function: &str,
    what: &str,
    ptr: *mut f64,
    n: usize,
) -> Result<&'a mut [[f64; N]], Failure> {
    // SAFETY: the checks of `rows`; exclusive by the contract.
    unsafe { rows::<N>(function, what, ptr, n)? };
    Ok(unsafe { core::slice::from_raw_parts_mut(ptr.cast::<[f64; N]>(), n) })
}

/// The handle, the particles' arrays and the step size of a call, checked.
///
/// # Safety
/// The contract of the calls taking them.
unsafe fn arrays<'a>(
    function: &str,
    method: *const LieodeMethod,
    particles: *const LieodeParticles,
    t: f64,
    dt: f64,
) -> Result<(&'a LieodeMethod, View<'a>), Failure> {
    // SAFETY: null or live, by the contract.
    let m = unsafe { method.as_ref() }.ok_or_else(|| Failure::null(function, "method"))?;
    // SAFETY: null or readable, by the contract.
    let p = unsafe { particles.as_ref() }.ok_or_else(|| Failure::null(function, "particles"))?;
    let n = p.n;
    if n == 0 {
        return Err(Failure::invalid(
            function,
            "n is 0; expected at least one particle",
        ));
    }
    if !(dt.is_finite() && dt > 0.0) {
        return Err(Failure::invalid(
            function,
            format!("dt = {dt:e}; expected a finite positive step"),
        ));
    }
    if !t.is_finite() {
        return Err(Failure::invalid(
            function,
            format!("t = {t:e}; expected a finite time"),
        ));
    }
    let len = m.abi.info().state_len;
    let state_len = n
        .checked_mul(len)
        .ok_or_else(|| Failure::invalid(function, "n × state_len overflows"))?;
    // SAFETY: the arrays' contract (`n` rows each, no overlap) is the caller's.
    let view = unsafe {
        View {
            mass: rows::<1>(function, "mass", p.mass, n)?.as_flattened(),
            inertia: rows(function, "inertia", p.inertia, n)?,
            positions: rows_mut(function, "positions", p.positions, n)?,
            velocities: rows_mut(function, "velocities", p.velocities, n)?,
            rotors: rows_mut(function, "rotors", p.rotors, n)?,
            omegas: rows_mut(function, "omegas", p.omegas, n)?,
            state: if len == 0 {
                &mut []
            } else {
                rows_mut::<1>(function, "state", p.state, state_len)?.as_flattened_mut()
            },
        }
    };
    Ok((m, view))
}

/// Runs `body` on the checked handle and arrays of a call to `function`, inside [`guard`].
///
/// # Safety
/// The contract of the calls taking them.
unsafe fn on_arrays(
    function: &str,
    method: *const LieodeMethod,
    particles: *const LieodeParticles,
    t: f64,
    dt: f64,
    body: impl FnOnce(&LieodeMethod, View<'_>) -> Result<(), Failure>,
) -> LieodeStatus {
    guard(function, || {
        // SAFETY: the caller's contract.
        let (m, view) = unsafe { arrays(function, method, particles, t, dt)? };
        body(m, view)
    })
}

/// The loads of a call, checked.
///
/// # Safety
/// `forces` and `torques` are null or point to `n × 3` doubles each.
unsafe fn loads<'a>(
    function: &str,
    n: usize,
    forces: *const f64,
    torques: *const f64,
    frame: i32,
) -> Result<LoadsView<'a>, Failure> {
    let lab = frame::is_lab(function, frame)?;
    // SAFETY: `n` rows each, by the contract.
    unsafe {
        Ok(LoadsView {
            forces: rows(function, "forces", forces, n)?,
            torques: rows(function, "torques", torques, n)?,
            lab,
        })
    }
}

/// The stage of a start call, checked.
fn stage_of(function: &str, m: &LieodeMethod, stage: usize) -> Result<(), Failure> {
    let stages = m.abi.info().start_evaluations;
    if stage < stages {
        Ok(())
    } else {
        Err(Failure::invalid(
            function,
            format!("stage = {stage}; expected below start_evaluations = {stages}"),
        ))
    }
}

/// Start evaluation `stage` (`0 ≤ stage < start_evaluations`), first half: writes into the
/// host's rotors and angular velocities the point where the host evaluates the loads, at time
/// `t0 + stage·dt` with the positions and velocities of `t0`.
///
/// Stage 0 takes the host's initial state `(x_0, v_0, q_0, ω_0)` (synchronised; `ω_0` in the
/// body frame) and writes the method's start into the state rows; the start rotor is `q_0`
/// (normalised by Fincham, Johnson and MercuryDPM). Stage 1 of SPIRAL–Magnus is its predictor
/// `(q̃_1, ω̃_1)`.
///
/// # Errors
/// [`LieodeStatus::NullPointer`], [`LieodeStatus::InvalidArgument`] (see the status), and
/// [`LieodeStatus::NonFinite`] for a non-finite predictor.
///
/// # Safety
/// `method` is null or a live handle; `particles` is null or points to arrays as
/// [`LieodeParticles`] describes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn lieode_start_prepare(
    method: *const LieodeMethod,
    stage: usize,
    t0: f64,
    dt: f64,
    particles: *const LieodeParticles,
) -> LieodeStatus {
    let function = "lieode_start_prepare";
    let body = |m: &LieodeMethod, view: View<'_>| {
        stage_of(function, m, stage)?;
        m.abi.start_prepare(stage, t0, dt, view)
    };
    // SAFETY: the contract.
    unsafe { on_arrays(function, method, particles, t0, dt, body) }
}

/// Start evaluation `stage`, second half: takes the host's loads at the point of
/// [`lieode_start_prepare`] (forces lab frame, torques in `frame`). After the last stage the
/// host's arrays hold the method's carried state at `t_0` and, in the leapfrog form, the
/// velocities `v_{−½} = v_0 − Δt/2·F_0/m` (with the loads of stage 0).
///
/// # Errors
/// As [`lieode_start_prepare`]; [`LieodeStatus::NonFinite`] naming the first non-finite force
/// or torque (particle and time), or a non-finite half step back.
///
/// # Safety
/// As [`lieode_start_prepare`]; `forces` and `torques` are null or point to `n × 3` doubles.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn lieode_start_finish(
    method: *const LieodeMethod,
    stage: usize,
    t0: f64,
    dt: f64,
    particles: *const LieodeParticles,
    forces: *const f64,
    torques: *const f64,
    frame: i32,
) -> LieodeStatus {
    let function = "lieode_start_finish";
    let body = |m: &LieodeMethod, view: View<'_>| {
        stage_of(function, m, stage)?;
        // SAFETY: the contract.
        let loads = unsafe { loads(function, view.mass.len(), forces, torques, frame)? };
        m.abi.start_finish(stage, t0, dt, view, loads)
    };
    // SAFETY: the contract.
    unsafe { on_arrays(function, method, particles, t0, dt, body) }
}

/// A step from `t` to `t + dt`, first half: in the velocity Verlet form the half kick and drift
/// `v_{n+½} = v_n + Δt/2·F_n/m`, `x_{n+1} = x_n + Δt·v_{n+½}` (with `forces`, the last
/// evaluation's `F_n`; ignored and may be null in the leapfrog form), then every particle's
/// torque point written into the host's rotors and angular velocities (the carried values kept
/// in the state rows where they differ; nothing at all, and no array read, for the leapfrog-form
/// methods whose point is their carried state). The host then evaluates its loads from its arrays, at
/// `t` in the leapfrog form and `t + dt` in the velocity Verlet form, and calls
/// [`lieode_finish`] (which must follow before the next `lieode_prepare`).
///
/// # Errors
/// As [`lieode_start_prepare`]; [`LieodeStatus::NullPointer`] for null `forces` in the
/// velocity Verlet form; [`LieodeStatus::NonFinite`] for a non-finite drift.
///
/// # Safety
/// As [`lieode_start_finish`] (`forces` only).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn lieode_prepare(
    method: *const LieodeMethod,
    t: f64,
    dt: f64,
    particles: *const LieodeParticles,
    forces: *const f64,
) -> LieodeStatus {
    let function = "lieode_prepare";
    let body = |m: &LieodeMethod, view: View<'_>| {
        let forces = if forces.is_null() {
            None
        } else {
            // SAFETY: the contract.
            Some(unsafe { rows::<3>(function, "forces", forces, view.mass.len())? })
        };
        m.abi.prepare(t, dt, view, forces)
    };
    // SAFETY: the contract.
    unsafe { on_arrays(function, method, particles, t, dt, body) }
}

/// A step from `t` to `t + dt`, second half: every particle's rotation finished with its
/// torque (the SPIRAL paper's update of `(q, ω)` for the method), then the translation: in the
/// leapfrog form `v_{n+½} = v_{n−½} + Δt·F_n/m`, `x_{n+1} = x_n + Δt·v_{n+½}`; in the velocity
/// Verlet form `v_{n+1} = v_{n+½} + Δt/2·F_{n+1}/m`. The host's arrays then hold the carried
/// state at `t + dt`.
///
/// # Errors
/// As [`lieode_start_finish`]: [`LieodeStatus::NonFinite`] names the particle and the time of
/// a non-finite force, torque or new state.
///
/// # Safety
/// As [`lieode_start_finish`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn lieode_finish(
    method: *const LieodeMethod,
    t: f64,
    dt: f64,
    particles: *const LieodeParticles,
    forces: *const f64,
    torques: *const f64,
    frame: i32,
) -> LieodeStatus {
    let function = "lieode_finish";
    let body = |m: &LieodeMethod, view: View<'_>| {
        // SAFETY: the contract.
        let loads = unsafe { loads(function, view.mass.len(), forces, torques, frame)? };
        m.abi.finish(t, dt, view, loads)
    };
    // SAFETY: the contract.
    unsafe { on_arrays(function, method, particles, t, dt, body) }
}

/// The synchronised state at `t` into the caller's arrays `out_rotors` (`n × 4`),
/// `out_velocities` and `out_omegas` (`n × 3`, body frame): `q_n`, `v_n` and `ω_n`, the host's
/// arrays unchanged (the positions are `x_n`).
///
/// In the **leapfrog form** call it after [`lieode_prepare`] of the step from `t`, with that
/// step's loads: `v_n = v_{n−½} + Δt/2·F_n/m` and the method's `ω_n` (e.g. SPIRAL leapfrog's
/// half kick, Omelyan's, Fincham's `J⁻¹R(q_n)ᵀ(L_{n−½} + Δt/2·τ_n)`); the step may then be
/// finished as usual. In the **velocity Verlet form** call it between steps (after
/// [`lieode_start_finish`] or [`lieode_finish`]); `forces` and `torques` may be null.
///
/// # Errors
/// As [`lieode_finish`]; [`LieodeStatus::NullPointer`] for null loads in the leapfrog form or
/// a null output array.
///
/// # Safety
/// As [`lieode_finish`]; the output arrays are null or point to writable rows that overlap
/// nothing else.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn lieode_synchronise(
    method: *const LieodeMethod,
    t: f64,
    dt: f64,
    particles: *const LieodeParticles,
    forces: *const f64,
    torques: *const f64,
    frame: i32,
    out_rotors: *mut f64,
    out_velocities: *mut f64,
    out_omegas: *mut f64,
) -> LieodeStatus {
    let function = "lieode_synchronise";
    let body = |m: &LieodeMethod, view: View<'_>| {
        let n = view.mass.len();
        let loads = if forces.is_null() && torques.is_null() {
            None
        } else {
            // SAFETY: the contract.
            Some(unsafe { loads(function, n, forces, torques, frame)? })
        };
        // SAFETY: the contract.
        let out = unsafe {
            Synchronised {
                rotors: rows_mut(function, "out_rotors", out_rotors, n)?,
                velocities: rows_mut(function, "out_velocities", out_velocities, n)?,
                omegas: rows_mut(function, "out_omegas", out_omegas, n)?,
            }
        };
        m.abi.synchronise(t, dt, view, loads, out)
    };
    // SAFETY: the contract.
    unsafe { on_arrays(function, method, particles, t, dt, body) }
}
