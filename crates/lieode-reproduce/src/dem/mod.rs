//! # A small DEM model: multi-sphere clumps with Hertz contacts (SPIRAL paper, §5)
//!
//! The pieces of the SPIRAL paper's many-particle energy test, built from the library's
//! six-degree-of-freedom layer ([`lieode::system`]); not a general DEM code:
//!
//! - [`Hertz`]: the conservative Hertz normal contact (force, energy, collision duration);
//! - [`Clump`]: rigid clumps of overlapping spheres on one axis, with the exact mass and
//!   inertia of the union;
//! - [`ChessPiece`]: the six chess pieces as clumps, heights from the paper;
//! - [`PieceBox`]: pieces in a closed box with Hertz contacts, found with a [`CellList`];
//! - [`random_state`]: the paper's seeded random initial conditions; [`chess_set`] the 32 pieces.
//!
//! The energy study of Fig. 7 built on it is [`mod@crate::spiral_energy`]
//! (`docs/spiral_energy.md`).
//!
//! Material (the paper): density 3200 kg/m³, Young's modulus 60 GPa, Poisson ratio 0.25.

mod cells;
mod clump;
mod hertz;
mod initial;
mod piece_box;
mod pieces;

pub use cells::{CellList, DENSE_CELL_FLOOR, DENSE_CELLS_PER_SPHERE, MAX_CELLS_PER_AXIS};
pub use clump::{AxialSphere, Clump};
pub use hertz::{HERTZ_DURATION_INTEGRAL, Hertz};
pub use initial::{SplitMix64, random_state};
pub use piece_box::PieceBox;
pub use pieces::ChessPiece;

/// The pieces' density, kg/m³.
pub const DENSITY: f64 = 3200.0;
/// Young's modulus, Pa.
pub const YOUNG: f64 = 60e9;
/// The Poisson ratio.
pub const POISSON: f64 = 0.25;

/// The Rayleigh time step of a sphere of radius `radius` of a material of density `density`,
/// Young's modulus `young` and Poisson ratio `poisson` — the time a Rayleigh (surface) wave
/// takes to cross it, the usual DEM step bound (`Δt ≈ 0.1 … 0.3 Δt_R`):
///
/// ```text
/// Δt_R = π R √(ϱ/G) / (0.1631 ν + 0.8766),   G = E / (2(1 + ν))
/// ```
///
/// (Li, Xu and Thornton, Powder Technol. 160 (2005) 219, Eq. 3). For the pieces' smallest
/// sphere (10 mm) it is 1.25e-5 s.
pub fn rayleigh_time_step(radius: f64, density: f64, young: f64, poisson: f64) -> f64 {
    let shear = young / (2.0 * (1.0 + poisson));
    std::f64::consts::PI * radius * (density / shear).sqrt() / (0.1631 * poisson + 0.8766)
}

/// The 32 pieces of a chess set: per side a king, a queen, two bishops, two knights, two rooks
/// and eight pawns.
pub fn chess_set() -> Vec<ChessPiece> {
    let side = [
        (ChessPiece::King, 1),
        (ChessPiece::Queen, 1),
        (ChessPiece::Bishop, 2),
        (ChessPiece::Knight, 2),
        (ChessPiece::Rook, 2),
        (ChessPiece::Pawn, 8),
    ];
    let one: Vec<ChessPiece> = side
        .iter()
        .flat_map(|&(p, n)| std::iter::repeat_n(p, n))
        .collect();
    [one.clone(), one].concat()
}
