//! Routing: which interface a node sends a packet on to reach a destination.
//!
//! `Routing` is the seam for routing protocols. `Static` is a precomputed next-hop table
//! (shortest hop count, with explicit routes taking precedence); on-demand protocols that see
//! and rewrite packets (DSR's source routes) will be further variants that the node asks the
//! same question: "where does this packet go next?".

use std::collections::VecDeque;

/// A node index in the world's node arena.
pub type NodeIx = usize;

/// One hop: the neighbour and the link (index in the world's link list) that reaches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NextHop {
    pub neighbor: NodeIx,
    pub link: usize,
}

/// Next-hop tables for every node: `table[node][dst]`.
#[derive(Clone, Debug, Default)]
pub struct StaticRoutes {
    table: Vec<Vec<Option<NextHop>>>,
}

impl StaticRoutes {
    /// Shortest-hop-count routes over undirected `links` (pairs of node indices), as ns-2's
    /// static route computation does. Ties go to the neighbour reached over the link listed
    /// first, so the tables are a pure function of the scenario. `explicit` entries
    /// `(node, dst, via)` replace the computed next hop of `node` towards `dst`.
    pub fn shortest_paths(
        n_nodes: usize,
        links: &[(NodeIx, NodeIx)],
        explicit: &[(NodeIx, NodeIx, NodeIx)],
    ) -> Result<Self, String> {
        let mut adjacency: Vec<Vec<NextHop>> = vec![Vec::new(); n_nodes];
        for (i, &(a, b)) in links.iter().enumerate() {
            adjacency[a].push(NextHop {
                neighbor: b,
                link: i,
            });
            adjacency[b].push(NextHop {
                neighbor: a,
                link: i,
            });
        }
        let mut table = vec![vec![None; n_nodes]; n_nodes];
        // Breadth-first search outward from each destination: a node first reached from `u`
        // forwards to `u`.
        for dst in 0..n_nodes {
            let mut seen = vec![false; n_nodes];
            seen[dst] = true;
            let mut queue = VecDeque::from([dst]);
            while let Some(u) = queue.pop_front() {
                for hop in &adjacency[u] {
                    let v = hop.neighbor;
                    if !seen[v] {
                        seen[v] = true;
                        table[v][dst] = Some(NextHop {
                            neighbor: u,
                            link: hop.link,
                        });
                        queue.push_back(v);
                    }
                }
            }
        }
        for &(node, dst, via) in explicit {
            let hop = adjacency[node]
                .iter()
                .find(|h| h.neighbor == via)
                .copied()
                .ok_or_else(|| "`via` is not a neighbour of `node`".to_string())?;
            table[node][dst] = Some(hop);
        }
        Ok(StaticRoutes { table })
    }

    pub fn next_hop(&self, node: NodeIx, dst: NodeIx) -> Option<NextHop> {
        self.table.get(node)?.get(dst).copied().flatten()
    }

    /// The node sequence from `src` to `dst`, or `None` if there is no route or it loops.
    pub fn path(&self, src: NodeIx, dst: NodeIx) -> Option<Vec<NodeIx>> {
        let mut path = vec![src];
        let mut at = src;
        while at != dst {
            let hop = self.next_hop(at, dst)?;
            at = hop.neighbor;
            if path.len() > self.table.len() {
                return None;
            }
            path.push(at);
        }
        Some(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dumbbell_routes_go_through_the_bottleneck() {
        // s1, s2 -- r1 -- r2 -- d1, d2
        let links = [(0, 2), (1, 2), (2, 3), (3, 4), (3, 5)];
        let r = StaticRoutes::shortest_paths(6, &links, &[]).unwrap();
        assert_eq!(r.path(0, 4), Some(vec![0, 2, 3, 4]));
        assert_eq!(r.path(5, 1), Some(vec![5, 3, 2, 1]));
        assert_eq!(
            r.next_hop(2, 4),
            Some(NextHop {
                neighbor: 3,
                link: 2
            })
        );
    }

    #[test]
    fn disconnected_nodes_have_no_path() {
        let r = StaticRoutes::shortest_paths(3, &[(0, 1)], &[]).unwrap();
        assert_eq!(r.path(0, 2), None);
    }

    #[test]
    fn explicit_route_overrides_shortest_path() {
        // Square 0-1-3, 0-2-3: shortest 0->3 picks the first listed link (via 1).
        let links = [(0, 1), (1, 3), (0, 2), (2, 3)];
        let r = StaticRoutes::shortest_paths(4, &links, &[]).unwrap();
        assert_eq!(r.path(0, 3), Some(vec![0, 1, 3]));
        let r = StaticRoutes::shortest_paths(4, &links, &[(0, 3, 2)]).unwrap();
        assert_eq!(r.path(0, 3), Some(vec![0, 2, 3]));
        assert!(StaticRoutes::shortest_paths(4, &links, &[(0, 3, 3)]).is_err());
    }
}
