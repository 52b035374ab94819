//! The cost per particle-step of a method through the C interface against the same method in
//! `CatalogueSystem` (one thread), on N spheres of one inertia under a constant body torque and
//! no force; the host's loads are written by a plain loop, as a host code's would be.
//!
//! ```text
//! cargo run --release -p lieode-capi --example capi_timing -- [N] [STEPS] [METHOD]
//! ```

use std::hint::black_box;
use std::time::Instant;

use lieode::rotation::RigidBody;
use lieode::rotation::catalogue::{self, MethodVisitor};
use lieode::rotation::{RigidBodyMethod, SingleBody};
use lieode::stepper::{Span, Stepper};
use lieode::system::{Body, BodyView, CatalogueSystem, PerBody, SystemState};
use lieode_capi::*;
use nalgebra::{Quaternion, Vector3};

const DT: f64 = 1e-3;
const TORQUE: [f64; 3] = [0.5, 0.0, 0.0];

fn ok(status: LieodeStatus) {
    assert_eq!(status, LieodeStatus::Ok, "{:?}", unsafe {
        std::ffi::CStr::from_ptr(lieode_last_error_message())
    });
}

struct System {
    name: String,
    n: usize,
    steps: usize,
    seconds: Option<f64>,
}

fn torque(_: &BodyView<'_>) -> (Vector3<f64>, Vector3<f64>) {
    (Vector3::zeros(), Vector3::from(TORQUE))
}

impl MethodVisitor for System {
    fn visit<K: RigidBodyMethod>(
        &mut self,
        make: fn(RigidBody) -> SingleBody<K>,
    ) -> lieode::Result<()> {
        if make(RigidBody::new([1.0; 3])?).method().info().name != self.name {
            return Ok(());
        }
        let body = Body::new(1.0, [0.4, 0.5, 0.6])?;
        let mut system = CatalogueSystem::uniform(body, self.n, make);
        let mut model = PerBody {
            frame: lieode::body::Frame::Body,
            model: torque as fn(&BodyView<'_>) -> (Vector3<f64>, Vector3<f64>),
        };
        let y0 = SystemState::new(
            0.0,
            vec![Vector3::zeros(); self.n],
            vec![Vector3::zeros(); self.n],
            vec![Quaternion::identity(); self.n],
            vec![Vector3::new(0.3, -0.9, 0.6); self.n],
        )?;
        system.start(&mut model, &Span::open(0.0, DT)?, &y0)?;
        let clock = Instant::now();
        for _ in 0..self.steps {
            system.step(&mut model)?;
        }
        self.seconds = Some(clock.elapsed().as_secs_f64());
        black_box(system.arrays());
        Ok(())
    }
}

fn main() -> lieode::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map_or(100_000, |a| a.parse().expect("N"));
    let steps: usize = args.get(2).map_or(50, |a| a.parse().expect("STEPS"));
    let name = args
        .get(3)
        .cloned()
        .unwrap_or_else(|| "spiral_leapfrog".into());

    let c_name = std::ffi::CString::new(name.clone()).expect("a name");
    let mut status = LieodeStatus::Internal;
    // SAFETY: a valid name and status.
    let m = unsafe { lieode_method_new(c_name.as_ptr(), &mut status) };
    ok(status);
    let mut info = LieodeMethodInfo::default();
    // SAFETY: a live handle.
    ok(unsafe { lieode_method_info(m, &mut info) });
    let mass = vec![1.0; n];
    let inertia = vec![[0.4, 0.5, 0.6]; n];
    let mut x = vec![[0.0; 3]; n];
    let mut v = vec![[0.0; 3]; n];
    let mut q = vec![[1.0, 0.0, 0.0, 0.0]; n];
    let mut w = vec![[0.3, -0.9, 0.6]; n];
    let mut state = vec![0.0; n * info.state_len];
    let mut f = vec![[0.0; 3]; n];
    let mut tau = vec![[0.0; 3]; n];
    let p = LieodeParticles {
        n,
        mass: mass.as_ptr(),
        inertia: inertia.as_ptr().cast(),
        positions: x.as_mut_ptr().cast(),
        velocities: v.as_mut_ptr().cast(),
        rotors: q.as_mut_ptr().cast(),
        omegas: w.as_mut_ptr().cast(),
        state: state.as_mut_ptr(),
    };
    let loads = |f: &mut Vec<[f64; 3]>, tau: &mut Vec<[f64; 3]>| {
        for (f, tau) in f.iter_mut().zip(tau.iter_mut()) {
            (*f, *tau) = ([0.0; 3], TORQUE);
        }
    };
    // SAFETY: the arrays above, alive for every call.
    unsafe {
        for stage in 0..info.start_evaluations {
            ok(lieode_start_prepare(m, stage, 0.0, DT, &p));
            loads(&mut f, &mut tau);
            ok(lieode_start_finish(
                m,
                stage,
                0.0,
                DT,
                &p,
                f.as_ptr().cast(),
                tau.as_ptr().cast(),
                0,
            ));
        }
        let (mut capi, mut host) = (0.0, 0.0);
        for step in 0..steps {
            let t = step as f64 * DT;
            let clock = Instant::now();
            ok(lieode_prepare(m, t, DT, &p, f.as_ptr().cast()));
            let prepared = clock.elapsed().as_secs_f64();
            loads(&mut f, &mut tau);
            let loaded = clock.elapsed().as_secs_f64();
            ok(lieode_finish(
                m,
                t,
                DT,
                &p,
                f.as_ptr().cast(),
                tau.as_ptr().cast(),
                0,
            ));
            let finished = clock.elapsed().as_secs_f64();
            capi += prepared + (finished - loaded);
            host += loaded - prepared;
        }
        black_box((&x, &v, &q, &w));
        lieode_method_free(m);

        let mut system = System {
            name: name.clone(),
            n,
            steps,
            seconds: None,
        };
        catalogue::visit_many_bodies(&mut system)?;
        let per = |s: f64| s / (n * steps) as f64 * 1e9;
        let native = system.seconds.expect("a many-body method");
        println!(
            "{name}: {n} particles × {steps} steps: C interface {:.1} ns per particle-step \
             (prepare + finish; the host's loop writing the loads {:.1} ns more), \
             CatalogueSystem {:.1} ns ({:.2}×)",
            per(capi),
            per(host),
            per(native),
            capi / native
        );
    }
    Ok(())
}
