//! The chess pieces of the SPIRAL paper's many-particle test (§5) as multi-sphere clumps.

use super::clump::{AxialSphere, Clump};
use lieode::Result;

/// A chess piece, its height from the FIDE recommendation the SPIRAL paper quotes (king 9.5 cm,
/// queen 8.5, bishop 7, knight 6, rook 5.5, pawn 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChessPiece {
    /// 9.5 cm.
    King,
    /// 8.5 cm.
    Queen,
    /// 7 cm.
    Bishop,
    /// 6 cm.
    Knight,
    /// 5.5 cm.
    Rook,
    /// 5 cm.
    Pawn,
}

impl ChessPiece {
    /// Every piece, tallest first.
    pub const ALL: [ChessPiece; 6] = [
        ChessPiece::King,
        ChessPiece::Queen,
        ChessPiece::Bishop,
        ChessPiece::Knight,
        ChessPiece::Rook,
        ChessPiece::Pawn,
    ];

    /// The height, m.
    pub fn height(self) -> f64 {
        match self {
            ChessPiece::King => 0.095,
            ChessPiece::Queen => 0.085,
            ChessPiece::Bishop => 0.07,
            ChessPiece::Knight => 0.06,
            ChessPiece::Rook => 0.055,
            ChessPiece::Pawn => 0.05,
        }
    }

    /// The sphere layout (our design; the paper shows the pieces but gives no layout): the
    /// number of spheres and the radii of the base and of the head, m. The radii shrink
    /// linearly from base to head, and the centres are spaced evenly so that the base sphere
    /// touches the floor and the head sphere the top.
    pub fn layout(self) -> (usize, f64, f64) {
        match self {
            ChessPiece::King => (5, 0.020, 0.012),
            ChessPiece::Queen => (4, 0.020, 0.012),
            ChessPiece::Bishop => (4, 0.018, 0.010),
            ChessPiece::Knight => (3, 0.017, 0.012),
            ChessPiece::Rook => (3, 0.017, 0.015),
            ChessPiece::Pawn => (2, 0.016, 0.010),
        }
    }

    /// The spheres along the axis, heights from the floor.
    pub fn spheres(self) -> Vec<AxialSphere> {
        let (n, base, head) = self.layout();
        let (bottom, top) = (base, self.height() - head);
        (0..n)
            .map(|i| {
                let f = if n > 1 {
                    i as f64 / (n - 1) as f64
                } else {
                    0.0
                };
                AxialSphere {
                    z: bottom + f * (top - bottom),
                    radius: base + f * (head - base),
                }
            })
            .collect()
    }

    /// The piece as a clump of density `density`.
    ///
    /// # Errors
    /// Those of [`Clump::new`].
    pub fn clump(self, density: f64) -> Result<Clump> {
        Clump::new(&self.spheres(), density)
    }
}
