//! The interface's errors: a status per call, the message of the thread's last failure naming
//! the argument, or the particle and the time.

mod common;

use std::ffi::CStr;
use std::ptr::{null, null_mut};

use common::{Host, Method, last_error, ok};
use lieode_capi::*;

/// Two spheres at rest, started with the method `name`.
fn started(name: &str) -> (Method, Host) {
    let m = Method::new(name);
    let info = m.info();
    let mut host = Host {
        id: vec![0, 1, 2],
        mass: vec![1.0; 3],
        inertia: vec![[0.4, 0.5, 0.6]; 3],
        x: vec![[0.0; 3]; 3],
        v: vec![[0.0; 3]; 3],
        q: vec![[1.0, 0.0, 0.0, 0.0]; 3],
        w: vec![[0.1, 0.2, 0.3]; 3],
        state: vec![0.0; 3 * info.state_len],
        state_len: info.state_len,
        forces: vec![[0.0; 3]; 3],
        torques: vec![[0.0; 3]; 3],
    };
    for stage in 0..info.start_evaluations {
        host.start_prepare(&m, stage, 0.0, 0.1);
        host.start_finish(&m, stage, 0.0, 0.1, LIEODE_FRAME_BODY);
    }
    (m, host)
}

#[test]
fn names_null_and_unknown() {
    let mut status = LieodeStatus::Ok;
    // SAFETY: a null name is the error under test.
    let m = unsafe { lieode_method_new(null(), &mut status) };
    assert!(m.is_null());
    assert_eq!(status, LieodeStatus::NullPointer);
    assert_eq!(last_error(), "lieode_method_new: name is null");

    // SAFETY: a NUL-terminated name, a null status (allowed).
    let m = unsafe { lieode_method_new(c"nonsense".as_ptr(), null_mut()) };
    assert!(m.is_null());
    let message = last_error();
    assert!(
        message.starts_with(
            "lieode_method_new: unknown method \"nonsense\"; expected one of [\"spiral_leapfrog\""
        ),
        "{message}"
    );

    // SAFETY: null handles are errors, not crashes; freeing null is nothing.
    unsafe {
        assert!(lieode_method_name(null()).is_null());
        lieode_method_free(null_mut());
        let mut info = Method::new("spiral").info();
        assert_eq!(
            lieode_method_info(null(), &mut info),
            LieodeStatus::NullPointer
        );
        assert_eq!(last_error(), "lieode_method_info: method is null");
    }
    let m = Method::new("fincham");
    // SAFETY: a live handle.
    let name = unsafe { CStr::from_ptr(lieode_method_name(m.0)) };
    assert_eq!(name.to_str(), Ok("fincham"));
}

#[test]
fn the_rows_of_state_per_method() {
    let lens: Vec<(&str, usize)> = lieode::rotation::catalogue::MANY_BODY_NAMES
        .iter()
        .map(|name| (*name, Method::new(name).info().state_len))
        .collect();
    assert_eq!(
        lens,
        [
            ("spiral_leapfrog", 0),
            ("spiral", 0),
            ("spiral_omelyan", 0),
            ("omelyan", 0),
            ("fincham", 10),
            ("velocity_verlet", 10),
            ("direct_euler", 0),
            ("buss", 3),
            ("buss16", 3),
            ("johnson", 10),
            ("mercurydpm", 12),
            ("spiral_magnus", 20),
        ]
    );
}

#[test]
fn bad_arguments_name_themselves() {
    let (m, mut host) = started("spiral_leapfrog");
    let mut p = host.particles();
    // SAFETY: every pointer is valid or null, as each case says.
    unsafe {
        assert_eq!(
            lieode_prepare(m.0, 0.0, 0.1, null(), null()),
            LieodeStatus::NullPointer
        );
        assert_eq!(last_error(), "lieode_prepare: particles is null");
        p.n = 0;
        assert_eq!(
            lieode_prepare(m.0, 0.0, 0.1, &p, null()),
            LieodeStatus::InvalidArgument
        );
        assert_eq!(
            last_error(),
            "lieode_prepare: n is 0; expected at least one particle"
        );
        p.n = 3;
        let good = p;
        p.positions = null_mut();
        assert_eq!(
            lieode_prepare(m.0, 0.0, 0.1, &p, null()),
            LieodeStatus::NullPointer
        );
        assert_eq!(last_error(), "lieode_prepare: positions is null");
        p = good;
        for dt in [0.0, -0.1, f64::NAN, f64::INFINITY] {
            assert_eq!(
                lieode_prepare(m.0, 0.0, dt, &p, null()),
                LieodeStatus::InvalidArgument
            );
            assert!(
                last_error().starts_with("lieode_prepare: dt = "),
                "{}",
                last_error()
            );
        }
        assert_eq!(
            lieode_prepare(m.0, f64::NAN, 0.1, &p, null()),
            LieodeStatus::InvalidArgument
        );
        assert_eq!(
            last_error(),
            "lieode_prepare: t = NaN; expected a finite time"
        );
        let (f, tau) = (host.forces.as_ptr().cast(), host.torques.as_ptr().cast());
        assert_eq!(
            lieode_finish(m.0, 0.0, 0.1, &p, f, tau, 7),
            LieodeStatus::InvalidArgument
        );
        assert_eq!(
            last_error(),
            "lieode_finish: frame = 7; expected LIEODE_FRAME_BODY (0) or LIEODE_FRAME_LAB (1)"
        );
        assert_eq!(
            lieode_finish(m.0, 0.0, 0.1, &p, f, null(), 0),
            LieodeStatus::NullPointer
        );
        assert_eq!(last_error(), "lieode_finish: torques is null");
        assert_eq!(
            lieode_start_prepare(m.0, 1, 0.0, 0.1, &p),
            LieodeStatus::InvalidArgument
        );
        assert_eq!(
            last_error(),
            "lieode_start_prepare: stage = 1; expected below start_evaluations = 1"
        );
        let out = [[0.0f64; 3]; 3].as_mut_ptr().cast();
        let status = lieode_synchronise(m.0, 0.0, 0.1, &p, null(), null(), 0, out, out, out);
        assert_eq!(status, LieodeStatus::NullPointer);
        assert!(last_error().contains("spiral_leapfrog synchronises with the loads"));
    }
    // A mass that is not a body's names the particle (SPIRAL leapfrog's prepare reads no
    // array: its finish checks).
    host.mass[1] = -1.0;
    let status = host.try_finish(&m, 0.0, 0.1, LIEODE_FRAME_BODY);
    assert_eq!(status, LieodeStatus::InvalidArgument);
    assert!(
        last_error().starts_with("lieode_finish: particle 1: mass or inertia: "),
        "{}",
        last_error()
    );
}

#[test]
fn the_velocity_verlet_form_needs_the_last_forces() {
    let (m, mut host) = started("velocity_verlet");
    let p = host.particles();
    // SAFETY: the host's arrays, null forces (the error).
    let status = unsafe { lieode_prepare(m.0, 0.0, 0.1, &p, null()) };
    assert_eq!(status, LieodeStatus::NullPointer);
    assert_eq!(
        last_error(),
        "lieode_prepare: forces is null; velocity_verlet kicks with the forces of the last evaluation"
    );
}

#[test]
fn a_non_finite_load_names_the_particle_and_the_time() {
    for name in ["spiral_leapfrog", "fincham", "johnson", "spiral_magnus"] {
        let (m, mut host) = started(name);
        let t_loads = if m.info().velocity_verlet_form {
            0.30000000000000004
        } else {
            0.2
        };
        host.prepare(&m, 0.2, 0.1);
        let before = host.clone();
        host.forces[2][1] = f64::NAN;
        let status = host.try_finish(&m, 0.2, 0.1, 0);
        assert_eq!(status, LieodeStatus::NonFinite, "{name}");
        assert_eq!(
            last_error(),
            format!("lieode_finish: non-finite force of particle 2 at t = {t_loads:e}"),
        );
        // The particles before it are updated, it and the rest are not.
        assert_eq!(host.q[2], before.q[2], "{name}");
        assert_eq!(host.x[2], before.x[2], "{name}");
        host.forces[2][1] = 0.0;
        host.torques[1][0] = f64::INFINITY;
        let status = host.try_start_finish(&m, 0, 0.5, 0.1, 1);
        assert_eq!(status, LieodeStatus::NonFinite, "{name}");
        assert_eq!(
            last_error(),
            "lieode_start_finish: non-finite torque of particle 1 at t = 5e-1"
        );
    }
}

#[test]
fn the_last_message_is_per_thread() {
    let mut status = LieodeStatus::Ok;
    // SAFETY: a null name is the error under test.
    unsafe { lieode_method_new(null(), &mut status) };
    let other = std::thread::spawn(|| {
        let before = last_error();
        // SAFETY: a valid name.
        unsafe { lieode_method_new(c"nonsense".as_ptr(), null_mut()) };
        (before, last_error())
    })
    .join()
    .expect("the thread");
    assert_eq!(other.0, "");
    assert!(other.1.contains("nonsense"));
    assert_eq!(last_error(), "lieode_method_new: name is null");
    ok(LieodeStatus::Ok);
}

#[test]
fn the_leapfrog_form_synchronises_after_prepare() {
    let (m, mut host) = started("fincham");
    host.prepare(&m, 0.0, 0.1);
    host.finish(&m, 0.0, 0.1, LIEODE_FRAME_BODY);
    let n = host.len();
    let (mut q, mut v, mut w) = (vec![[0.0; 4]; n], vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
    let p = host.particles();
    // SAFETY: the host's arrays and the outputs.
    let status = unsafe {
        lieode_synchronise(
            m.0,
            0.1,
            0.1,
            &p,
            host.forces.as_ptr().cast(),
            host.torques.as_ptr().cast(),
            LIEODE_FRAME_BODY,
            q.as_mut_ptr().cast(),
            v.as_mut_ptr().cast(),
            w.as_mut_ptr().cast(),
        )
    };
    assert_eq!(status, LieodeStatus::InvalidArgument);
    assert_eq!(
        last_error(),
        "lieode_synchronise: particle 0: the arrays do not hold the point of lieode_prepare; in \
         the leapfrog form call lieode_synchronise after lieode_prepare of the step from t = 1e-1"
    );
    host.prepare(&m, 0.1, 0.1);
    host.synchronise(&m, 0.1, 0.1, LIEODE_FRAME_BODY, true);
}

#[test]
fn normalisation_policies_and_their_errors() {
    let function = "lieode_method_new_with_renormalisation";
    // No handle, the status, and the message.
    let refused = |name: &std::ffi::CStr, renormalise: i32| {
        let mut status = LieodeStatus::Internal;
        // SAFETY: a NUL-terminated name, a writable status.
        let m = unsafe {
            lieode_method_new_with_renormalisation(name.as_ptr(), renormalise, &mut status)
        };
        assert!(m.is_null());
        (status, last_error())
    };
    for bad in [-1, 3, i32::MAX] {
        let expected = format!(
            "{function}: renormalise = {bad}; expected LIEODE_RENORMALISE_DEFAULT (0), \
             LIEODE_RENORMALISE_ALWAYS (1) or LIEODE_RENORMALISE_NEVER (2)"
        );
        assert_eq!(
            refused(c"spiral", bad),
            (LieodeStatus::InvalidArgument, expected)
        );
    }
    for policy in [LIEODE_RENORMALISE_ALWAYS, LIEODE_RENORMALISE_NEVER] {
        let expected = format!(
            "{function}: renormalise = {policy}: mercurydpm normalises as part of the method; \
             expected LIEODE_RENORMALISE_DEFAULT (0)"
        );
        assert_eq!(
            refused(c"mercurydpm", policy),
            (LieodeStatus::InvalidArgument, expected)
        );
    }
    let (status, message) = refused(c"nonsense", LIEODE_RENORMALISE_NEVER);
    assert_eq!(status, LieodeStatus::UnknownMethod);
    assert!(
        message.starts_with(&format!("{function}: unknown method \"nonsense\"")),
        "{message}"
    );
    // SAFETY: a null name is the error under test; a null status is allowed.
    let m = unsafe {
        lieode_method_new_with_renormalisation(null(), LIEODE_RENORMALISE_NEVER, null_mut())
    };
    assert!(m.is_null());
    assert_eq!(last_error(), format!("{function}: name is null"));

    // The info reports the policy; the default is the method's own (as lieode_method_new).
    for name in lieode::rotation::catalogue::MANY_BODY_NAMES {
        let default = Method::new(name).info();
        assert_eq!(
            Method::with_renormalisation(name, LIEODE_RENORMALISE_DEFAULT).info(),
            default,
            "{name}"
        );
        if name == "mercurydpm" {
            continue;
        }
        for (policy, renormalises) in [
            (LIEODE_RENORMALISE_ALWAYS, true),
            (LIEODE_RENORMALISE_NEVER, false),
        ] {
            let m = Method::with_renormalisation(name, policy);
            let info = m.info();
            assert_eq!(
                info,
                LieodeMethodInfo {
                    renormalises,
                    ..default
                },
                "{name}"
            );
            // SAFETY: a live handle.
            let own = unsafe { CStr::from_ptr(lieode_method_name(m.0)) };
            assert_eq!(own.to_str(), Ok(name));
        }
    }
}
