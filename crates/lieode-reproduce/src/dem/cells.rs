//! A uniform cell list: the pairs of spheres closer than one cell, found without testing every
//! pair, in memory proportional to the number of spheres.

use lieode::{Error, Result};
use nalgebra::Vector3;

/// A dense grid may always have this many cells, however few the spheres (16³: 16 KiB of
/// counters, cleared in a microsecond).
pub const DENSE_CELL_FLOOR: usize = 4096;

/// Beyond [`DENSE_CELL_FLOOR`], a dense grid may have this many cells per sphere binned.
pub const DENSE_CELLS_PER_SPHERE: usize = 8;

/// The most cells along one axis: 2²¹, so that a cell's index in the grid fits 63 bits. A
/// grid asked for finer cells gets cells of `2·half/2²¹` along that axis, larger than asked
/// (still correct, see [`CellList`]).
pub const MAX_CELLS_PER_AXIS: usize = 1 << 21;

/// Spheres binned into cubic cells of side `cell` over the box `[−half, half]³`: two spheres
/// that touch (centres closer than the sum of their radii, at most `cell`) lie in the same or
/// in neighbouring cells, so each sphere is tested against the spheres of 27 cells instead of
/// all of them. A centre outside the box counts in the nearest cell of the box (clamping keeps
/// neighbours neighbours, so the search stays a superset of the touching pairs).
///
/// **Memory.** The grid has `n_x·n_y·n_z` cells, `n_k = ⌊2 half_k / cell⌋` (at least 1, at
/// most [`MAX_CELLS_PER_AXIS`]). When that is at most
/// `max(DENSE_CELL_FLOOR, DENSE_CELLS_PER_SPHERE · spheres)` ([`DENSE_CELL_FLOOR`],
/// [`DENSE_CELLS_PER_SPHERE`]) the cells are stored densely: a counting sort by cell, each
/// cell's range found by its index. Beyond it (tiny spheres in a large box) only the occupied
/// cells are stored: the spheres are sorted by cell index and a neighbour cell's range is found
/// by binary search. Both give the same pairs in the same order; memory stays proportional to
/// the spheres (plus the floor), never to the box's volume.
///
/// The buffers are kept between calls, so rebinning allocates nothing once they have grown.
#[derive(Debug, Clone)]
pub struct CellList {
    /// The smallest side of the cells.
    cell: f64,
    half: Vector3<f64>,
    /// The side of the cells along each axis.
    sides: [f64; 3],
    dims: [usize; 3],
    /// Whether the last binning stored every cell (`starts`) or the occupied ones (`keys`).
    dense: bool,
    /// Dense: each cell's first entry in `sorted` (one more entry than cells).
    starts: Vec<u32>,
    /// The sphere indices ordered by cell (within a cell, by index).
    sorted: Vec<u32>,
    /// Dense: each sphere's cell.
    cell_of: Vec<u32>,
    /// Dense: the next free slot of each cell while binning.
    fill: Vec<u32>,
    /// Sparse: each sphere's cell.
    key_of: Vec<u64>,
    /// Sparse: the cell of each entry of `sorted` (ascending).
    keys: Vec<u64>,
}

impl CellList {
    /// Cells of side at least `cell` over `[−half, half]³` (or the box's whole width along an
    /// axis narrower than `cell`, or `2·half/2²¹` along an axis of more than
    /// [`MAX_CELLS_PER_AXIS`] cells). Nothing is allocated until [`CellList::bin`].
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `half` unless its three entries are finite and
    /// positive, naming `cell` unless it is.
    pub fn new(half: Vector3<f64>, cell: f64) -> Result<Self> {
        if !half.iter().all(|h| h.is_finite() && *h > 0.0) {
            return Err(Error::InvalidParameter {
                name: "half",
                value: format!("{:?}", [half.x, half.y, half.z]),
                expected: "three finite positive half sides".into(),
            });
        }
        if !(cell.is_finite() && cell > 0.0) {
            return Err(Error::InvalidParameter {
                name: "cell",
                value: format!("{cell:e}"),
                expected: "a finite positive cell side".into(),
            });
        }
        // `as usize` saturates (an infinite ratio gives usize::MAX), then the cap applies.
        let dims = [0, 1, 2]
            .map(|k| ((2.0 * half[k] / cell).floor() as usize).clamp(1, MAX_CELLS_PER_AXIS));
        let sides = [0, 1, 2].map(|k| {
            let side = 2.0 * half[k] / dims[k] as f64;
            if side.is_finite() {
                side
            } else {
                // 2·half overflows: the same side without the overflowing intermediate.
                half[k] / dims[k] as f64 * 2.0
            }
        });
        Ok(Self {
            cell: sides.into_iter().fold(f64::MAX, f64::min),
            half,
            sides,
            dims,
            dense: true,
            starts: Vec::new(),
            sorted: Vec::new(),
            cell_of: Vec::new(),
            fill: Vec::new(),
            key_of: Vec::new(),
            keys: Vec::new(),
        })
    }

    /// The cell coordinates of a point (clamped into the box; a NaN coordinate counts as the
    /// first cell).
    fn coordinates(&self, p: &Vector3<f64>) -> [usize; 3] {
        [0, 1, 2].map(|k| {
            let i = ((p[k] + self.half[k]) / self.sides[k]).floor();
            (i.max(0.0) as usize).min(self.dims[k] - 1)
        })
    }

    /// The index of the cell `c` in the grid (below 2⁶³).
    fn index(&self, c: [usize; 3]) -> u64 {
        let [x, y, z] = c.map(|i| i as u64);
        (z * self.dims[1] as u64 + y) * self.dims[0] as u64 + x
    }

    /// The number of cells of the grid (`n_x·n_y·n_z`, below 2⁶³).
    pub fn grid_cells(&self) -> u64 {
        self.dims.iter().map(|&d| d as u64).product()
    }

    /// The most cells a dense grid may have for `spheres` spheres:
    /// `max(DENSE_CELL_FLOOR, DENSE_CELLS_PER_SPHERE · spheres)`, and fewer than 2³².
    pub fn dense_bound(spheres: usize) -> u64 {
        let per_sphere = (spheres as u64).saturating_mul(DENSE_CELLS_PER_SPHERE as u64);
        per_sphere
            .max(DENSE_CELL_FLOOR as u64)
            .min(u64::from(u32::MAX) - 1)
    }

    /// The number of cells stored by the last binning: the grid's cells when it was dense, the
    /// occupied cells' entries (one per sphere) when it was not — at most
    /// [`CellList::dense_bound`] of the spheres binned.
    pub fn stored_cells(&self) -> usize {
        if self.dense {
            self.starts.len().saturating_sub(1)
        } else {
            self.keys.len()
        }
    }

    /// Bins the sphere centres `centres`: a counting sort by cell when the grid is at most
    /// [`CellList::dense_bound`] cells, a sort of the occupied cells otherwise.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `centres` for more than `u32::MAX − 1` spheres (the
    /// indices are stored in 32 bits); the list is then empty.
    pub fn bin(&mut self, centres: &[Vector3<f64>]) -> Result<()> {
        self.cell_of.clear();
        self.sorted.clear();
        self.key_of.clear();
        self.keys.clear();
        self.starts.clear();
        if centres.len() >= u32::MAX as usize {
            self.dense = false;
            return Err(Error::InvalidParameter {
                name: "centres",
                value: format!("{} spheres", centres.len()),
                expected: format!("fewer than {} spheres", u32::MAX),
            });
        }
        let cells = self.grid_cells();
        self.dense = cells <= Self::dense_bound(centres.len());
        if self.dense {
            self.bin_dense(centres, cells as usize);
        } else {
            self.bin_sparse(centres);
        }
        Ok(())
    }

    /// The counting sort over every cell of the grid (`cells` of them, below 2³²).
    fn bin_dense(&mut self, centres: &[Vector3<f64>], cells: usize) {
        self.starts.resize(cells + 1, 0);
        for p in centres {
            // Below `cells`, itself below 2³².
            let c = self.index(self.coordinates(p)) as usize;
            self.cell_of.push(c as u32);
            if let Some(count) = self.starts.get_mut(c + 1) {
                *count += 1;
            }
        }
        for i in 1..self.starts.len() {
            self.starts[i] += self.starts[i - 1];
        }
        self.sorted.resize(centres.len(), 0);
        self.fill.clone_from(&self.starts);
        for (i, &c) in self.cell_of.iter().enumerate() {
            if let Some(slot) = self.fill.get_mut(c as usize) {
                if let Some(entry) = self.sorted.get_mut(*slot as usize) {
                    *entry = i as u32;
                }
                *slot += 1;
            }
        }
    }

    /// The spheres sorted by cell (then by index): only the occupied cells are stored.
    fn bin_sparse(&mut self, centres: &[Vector3<f64>]) {
        for p in centres {
            let key = self.index(self.coordinates(p));
            self.key_of.push(key);
        }
        self.sorted.extend(0..centres.len() as u32);
        let key_of = &self.key_of;
        self.sorted
            .sort_unstable_by_key(|&i| (key_of.get(i as usize).copied().unwrap_or(0), i));
        self.keys.extend(
            self.sorted
                .iter()
                .map(|&i| key_of.get(i as usize).copied().unwrap_or(0)),
        );
    }

    /// The spheres of the cell of index `cell` (binned last), by index.
    fn spheres_in(&self, cell: u64) -> &[u32] {
        let range = if self.dense {
            let cell = cell as usize;
            match (self.starts.get(cell), self.starts.get(cell + 1)) {
                (Some(&a), Some(&b)) => a as usize..b as usize,
                _ => 0..0,
            }
        } else {
            let key = cell;
            let first = self.keys.partition_point(|&k| k < key);
            let count = self
                .keys
                .get(first..)
                .map_or(0, |rest| rest.partition_point(|&k| k == key));
            first..first + count
        };
        self.sorted.get(range).unwrap_or(&[])
    }

    /// Calls `visit(a, b)` once for every pair `a < b` of the spheres binned last in the same
    /// or in neighbouring cells (a superset of the touching pairs): for each sphere `a` in
    /// order, the neighbour cells from `(−1, −1, −1)` to `(1, 1, 1)` (x fastest), each cell's
    /// spheres by index. The cells come from the binning, not from recomputing each centre's
    /// cell.
    pub fn for_each_near_pair(&self, mut visit: impl FnMut(usize, usize)) {
        let [nx, ny, nz] = self.dims.map(|d| d as i64);
        let mut each = |a: usize, cell: i64| {
            let c = [cell % nx, (cell / nx) % ny, cell / (nx * ny)];
            for dz in -1i64..=1 {
                for dy in -1i64..=1 {
                    for dx in -1i64..=1 {
                        let n = [c[0] + dx, c[1] + dy, c[2] + dz];
                        if n[0] < 0
                            || n[0] >= nx
                            || n[1] < 0
                            || n[1] >= ny
                            || n[2] < 0
                            || n[2] >= nz
                        {
                            continue;
                        }
                        let cell = ((n[2] * ny + n[1]) * nx + n[0]) as u64;
                        for &b in self.spheres_in(cell) {
                            if (b as usize) > a {
                                visit(a, b as usize);
                            }
                        }
                    }
                }
            }
        };
        if self.dense {
            for (a, &cell) in self.cell_of.iter().enumerate() {
                each(a, i64::from(cell));
            }
        } else {
            for (a, &key) in self.key_of.iter().enumerate() {
                each(a, key as i64);
            }
        }
    }

    /// The smallest side of the cells (at least the `cell` asked for, unless the box is
    /// narrower than it along an axis: see [`CellList::new`]).
    pub fn cell_size(&self) -> f64 {
        self.cell
    }
}
