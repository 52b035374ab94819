//! A host code in Rust: particle arrays it owns, driven through the C interface.
#![allow(dead_code)]

use std::ffi::{CStr, CString};

use lieode_capi::*;

/// The last error message of this thread.
pub fn last_error() -> String {
    // SAFETY: never null, NUL-terminated.
    unsafe { CStr::from_ptr(lieode_last_error_message()) }
        .to_string_lossy()
        .into_owned()
}

/// Panics with the message unless `status` is `Ok`.
#[track_caller]
pub fn ok(status: LieodeStatus) {
    assert_eq!(status, LieodeStatus::Ok, "{}", last_error());
}

/// A method by name (owned; freed on drop).
pub struct Method(pub *mut LieodeMethod);

impl Method {
    pub fn new(name: &str) -> Self {
        let name = CString::new(name).expect("no NUL");
        let mut status = LieodeStatus::Internal;
        // SAFETY: valid string and status.
        let m = unsafe { lieode_method_new(name.as_ptr(), &mut status) };
        ok(status);
        assert!(!m.is_null());
        Self(m)
    }

    /// The method `name` with the normalisation policy `renormalise`
    /// (`LIEODE_RENORMALISE_*`).
    pub fn with_renormalisation(name: &str, renormalise: i32) -> Self {
        let name = CString::new(name).expect("no NUL");
        let mut status = LieodeStatus::Internal;
        // SAFETY: valid string and status.
        let m = unsafe {
            lieode_method_new_with_renormalisation(name.as_ptr(), renormalise, &mut status)
        };
        ok(status);
        assert!(!m.is_null());
        Self(m)
    }

    pub fn info(&self) -> LieodeMethodInfo {
        let mut info = LieodeMethodInfo::default();
        // SAFETY: live handle, writable info.
        ok(unsafe { lieode_method_info(self.0, &mut info) });
        info
    }
}

impl Drop for Method {
    fn drop(&mut self) {
        // SAFETY: from lieode_method_new, freed once.
        unsafe { lieode_method_free(self.0) };
    }
}

/// The host's arrays: one row per particle, with the particle's id (its index at the start).
#[derive(Debug, Clone, Default)]
pub struct Host {
    pub id: Vec<usize>,
    pub mass: Vec<f64>,
    pub inertia: Vec<[f64; 3]>,
    pub x: Vec<[f64; 3]>,
    pub v: Vec<[f64; 3]>,
    pub q: Vec<[f64; 4]>,
    pub w: Vec<[f64; 3]>,
    pub state: Vec<f64>,
    pub state_len: usize,
    pub forces: Vec<[f64; 3]>,
    pub torques: Vec<[f64; 3]>,
}

impl Host {
    pub fn len(&self) -> usize {
        self.id.len()
    }

    pub fn particles(&mut self) -> LieodeParticles {
        LieodeParticles {
            n: self.len(),
            mass: self.mass.as_ptr(),
            inertia: self.inertia.as_ptr().cast(),
            positions: self.x.as_mut_ptr().cast(),
            velocities: self.v.as_mut_ptr().cast(),
            rotors: self.q.as_mut_ptr().cast(),
            omegas: self.w.as_mut_ptr().cast(),
            state: self.state.as_mut_ptr(),
        }
    }

    /// Row `i` becomes the old row `perm[i]` (a migration: every per-particle array moves,
    /// the state rows and the last forces with them).
    pub fn permute(&mut self, perm: &[usize]) {
        fn take<T: Clone>(a: &mut Vec<T>, perm: &[usize]) {
            *a = perm.iter().map(|&i| a[i].clone()).collect();
        }
        take(&mut self.id, perm);
        take(&mut self.mass, perm);
        take(&mut self.inertia, perm);
        take(&mut self.x, perm);
        take(&mut self.v, perm);
        take(&mut self.q, perm);
        take(&mut self.w, perm);
        take(&mut self.forces, perm);
        take(&mut self.torques, perm);
        let len = self.state_len;
        let rows: Vec<Vec<f64>> = self.state.chunks(len.max(1)).map(|r| r.to_vec()).collect();
        if len > 0 {
            self.state = perm.iter().flat_map(|&i| rows[i].clone()).collect();
        }
    }

    /// The row of particle `id`.
    pub fn row(&self, id: usize) -> usize {
        self.id.iter().position(|&i| i == id).expect("a particle")
    }

    pub fn start_prepare(&mut self, m: &Method, stage: usize, t0: f64, dt: f64) {
        let p = self.particles();
        // SAFETY: the host's arrays.
        ok(unsafe { lieode_start_prepare(m.0, stage, t0, dt, &p) });
    }

    pub fn start_finish(&mut self, m: &Method, stage: usize, t0: f64, dt: f64, frame: i32) {
        ok(self.try_start_finish(m, stage, t0, dt, frame));
    }

    /// `lieode_start_finish` on the host's arrays and loads, its status returned.
    pub fn try_start_finish(
        &mut self,
        m: &Method,
        stage: usize,
        t0: f64,
        dt: f64,
        frame: i32,
    ) -> LieodeStatus {
        let p = self.particles();
        let (forces, torques) = (self.forces.as_ptr().cast(), self.torques.as_ptr().cast());
        // SAFETY: the host's arrays.
        unsafe { lieode_start_finish(m.0, stage, t0, dt, &p, forces, torques, frame) }
    }

    pub fn prepare(&mut self, m: &Method, t: f64, dt: f64) {
        let p = self.particles();
        // SAFETY: the host's arrays.
        ok(unsafe { lieode_prepare(m.0, t, dt, &p, self.forces.as_ptr().cast()) });
    }

    pub fn finish(&mut self, m: &Method, t: f64, dt: f64, frame: i32) {
        ok(self.try_finish(m, t, dt, frame));
    }

    /// `lieode_finish` on the host's arrays and loads, its status returned.
    pub fn try_finish(&mut self, m: &Method, t: f64, dt: f64, frame: i32) -> LieodeStatus {
        let p = self.particles();
        let (forces, torques) = (self.forces.as_ptr().cast(), self.torques.as_ptr().cast());
        // SAFETY: the host's arrays.
        unsafe { lieode_finish(m.0, t, dt, &p, forces, torques, frame) }
    }

    /// `(q_n, v_n, ω_n)` per row.
    #[allow(clippy::type_complexity)]
    pub fn synchronise(
        &mut self,
        m: &Method,
        t: f64,
        dt: f64,
        frame: i32,
        with_loads: bool,
    ) -> (Vec<[f64; 4]>, Vec<[f64; 3]>, Vec<[f64; 3]>) {
        let n = self.len();
        let (mut q, mut v, mut w) = (vec![[0.0; 4]; n], vec![[0.0; 3]; n], vec![[0.0; 3]; n]);
        let p = self.particles();
        let (f, tau) = if with_loads {
            (self.forces.as_ptr().cast(), self.torques.as_ptr().cast())
        } else {
            (std::ptr::null(), std::ptr::null())
        };
        // SAFETY: the host's arrays and the outputs.
        ok(unsafe {
            lieode_synchronise(
                m.0,
                t,
                dt,
                &p,
                f,
                tau,
                frame,
                q.as_mut_ptr().cast(),
                v.as_mut_ptr().cast(),
                w.as_mut_ptr().cast(),
            )
        });
        (q, v, w)
    }
}
