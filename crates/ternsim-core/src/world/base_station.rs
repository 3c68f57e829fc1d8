//! The world's side of a wired-cum-wireless network (`crate::routing::dsdv::subnet`): each
//! node on the air learns its subnet and NIC, wired routers reach a mobile node through its
//! base station, and base stations get the static routes over the wired links.

use super::{Device, World};
use crate::net::addr::{IfaceId, NodeId};
use crate::routing::dsdv::Subnet;
use crate::routing::RoutingProtocol;
use crate::scenario::validate::ResolvedBaseStations;

impl World {
    pub(super) fn build_base_stations(&mut self, b: &ResolvedBaseStations) {
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
            let members = std::iter::once(station)
                .chain((0..self.nodes.len()).filter(|&m| b.base_station_of[m] == Some(station)))
                .map(|m| self.nodes[m].primary())
                .collect();
            let subnet = Subnet {
                wifi,
                members,
                base_station: (station != node).then(|| self.nodes[station].primary()),
                wired: Vec::new(),
            };
            if let RoutingProtocol::Dsdv(d) = &mut self.nodes[node].routing {
                d.set_subnet(subnet);
            }
        }
    }

    /// The node's 802.11 interface, if it has one.
    fn wifi_iface(&self, node: usize) -> Option<IfaceId> {
        self.nodes[node].ifaces.iter().copied().find(|i| {
            matches!(
                self.devices[self.ifaces[i.ix()].device as usize],
                Device::Wifi(_)
            )
        })
    }
}
