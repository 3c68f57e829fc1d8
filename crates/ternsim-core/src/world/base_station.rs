//! The world's side of a wired-cum-wireless network (`crate::routing::dsdv::subnet`): each
//! node on the air learns its subnet and NIC, wired routers reach a mobile node through its
//! base station, and base stations get the static routes over the wired links.

use std::collections::BTreeMap;

use super::{Device, World};
use crate::net::addr::{Addr, IfaceId, NodeId};
use crate::routing::dsdv::Subnet;
use crate::routing::RoutingProtocol;
use crate::scenario::validate::ResolvedBaseStations;

impl World {
    pub(super) fn build_base_stations(&mut self, b: &ResolvedBaseStations) {
        // Each base station's subnet: itself, then the mobile nodes naming it.
        let mut subnets: BTreeMap<usize, Vec<Addr>> = b
            .stations
            .iter()
            .map(|&s| (s, vec![self.nodes[s].primary()]))
            .collect();
        for (m, bs) in b.base_station_of.iter().enumerate() {
            if let Some(members) = bs.and_then(|bs| subnets.get_mut(&bs)) {
                members.push(self.nodes[m].primary());
            }
        }
        for node in 0..self.nodes.len() {
            let Some(wifi) = self.wifi_iface(node) else {
                continue;
            };
            let station = if b.stations.contains(&node) {
                node
            } else if let Some(bs) = b.base_station_of[node] {
                // Wired routers send a mobile node's packets to its base station (ns-2's
                // hierarchical routes to the base station's domain).
                self.home_network[node] = Some(NodeId(bs as u32));
                bs
            } else {
                continue; // an ad hoc node sharing the channel: DSDV alone
            };
            let subnet = Subnet {
                wifi,
                members: subnets[&station].clone(),
                base_station: (station != node).then(|| self.nodes[station].primary()),
                wired: Vec::new(),
            };
            if let RoutingProtocol::Dsdv(d) = &mut self.nodes[node].routing {
                d.set_subnet(subnet);
            }
        }
    }

    /// The node's 802.11 interface, if it has one (a node has at most one: the channel's
    /// station for its position).
    pub(super) fn wifi_iface(&self, node: usize) -> Option<IfaceId> {
        self.nodes[node].ifaces.iter().copied().find(|i| {
            matches!(
                self.devices[self.ifaces[i.ix()].device as usize],
                Device::Wifi(_)
            )
        })
    }
}
