//! The DSR route cache as ns-2's `MobiCache` keeps it (link-spec §4.2; RFC 4728 §4 "Route
//! Cache" allows a path or a link cache, ns-2 published results use this path cache).
//!
//! Two sets of paths, every path starting at this node:
//! - **primary** (30 paths): routes the node found by discovery or uses;
//! - **secondary** (64 paths): routes learned by snooping (forwarded and overheard source
//!   routes); a secondary path used for a lookup is promoted to the primary set.
//!
//! A full set replaces a victim chosen round-robin. Paths never expire: they shrink or go
//! only when a link on them is reported broken ([`RouteCache::remove_link`] truncates each
//! path before the link). A lookup returns the shortest prefix that reaches the
//! destination over both sets, primary first on a tie.
//!
//! Invariants: every stored path has at least two addresses and no address twice.

use crate::net::addr::Addr;

/// One set of paths with round-robin replacement.
#[derive(Clone, Debug)]
struct PathSet {
    capacity: usize,
    paths: Vec<Vec<Addr>>,
    /// The slot the next insertion into a full set overwrites.
    victim: usize,
}

impl PathSet {
    fn new(capacity: usize) -> Self {
        PathSet {
            capacity,
            paths: Vec::new(),
            victim: 0,
        }
    }

    /// Whether `path` is already known: it is a prefix of a stored path.
    fn covers(&self, path: &[Addr]) -> bool {
        self.paths.iter().any(|p| p.starts_with(path))
    }

    fn add(&mut self, path: Vec<Addr>) {
        if self.capacity == 0 || self.covers(&path) {
            return;
        }
        if self.paths.len() < self.capacity {
            self.paths.push(path);
            return;
        }
        self.victim %= self.paths.len();
        self.paths[self.victim] = path;
        self.victim = (self.victim + 1) % self.capacity;
    }

    /// (slot, length of the prefix reaching `dst`) of the shortest route to `dst`.
    fn find(&self, dst: Addr) -> Option<(usize, usize)> {
        self.paths
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.iter().position(|&a| a == dst).map(|k| (i, k + 1)))
            .min_by_key(|&(i, len)| (len, i))
    }

    fn remove_link(&mut self, from: Addr, to: Addr) -> usize {
        let mut touched = 0;
        for p in &mut self.paths {
            if let Some(i) = p.windows(2).position(|w| w[0] == from && w[1] == to) {
                p.truncate(i + 1);
                touched += 1;
            }
        }
        self.paths.retain(|p| p.len() >= 2);
        touched
    }
}

#[derive(Clone, Debug)]
pub struct RouteCache {
    primary: PathSet,
    secondary: PathSet,
}

fn is_loop_free(path: &[Addr]) -> bool {
    path.iter()
        .enumerate()
        .all(|(i, a)| !path[i + 1..].contains(a))
}

impl RouteCache {
    pub fn new(primary: usize, secondary: usize) -> Self {
        RouteCache {
            primary: PathSet::new(primary),
            secondary: PathSet::new(secondary),
        }
    }

    /// Adds a route found by discovery (or used) to the primary set. `path[0]` is this node;
    /// paths shorter than two addresses or with a loop are ignored.
    pub fn add_primary(&mut self, path: Vec<Addr>) {
        if path.len() >= 2 && is_loop_free(&path) {
            self.primary.add(path);
        }
    }

    /// Adds a snooped route to the secondary set (ignored if the primary set knows it).
    pub fn add_secondary(&mut self, path: Vec<Addr>) {
        if path.len() >= 2 && is_loop_free(&path) && !self.primary.covers(&path) {
            self.secondary.add(path);
        }
    }

    /// The shortest cached route from this node to `dst` (this node first, `dst` last).
    /// A route found in the secondary set is promoted to the primary set (MobiCache).
    pub fn find(&mut self, dst: Addr) -> Option<Vec<Addr>> {
        let p = self.primary.find(dst);
        let s = self.secondary.find(dst);
        let primary_wins = match (p, s) {
            (Some((_, lp)), Some((_, ls))) => lp <= ls,
            (p, _) => p.is_some(),
        };
        if primary_wins {
            let (i, len) = p.expect("primary wins only with a route");
            return Some(self.primary.paths[i][..len].to_vec());
        }
        match s {
            Some((i, len)) => {
                let path = self.secondary.paths.remove(i);
                if self.secondary.victim > i {
                    self.secondary.victim -= 1;
                }
                let route = path[..len].to_vec();
                self.primary.add(path);
                Some(route)
            }
            None => None,
        }
    }

    /// Whether a route to `dst` is cached (no promotion).
    pub fn has_route(&self, dst: Addr) -> bool {
        self.primary.find(dst).is_some() || self.secondary.find(dst).is_some()
    }

    /// The link `from` → `to` is broken: every path through it is cut before it (RFC 4728
    /// §8.3.5; MobiCache `noticeDeadLink`). Returns the number of paths that changed.
    pub fn remove_link(&mut self, from: Addr, to: Addr) -> usize {
        self.primary.remove_link(from, to) + self.secondary.remove_link(from, to)
    }

    /// Paths stored (primary, secondary), for tests and inspection.
    pub fn paths(&self) -> (&[Vec<Addr>], &[Vec<Addr>]) {
        (&self.primary.paths, &self.secondary.paths)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(v: &[u32]) -> Vec<Addr> {
        v.iter().map(|&i| Addr::nth(i)).collect()
    }

    #[test]
    fn shortest_prefix_wins_and_primary_breaks_ties() {
        let mut c = RouteCache::new(3, 3);
        c.add_primary(p(&[0, 1, 2, 3, 4]));
        c.add_secondary(p(&[0, 5, 4]));
        c.add_secondary(p(&[0, 6, 2]));
        assert_eq!(c.find(Addr::nth(2)), Some(p(&[0, 1, 2])));
        // The secondary path via 5 is shorter: returned and promoted.
        assert_eq!(c.find(Addr::nth(4)), Some(p(&[0, 5, 4])));
        assert_eq!(c.paths().0.len(), 2);
        assert_eq!(c.paths().1, &[p(&[0, 6, 2])][..]);
        assert_eq!(c.find(Addr::nth(9)), None);
    }

    #[test]
    fn known_prefixes_and_loops_are_not_stored() {
        let mut c = RouteCache::new(3, 3);
        c.add_primary(p(&[0, 1, 2, 3]));
        c.add_primary(p(&[0, 1, 2]));
        c.add_primary(p(&[0, 1, 0, 2]));
        c.add_primary(p(&[0]));
        c.add_secondary(p(&[0, 1]));
        assert_eq!(c.paths().0.len(), 1);
        assert!(c.paths().1.is_empty());
    }

    /// Capacity 2: the third path replaces slot 0, the fourth slot 1, the fifth slot 0.
    #[test]
    fn a_full_set_replaces_round_robin() {
        let mut c = RouteCache::new(2, 0);
        for dst in 11..=15 {
            c.add_primary(p(&[0, dst]));
        }
        assert_eq!(c.paths().0, &[p(&[0, 15]), p(&[0, 14])][..]);
    }

    /// Breaking 2 → 3 cuts [0,1,2,3,4] to [0,1,2] and [0,2,3] to [0,2]; a path whose first
    /// link breaks disappears.
    #[test]
    fn a_broken_link_truncates_paths() {
        let mut c = RouteCache::new(4, 4);
        c.add_primary(p(&[0, 1, 2, 3, 4]));
        c.add_primary(p(&[0, 5, 6]));
        c.add_secondary(p(&[0, 2, 3]));
        assert_eq!(c.remove_link(Addr::nth(2), Addr::nth(3)), 2);
        assert_eq!(c.paths().0, &[p(&[0, 1, 2]), p(&[0, 5, 6])][..]);
        assert_eq!(c.paths().1, &[p(&[0, 2])][..]);
        assert_eq!(c.remove_link(Addr::nth(0), Addr::nth(5)), 1);
        assert_eq!(c.paths().0, &[p(&[0, 1, 2])][..]);
        assert!(!c.has_route(Addr::nth(3)));
    }
}
