//! DSDV in a wired-cum-wireless network: base stations and the mobile nodes they serve, as
//! ns-2.35 runs them (`dsdv/dsdv.cc` `diff_subnet` and `forwardPacket`, the node structure
//! of `tcl/lib/ns-bsnode.tcl`; link-spec §6, ns-2 manual ch. 16 "wired-cum-wireless").
//!
//! A *subnet* is a base station and the mobile nodes that name it (ns-2: the nodes that share
//! the base station's hierarchical domain and cluster). Every member runs DSDV on the
//! channel. A packet for a destination outside the sender's subnet:
//! - at a mobile node goes on a usable DSDV route to the destination itself if there is one
//!   (another subnet's node within the channel's reach), else on the route to its base
//!   station (ns-2 `base_stn`); with neither it is dropped at once, neither queued nor traced
//!   (ns-2 frees it with "warning: Route to base_stn not known: dropping pkt" on stderr);
//! - at a base station leaves on its wired interfaces, by the static routes the world
//!   computes over the wired links (ns-2's hierarchical classifier sends every address outside
//!   the node's own subnet to its wired routes before DSDV sees the packet: no IP header is
//!   added to what the base station originates for the wired side).
//!
//! Packets within the subnet take DSDV's usual path. DSDV's own updates and every packet it
//! forwards use the node's NIC, never a wired interface the packet may have arrived on.

use crate::net::addr::{Addr, IfaceId};
use crate::routing::static_routes::Route;

/// One node's place in a wired-cum-wireless network.
#[derive(Clone, Debug, PartialEq)]
pub struct Subnet {
    /// The node's 802.11 interface.
    pub wifi: IfaceId,
    /// The subnet's addresses: the base station's and its mobile nodes'.
    pub members: Vec<Addr>,
    /// A mobile node's base station (ns-2 `base_stn`); `None` at the base station itself.
    pub base_station: Option<Addr>,
    /// At a base station: the route over the wired links to each address (indexed by
    /// [`Addr::index`]), installed by the world whenever static routes are computed.
    pub wired: Vec<Option<Route>>,
}

impl Subnet {
    /// ns-2 `diff_subnet`, negated: whether `dst` is in this node's subnet.
    pub fn contains(&self, dst: Addr) -> bool {
        self.members.contains(&dst)
    }

    /// Whether this node is the subnet's base station.
    pub fn is_base_station(&self) -> bool {
        self.base_station.is_none()
    }

    /// The wired route to `dst`, at a base station.
    pub fn wired_route(&self, dst: Addr) -> Option<Route> {
        self.wired.get(dst.index()).copied().flatten()
    }
}
