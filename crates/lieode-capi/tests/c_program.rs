//! A C program (`tests/c/spiral_cylinder.c`), compiled with the system's C compiler against the
//! static library and the committed header, drives the SPIRAL paper's cylinder benchmark
//! through the interface; its hex-float output equals, bit for bit, the same run of
//! `lieode::system::CatalogueSystem` (one body under the constant body torque — the reference
//! the interface reproduces) and of the single-body stepper of the catalogue.

use std::path::{Path, PathBuf};
use std::process::Command;

use lieode::Result;
use lieode::integrate::{Options, Record, integrate};
use lieode::problems::cylinder::SpiralCylinder;
use lieode::rotation::catalogue::{self, MethodVisitor};
use lieode::rotation::{ConstantBodyTorque, RigidBody, RigidBodyMethod, SingleBody};
use lieode::stepper::{Span, Stepper};
use lieode::system::{Body, CatalogueSystem, EveryBody, SystemState};
use nalgebra::{Quaternion, Vector3};

const DT: f64 = 1e-3;
const STEPS: usize = 250;

/// The directory of the library's artefacts built with this test: `target/<profile>/deps`,
/// the test's own (`cargo build` copies them one level up, but `cargo test` does not).
fn artefacts() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    exe.parent()
        .expect("target/<profile>/deps/<test>")
        .to_path_buf()
}

/// The C compiler: `$CC`, else `cc`; `None` if it does not run.
fn compiler() -> Option<String> {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let runs = Command::new(&cc)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    runs.then_some(cc)
}

/// A hex float as C's `%a` prints it (`-0x1.8p-3`, `0x0p+0`, normal numbers and zero).
fn hex_float(text: &str) -> f64 {
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let rest = rest.strip_prefix("0x").expect("0x");
    let (mantissa, exponent) = rest.split_once('p').expect("p");
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = u64::from_str_radix(&format!("{int}{frac}"), 16).expect("hex digits");
    let exponent: i32 = exponent.parse().expect("exponent");
    let value = digits as f64 * 2f64.powi(exponent - 4 * frac.len() as i32);
    if negative { -value } else { value }
}

/// The program's `q` and `omega` lines.
fn parse(output: &str) -> (Quaternion<f64>, Vector3<f64>) {
    let line = |key: &str| -> Vec<f64> {
        let line = output.lines().find(|l| l.starts_with(key)).expect(key);
        line.split_whitespace().skip(1).map(hex_float).collect()
    };
    let (q, w) = (line("q "), line("omega "));
    (
        Quaternion::new(q[0], q[1], q[2], q[3]),
        Vector3::new(w[0], w[1], w[2]),
    )
}

/// A synchronised rotor and angular velocity.
type End = (Quaternion<f64>, Vector3<f64>);

/// The reference runs of every many-body method on the cylinder: `(name, system, single)`.
struct References {
    cylinder: SpiralCylinder,
    runs: Vec<(&'static str, End, End)>,
}

impl MethodVisitor for References {
    fn visit<K: RigidBodyMethod>(&mut self, make: fn(RigidBody) -> SingleBody<K>) -> Result<()> {
        let rigid = *self.cylinder.body();
        let name = make(rigid).method().info().name;
        let body = Body::with_rigid(self.cylinder.mass(), rigid)?;
        let start = self.cylinder.initial_state();
        let mut system = CatalogueSystem::new(vec![body], make);
        let mut torque = EveryBody(self.cylinder.torque());
        let y0 = SystemState::new(
            0.0,
            vec![Vector3::zeros()],
            vec![Vector3::zeros()],
            vec![start.q],
            vec![start.omega],
        )?;
        system.start(&mut torque, &Span::open(0.0, DT)?, &y0)?;
        for _ in 0..STEPS {
            system.step(&mut torque)?;
        }
        let end = system.state(&mut torque)?;
        let mut single = catalogue::stepper::<ConstantBodyTorque>(name, rigid)?;
        let mut body_torque = self.cylinder.torque();
        let span = Span::stride(0.0, DT, STEPS)?;
        let sol = integrate(
            &mut *single,
            &mut body_torque,
            &start,
            &span,
            Options::record(Record::Ends),
        )?;
        let last = sol.states.last().expect("the end");
        self.runs
            .push((name, (end.rotors[0], end.omegas[0]), (last.q, last.omega)));
        Ok(())
    }
}

fn bits(q: &Quaternion<f64>, w: &Vector3<f64>) -> [u64; 7] {
    [q.w, q.i, q.j, q.k, w.x, w.y, w.z].map(f64::to_bits)
}

#[test]
fn the_c_program_reproduces_the_cylinder_benchmark_bit_for_bit() -> Result<()> {
    let Some(cc) = compiler() else {
        eprintln!(
            "SKIPPED: no C compiler (set CC or install cc) to build tests/c/spiral_cylinder.c"
        );
        return Ok(());
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = artefacts().join("liblieode_capi.a");
    assert!(lib.exists(), "{} is built with the tests", lib.display());
    let exe = artefacts().join("spiral_cylinder_c");
    let compiled = Command::new(&cc)
        .args([
            "-std=c99",
            "-O1",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-I",
        ])
        .arg(dir.join("include"))
        .arg(dir.join("tests/c/spiral_cylinder.c"))
        .arg(&lib)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe)
        .output()
        .expect("the compiler runs");
    assert!(
        compiled.status.success(),
        "{}",
        String::from_utf8_lossy(&compiled.stderr)
    );

    let cylinder = SpiralCylinder::paper()?;
    let mut references = References {
        cylinder,
        runs: Vec::new(),
    };
    catalogue::visit_many_bodies(&mut references)?;
    let inertia = references.cylinder.body().inertia();
    for (name, system, single) in &references.runs {
        let run = Command::new(&exe)
            .arg(name)
            .arg(format!("{DT}"))
            .arg(format!("{STEPS}"))
            .arg(format!("{}", references.cylinder.mass()))
            .args([inertia.x, inertia.y, inertia.z].map(|i| format!("{i}")))
            .output()
            .expect("the program runs");
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(
            run.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let (q, w) = parse(&stdout);
        assert_eq!(
            bits(&q, &w),
            bits(&system.0, &system.1),
            "{name}: C against CatalogueSystem\n{stdout}"
        );
        assert_eq!(
            bits(&q, &w),
            bits(&single.0, &single.1),
            "{name}: C against the single-body stepper\n{stdout}"
        );
    }
    assert_eq!(references.runs.len(), catalogue::MANY_BODY_NAMES.len());
    Ok(())
}
