//! The DSR route cache as ns-2's `MobiCache` keeps it (link-spec §4.2; RFC 4728 §4 "Route
//! Cache" allows a path or a link cache, ns-2 published results use this path cache,
//! `dsr/mobicache.cc`).
//!
//! Two sets of fixed-size slots, each empty or holding a path that starts at this node:
//! - **primary** (30 slots): routes the node found by discovery, answered from, or uses;
//! - **secondary** (64 slots): routes learned by snooping (forwarded and overheard source
//!   routes). A secondary path that a lookup *for use* (the node is about to send on it)
//!   returns is promoted to the primary set; lookups that only look (a reply from the
//!   cache, salvaging another node's packet) change nothing (`findRoute`'s `for_use`).
//!
//! Adding a path walks the slots in order and stops at the first that is empty or a prefix
//! of the path (the path is written into it, extending it: the suffix rule) or that the path
//! is a prefix of (nothing to add: the prefix rule); only if none is found does it replace a
//! victim chosen round-robin (`Cache::addRoute`, `pickVictim`). Paths never expire: they
//! shrink or empty only when a link on them is reported broken ([`RouteCache::remove_link`]
//! truncates each path before the link, and empties it if the link is its first). Slots keep
//! their place, so the order lookups see and the round-robin victim are ns-2's. A lookup
//! returns the shortest prefix that reaches the destination, the first such slot of the
//! primary set, a secondary one only if strictly shorter.
//!
//! Invariant: every stored path has at least two addresses and no address twice.

use crate::net::addr::Addr;

/// One set of path slots with round-robin replacement.
#[derive(Clone, Debug)]
struct PathSet {
    /// Empty slots are empty vectors.
    slots: Vec<Vec<Addr>>,
    /// The slot the next replacement overwrites.
    victim: usize,
}

impl PathSet {
    fn new(capacity: usize) -> Self {
        PathSet {
            slots: vec![Vec::new(); capacity],
            victim: 0,
        }
    }

    /// Stores `path` (ns-2 `Cache::addRoute`); returns how many leading addresses of it the
    /// set already held in the slot it went to (0 when it replaced a victim).
    fn add(&mut self, path: &[Addr]) -> usize {
        if self.slots.is_empty() {
            return 0;
        }
        for slot in &mut self.slots {
            let common = slot.iter().zip(path).take_while(|(a, b)| a == b).count();
            if common == slot.len() {
                // The slot is a prefix of the path (or empty): the path extends it.
                slot.extend_from_slice(&path[common..]);
                return common;
            }
            if common == path.len() {
                // The path is a prefix of the slot: already known.
                return common;
            }
        }
        // Every slot holds something else (an empty slot would have been taken above).
        let victim = self.victim;
        self.victim = (self.victim + 1) % self.slots.len();
        self.slots[victim] = path.to_vec();
        0
    }

    /// (slot, length of the prefix reaching `dst`) of the first shortest route to `dst`.
    fn find(&self, dst: Addr) -> Option<(usize, usize)> {
        let mut best: Option<(usize, usize)> = None;
        for (i, p) in self.slots.iter().enumerate() {
            if let Some(k) = p.iter().position(|&a| a == dst) {
                if best.is_none_or(|(_, len)| k + 1 < len) {
                    best = Some((i, k + 1));
                }
            }
        }
        best
    }

    /// ns-2 `Cache::noticeDeadLink`: each path through `from` → `to` is cut after `from`,
    /// or emptied when that link is its first.
    fn remove_link(&mut self, from: Addr, to: Addr) -> usize {
        let mut touched = 0;
        for p in &mut self.slots {
            if let Some(i) = p.windows(2).position(|w| w[0] == from && w[1] == to) {
                if i == 0 {
                    p.clear();
                } else {
                    p.truncate(i + 1);
                }
                touched += 1;
            }
        }
        touched
    }

    fn paths(&self) -> Vec<Vec<Addr>> {
        self.slots
            .iter()
            .filter(|p| !p.is_empty())
            .cloned()
            .collect()
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

/// Whether a lookup changes the cache: a route the node is about to use is promoted from
/// the secondary to the primary set (ns-2 `findRoute`'s `for_use`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// The node sends on the route (its own packets, the send buffer).
    ForUse,
    /// The node only looks (a reply from the cache, salvaging another node's packet).
    Peek,
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
            self.primary.add(&path);
        }
    }

    /// Adds a snooped route to the secondary set (ns-2 `noticeRouteUsed`: whatever the
    /// primary set holds).
    pub fn add_secondary(&mut self, path: Vec<Addr>) {
        if path.len() >= 2 && is_loop_free(&path) {
            self.secondary.add(&path);
        }
    }

    /// The shortest cached route from this node to `dst` (this node first, `dst` last).
    /// With [`Lookup::ForUse`] a route found in the secondary set moves to the primary set.
    pub fn find(&mut self, dst: Addr, lookup: Lookup) -> Option<Vec<Addr>> {
        let p = self.primary.find(dst);
        let s = self.secondary.find(dst);
        let from_secondary = match (p, s) {
            (Some((_, lp)), Some((_, ls))) => ls < lp,
            (None, s) => s.is_some(),
            (Some(_), None) => false,
        };
        if !from_secondary {
            let (i, len) = p?;
            return Some(self.primary.slots[i][..len].to_vec());
        }
        let (i, len) = s.expect("a secondary route");
        let route = self.secondary.slots[i][..len].to_vec();
        if lookup == Lookup::ForUse {
            let path = std::mem::take(&mut self.secondary.slots[i]);
            self.primary.add(&path);
        }
        Some(route)
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

    /// Paths stored (primary, secondary), slot order, empty slots left out: for tests and
    /// inspection.
    pub fn paths(&self) -> (Vec<Vec<Addr>>, Vec<Vec<Addr>>) {
        (self.primary.paths(), self.secondary.paths())
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
        // Primary [0 1 2] and secondary [0 6 2] tie: the primary one.
        assert_eq!(c.find(Addr::nth(2), Lookup::ForUse), Some(p(&[0, 1, 2])));
        assert_eq!(c.find(Addr::nth(9), Lookup::ForUse), None);
    }

    /// ns-2 `findRoute(dest, route, for_use)`: a secondary route is promoted only when the
    /// node will use it; its secondary slot empties and the next snooped path takes it.
    #[test]
    fn a_secondary_route_moves_to_primary_only_for_use() {
        let mut c = RouteCache::new(3, 3);
        c.add_primary(p(&[0, 1, 2, 3, 4]));
        c.add_secondary(p(&[0, 5, 4]));
        c.add_secondary(p(&[0, 6, 2]));
        // Peek (a reply from the cache, a salvage for another node): nothing moves.
        assert_eq!(c.find(Addr::nth(4), Lookup::Peek), Some(p(&[0, 5, 4])));
        assert_eq!(c.paths().0, vec![p(&[0, 1, 2, 3, 4])]);
        assert_eq!(c.paths().1, vec![p(&[0, 5, 4]), p(&[0, 6, 2])]);
        // For use: the shorter secondary path via 5 goes to the primary set.
        assert_eq!(c.find(Addr::nth(4), Lookup::ForUse), Some(p(&[0, 5, 4])));
        assert_eq!(c.paths().0, vec![p(&[0, 1, 2, 3, 4]), p(&[0, 5, 4])]);
        assert_eq!(c.paths().1, vec![p(&[0, 6, 2])]);
        // The emptied slot 0 is the first a new snooped path fills.
        c.add_secondary(p(&[0, 7]));
        assert_eq!(c.paths().1, vec![p(&[0, 7]), p(&[0, 6, 2])]);
    }

    /// `Cache::addRoute`: a path that extends a stored one is written into its slot (suffix
    /// rule), a prefix of a stored one adds nothing (prefix rule); the secondary set takes a
    /// path whatever the primary set holds.
    #[test]
    fn known_prefixes_are_extended_or_kept_and_loops_are_not_stored() {
        let mut c = RouteCache::new(3, 3);
        c.add_primary(p(&[0, 1, 2]));
        c.add_primary(p(&[0, 1, 2, 3]));
        c.add_primary(p(&[0, 1]));
        c.add_primary(p(&[0, 1, 0, 2]));
        c.add_primary(p(&[0]));
        c.add_secondary(p(&[0, 1]));
        assert_eq!(c.paths().0, vec![p(&[0, 1, 2, 3])]);
        assert_eq!(c.paths().1, vec![p(&[0, 1])]);
    }

    /// The slots are searched in order: an empty slot before a path the new one is a prefix
    /// of takes the new path (ns-2 stops at the first slot that fits).
    #[test]
    fn the_first_fitting_slot_takes_a_path() {
        let mut c = RouteCache::new(3, 0);
        c.add_primary(p(&[0, 4]));
        c.add_primary(p(&[0, 1, 2]));
        assert_eq!(c.remove_link(Addr::nth(0), Addr::nth(4)), 1);
        c.add_primary(p(&[0, 1]));
        assert_eq!(c.paths().0, vec![p(&[0, 1]), p(&[0, 1, 2])]);
    }

    /// Capacity 2: the third path replaces slot 0, the fourth slot 1, the fifth slot 0.
    #[test]
    fn a_full_set_replaces_round_robin() {
        let mut c = RouteCache::new(2, 0);
        for dst in 11..=15 {
            c.add_primary(p(&[0, dst]));
        }
        assert_eq!(c.paths().0, vec![p(&[0, 15]), p(&[0, 14])]);
    }

    /// Breaking 2 → 3 cuts [0,1,2,3,4] to [0,1,2] and [0,2,3] to [0,2]; a path whose first
    /// link breaks empties its slot, which keeps its place.
    #[test]
    fn a_broken_link_truncates_paths() {
        let mut c = RouteCache::new(4, 4);
        c.add_primary(p(&[0, 1, 2, 3, 4]));
        c.add_primary(p(&[0, 5, 6]));
        c.add_primary(p(&[0, 7]));
        c.add_secondary(p(&[0, 2, 3]));
        assert_eq!(c.remove_link(Addr::nth(2), Addr::nth(3)), 2);
        assert_eq!(
            c.paths().0,
            vec![p(&[0, 1, 2, 3, 4])[..3].to_vec(), p(&[0, 5, 6]), p(&[0, 7])]
        );
        assert_eq!(c.paths().1, vec![p(&[0, 2])]);
        assert_eq!(c.remove_link(Addr::nth(0), Addr::nth(5)), 1);
        assert_eq!(c.paths().0, vec![p(&[0, 1, 2]), p(&[0, 7])]);
        assert!(!c.has_route(Addr::nth(3)));
        // Slot 1 is empty again: the next path goes there, before [0 7] in search order.
        c.add_primary(p(&[0, 8, 7]));
        c.add_primary(p(&[0, 9, 7]));
        assert_eq!(
            c.paths().0,
            vec![p(&[0, 1, 2]), p(&[0, 8, 7]), p(&[0, 7]), p(&[0, 9, 7])]
        );
        assert_eq!(c.find(Addr::nth(7), Lookup::Peek), Some(p(&[0, 7])));
    }
}
