//! A uniform cell list: the pairs of spheres closer than one cell, found without testing every
//! pair.

use nalgebra::Vector3;

/// Spheres binned into cubic cells of side `cell` over the box `[−half, half]³`: two spheres
/// that touch (centres closer than the sum of their radii, at most `cell`) lie in the same or
/// in neighbouring cells, so each sphere is tested against the spheres of 27 cells instead of
/// all of them. The buffers are kept between calls, so rebinning allocates nothing once they
/// have grown.
#[derive(Debug, Clone, Default)]
pub struct CellList {
    cell: f64,
    half: Vector3<f64>,
    dims: [usize; 3],
    /// Each cell's first entry in `sorted` (one more entry than cells).
    starts: Vec<u32>,
    /// The sphere indices ordered by cell.
    sorted: Vec<u32>,
    /// Each sphere's cell.
    cell_of: Vec<u32>,
    /// The next free slot of each cell while binning.
    fill: Vec<u32>,
}

impl CellList {
    /// Cells of side at least `cell` over `[−half, half]³`.
    pub fn new(half: Vector3<f64>, cell: f64) -> Self {
        let dims = [0, 1, 2].map(|k| ((2.0 * half[k] / cell).floor() as usize).max(1));
        Self {
            cell: (0..3)
                .map(|k| 2.0 * half[k] / dims[k] as f64)
                .fold(f64::MAX, f64::min),
            half,
            dims,
            starts: vec![0; dims[0] * dims[1] * dims[2] + 1],
            sorted: Vec::new(),
            cell_of: Vec::new(),
            fill: Vec::new(),
        }
    }

    /// The cell coordinates of a point (clamped into the box).
    fn coordinates(&self, p: &Vector3<f64>) -> [usize; 3] {
        [0, 1, 2].map(|k| {
            let side = 2.0 * self.half[k] / self.dims[k] as f64;
            let i = ((p[k] + self.half[k]) / side).floor();
            (i.max(0.0) as usize).min(self.dims[k] - 1)
        })
    }

    fn index(&self, c: [usize; 3]) -> usize {
        (c[2] * self.dims[1] + c[1]) * self.dims[0] + c[0]
    }

    /// Bins the sphere centres `centres` (a counting sort by cell).
    pub fn bin(&mut self, centres: &[Vector3<f64>]) {
        self.starts.iter_mut().for_each(|s| *s = 0);
        self.cell_of.clear();
        for p in centres {
            let c = self.index(self.coordinates(p));
            self.cell_of.push(c as u32);
            self.starts[c + 1] += 1;
        }
        for i in 1..self.starts.len() {
            self.starts[i] += self.starts[i - 1];
        }
        self.sorted.clear();
        self.sorted.resize(centres.len(), 0);
        self.fill.clone_from(&self.starts);
        for (i, &c) in self.cell_of.iter().enumerate() {
            let slot = &mut self.fill[c as usize];
            self.sorted[*slot as usize] = i as u32;
            *slot += 1;
        }
    }

    /// Calls `visit(a, b)` once for every pair `a < b` of the spheres binned last in the same
    /// or in neighbouring cells (a superset of the touching pairs). The cells come from the
    /// binning, not from recomputing each centre's cell.
    pub fn for_each_near_pair(&self, mut visit: impl FnMut(usize, usize)) {
        let [nx, ny, nz] = self.dims.map(|d| d as i64);
        for (a, &cell) in self.cell_of.iter().enumerate() {
            let cell = i64::from(cell);
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
                        let cell = ((n[2] * ny + n[1]) * nx + n[0]) as usize;
                        let range = self.starts[cell] as usize..self.starts[cell + 1] as usize;
                        for &b in &self.sorted[range] {
                            if (b as usize) > a {
                                visit(a, b as usize);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The side of the cells (at least the `cell` asked for).
    pub fn cell_size(&self) -> f64 {
        self.cell
    }
}
