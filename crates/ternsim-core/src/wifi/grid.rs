//! A uniform grid over station positions: finds the stations that may hear a frame
//! without scanning every station.
//!
//! The cell side is the carrier-sense range plus the distance a station can move between
//! two re-buckets (twice: sender and receiver may both move), so every station within
//! carrier-sense range of a point lies in the point's cell or one of its eight neighbours.
//! Exact powers are then computed from exact positions.
//!
//! Cells are looked up on every frame (nine per transmission), so the map hashes a cell
//! with a multiply-and-rotate of its two coordinates rather than the standard library's
//! SipHash, which is built for untrusted keys and cost more than the rest of the lookup. The
//! map is never iterated, so the hash does not affect the order of the candidates.
//!
//! The 3×3 block around a cell is gathered once and kept until a station enters or leaves a
//! cell: stations change cells only when the channel re-buckets them, while frames are sent
//! thousands of times in between, so a transmission looks up one block instead of nine
//! cells. A kept block is the very list the nine lookups would build, in the same order.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::mobility::Position;
use crate::sim::time::floor_f64;

/// Hashes the `i64` words of a cell key: each word is mixed in by a rotate, xor and
/// multiply by an odd constant (the FxHash scheme of rustc), enough to spread grid cells.
/// The channel's per-station maps keyed by a station or an address (small integers, looked
/// up on every frame received) use it too ([`SmallKeyMap`]).
#[derive(Default)]
pub(crate) struct CellHasher(u64);

/// A map keyed by small integers (a station's index, an address), hashed by [`CellHasher`]
/// instead of SipHash. Only for maps whose order nothing reads: the hash changes the
/// iteration order.
pub(crate) type SmallKeyMap<K, V> = HashMap<K, V, BuildHasherDefault<CellHasher>>;

impl Hasher for CellHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_i64(&mut self, i: i64) {
        self.write_u64(i as u64);
    }

    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[derive(Debug)]
pub struct Grid {
    cell: f64,
    cells: HashMap<(i64, i64), Vec<u16>, BuildHasherDefault<CellHasher>>,
    /// The candidates of the 3×3 block around a cell, by centre cell; emptied whenever a
    /// cell's stations change.
    blocks: HashMap<(i64, i64), Vec<u16>, BuildHasherDefault<CellHasher>>,
}

impl Grid {
    pub fn new(cell: f64) -> Grid {
        Grid {
            cell: cell.max(1.0),
            cells: HashMap::default(),
            blocks: HashMap::default(),
        }
    }

    pub fn cell_of(&self, p: Position) -> (i64, i64) {
        // `floor_f64`, not `f64::floor`: a call to libm's `floor` on every transmission.
        (
            floor_f64(p.x / self.cell) as i64,
            floor_f64(p.y / self.cell) as i64,
        )
    }

    pub fn insert(&mut self, id: u16, cell: (i64, i64)) {
        self.cells.entry(cell).or_default().push(id);
        self.blocks.clear();
    }

    pub fn remove(&mut self, id: u16, cell: (i64, i64)) {
        if let Some(v) = self.cells.get_mut(&cell) {
            v.retain(|&x| x != id);
        }
        self.blocks.clear();
    }

    /// Every station in the 3×3 block of cells around `p`, appended to `out`: the cells by
    /// column then row, each cell's stations in the order they entered it.
    pub fn candidates(&mut self, p: Position, out: &mut Vec<u16>) {
        let centre = self.cell_of(p);
        let cells = &self.cells;
        let block = self.blocks.entry(centre).or_insert_with(|| {
            let (cx, cy) = centre;
            let mut block = Vec::new();
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(v) = cells.get(&(cx + dx, cy + dy)) {
                        block.extend_from_slice(v);
                    }
                }
            }
            block
        });
        out.extend_from_slice(block);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_come_from_adjacent_cells_only() {
        let mut g = Grid::new(550.0);
        let pts = [(0.0, 0.0), (549.0, 0.0), (1200.0, 0.0), (-10.0, -10.0)];
        for (i, &(x, y)) in pts.iter().enumerate() {
            let c = g.cell_of(Position { x, y });
            g.insert(i as u16, c);
        }
        let mut out = Vec::new();
        g.candidates(Position { x: 10.0, y: 0.0 }, &mut out);
        out.sort_unstable();
        assert_eq!(out, vec![0, 1, 3]);
        g.remove(1, g.cell_of(Position { x: 549.0, y: 0.0 }));
        out.clear();
        g.candidates(Position { x: 10.0, y: 0.0 }, &mut out);
        out.sort_unstable();
        assert_eq!(out, vec![0, 3]);
    }

    /// A kept block is what the nine cells give, in their order (column by column, each
    /// cell in entry order), and it follows stations that enter and leave: cell side 10,
    /// stations 0-3 around the origin's cell (0, 0).
    #[test]
    fn kept_blocks_follow_entries_and_departures_in_cell_order() {
        let mut g = Grid::new(10.0);
        g.insert(0, (1, 0));
        g.insert(1, (-1, 1));
        g.insert(2, (0, 0));
        g.insert(3, (-1, 1));
        let at = Position { x: 5.0, y: 5.0 };
        let mut out = Vec::new();
        g.candidates(at, &mut out);
        // Cells (-1,-1) (-1,0) (-1,1) (0,-1) (0,0) (0,1) (1,-1) (1,0) (1,1).
        assert_eq!(out, vec![1, 3, 2, 0]);
        out.clear();
        g.candidates(at, &mut out);
        assert_eq!(out, vec![1, 3, 2, 0]);
        g.remove(3, (-1, 1));
        g.insert(3, (0, -1));
        out.clear();
        g.candidates(at, &mut out);
        assert_eq!(out, vec![1, 3, 2, 0]);
        g.remove(1, (-1, 1));
        g.insert(4, (5, 5));
        out.clear();
        g.candidates(at, &mut out);
        assert_eq!(out, vec![3, 2, 0]);
    }
}
