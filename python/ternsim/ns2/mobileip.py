"""Wired-cum-wireless scripts: hierarchical addresses, base stations and the Mobile IP
agents, mapped onto ternsim's ``[mobile_ip]`` over an 802.11 last hop, or without Mobile IP
onto base stations routing for their subnets (:func:`base_stations`).

This module owns the pattern of ns-2's wired-cum-wireless tutorial (``wireless3.tcl``):
``$ns node-config -addressType hierarchical``, ``AddrParams set domain_num_ / cluster_num_ /
nodes_num_``, wired nodes made by ``$ns node "D.C.N"``, base stations made after
``node-config -mobileIP ON -wiredRouting ON`` (each gets ns-2's ``Agent/MIPBS``: a home agent
for the mobile hosts of its domain and a foreign agent for visitors), mobile hosts made after
``-wiredRouting OFF`` with ``-mobileIP ON`` (``Agent/MIPMH``, whose ``home_agent_`` the script
sets through ``[$MH set regagent_]``), and ``AddrParams addr2id``.

The mapping (ternsim's ``crates/ternsim-core/src/mobileip/``, "The last hop over 802.11"):
wired nodes are scenario nodes without a position, base stations are ``mobile_ip.agents`` with
a position and hence a NIC, the mobile host is a ``mobile_ip.mobiles`` entry with its home
agent; the wired links are links, routed statically. As in ns-2 the base stations and the
host run the script's DSDV (``[routing] protocol = "dsdv"``), and the Mobile IP agents' last
hop goes through it (``crates/ternsim-core/src/mobileip/mod.rs``, "The last hop through
DSDV"): the host sends everything through its current agent (``MobileNode::base_stn``, set
by ``MIPMHAgent`` on an advertisement from a new agent) and only on a DSDV route to it, so a
registration with a new foreign agent waits for the agent's next DSDV update (``dsdv.cc``:
"Route to base_stn not known: dropping pkt"); the foreign agent reaches the host only on a
DSDV route to it; and what the host originates carries DSDV's 20-byte IP header.

It does not answer commands (:mod:`ternsim.ns2.simulator` does) nor build the rest of the
scenario (:mod:`ternsim.ns2.scenario`).
"""

from __future__ import annotations

from . import classes
from .otcl import Refusal

# typing.TYPE_CHECKING without importing typing (about 5 ms of ternsim ns2's start).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: ns-2's default hierarchical format (3 levels, `AddrParams`): a node's id packs the
#: domain, cluster and node numbers at these bit offsets (`AddrParams addr2id 1.0.1` is
#: 4194305 in ns-2.35).
DOMAIN_SHIFT = 22
CLUSTER_SHIFT = 11

#: ns-2's Mobile IP ports (`Classifier/Port/Reserve`): the registration agent on port 0
#: (`REGAGENT_PORT`) and the decapsulator on port 1 (`DECAP_PORT`), so a script's agents on a
#: Mobile IP node get ports from 2.
RESERVED_PORTS = 2

#: Agent/MIPBS and Agent/MIPMH variables -> `[mobile_ip]` key (ns-default.tcl defaults in
#: classes.DEFAULTS). The sizes (`adSize_`, `rreqSize_`) are accepted only at ns-2's values.
MIP_KEYS = {
    ("Agent/MIPBS", "ad_lifetime_"): "advertisement_lifetime",
    ("Agent/MIPMH", "reg_lifetime_"): "registration_lifetime",
    ("Agent/MIPMH", "reg_rtx_"): "registration_retransmit",
}

SUPPORTED = (
    "supported: the Mobile IP pattern of ns-2's wired-cum-wireless tutorial (wireless3.tcl): "
    "wired nodes `$ns node D.C.N`, base stations made with `-mobileIP ON -wiredRouting ON`, "
    "mobile hosts with `-mobileIP ON -wiredRouting OFF` and `[$MH set regagent_] set "
    "home_agent_ [AddrParams addr2id [$HA node-addr]]`, -adhocRouting DSDV"
)


class Hierarchy:
    """``AddrParams``: the domains, clusters per domain and nodes per cluster."""

    def __init__(self) -> None:
        self.domains: int | None = None
        self.clusters: list[int] = []
        self.nodes: list[int] = []

    def command(self, tcl: Any, args: tuple) -> str:
        if len(args) == 3 and args[0] == "set":
            var, value = args[1], args[2]
            try:
                numbers = [int(x) for x in tcl.splitlist(value)]
            except ValueError:
                raise Refusal(f"AddrParams set {var} {value}: give whole numbers") from None
            if var == "domain_num_" and len(numbers) == 1:
                self.domains = numbers[0]
            elif var == "cluster_num_":
                self.clusters = numbers
            elif var == "nodes_num_":
                self.nodes = numbers
            else:
                raise Refusal(
                    f"AddrParams set {var}: not supported; supported: domain_num_, "
                    "cluster_num_, nodes_num_"
                )
            return value
        if len(args) == 2 and args[0] == "addr2id":
            return str(self.addr2id(args[1]))
        if len(args) == 2 and args[0] == "id2addr":
            n = int(args[1])
            mask = (1 << CLUSTER_SHIFT) - 1
            return f"{n >> DOMAIN_SHIFT}.{(n >> CLUSTER_SHIFT) & mask}.{n & mask}"
        raise Refusal(
            "AddrParams: not supported; supported: AddrParams set domain_num_ / cluster_num_ / "
            "nodes_num_, AddrParams addr2id ADDR, AddrParams id2addr ID"
        )

    @staticmethod
    def parts(addr: str) -> tuple[int, int, int]:
        try:
            d, c, n = (int(x) for x in addr.split("."))
        except ValueError:
            raise Refusal(
                f"address {addr}: not supported; supported: hierarchical DOMAIN.CLUSTER.NODE"
            ) from None
        if min(d, c, n) < 0 or max(c, n) >= 1 << CLUSTER_SHIFT:
            raise Refusal(f"address {addr}: out of range")
        return d, c, n

    def addr2id(self, addr: str) -> int:
        d, c, n = self.parts(addr)
        return (d << DOMAIN_SHIFT) | (c << CLUSTER_SHIFT) | n

    def check(self, addr: str, mobile_host: bool = False) -> None:
        """Refuses an address outside the `AddrParams` hierarchy, as ns-2 would misroute it.
        A mobile host's node number may pass its cluster's `nodes_num_` (the wireless
        tutorial's `1.0.2` in a cluster of 2): packets reach it through its home or foreign
        agent, not through the hierarchical routing tables that count the cluster's nodes."""
        d, c, n = self.parts(addr)
        if self.domains is None or len(self.clusters) != self.domains:
            raise Refusal(
                "$ns node ADDR before `AddrParams set domain_num_` and `cluster_num_` (one "
                "number per domain): ns-2 cannot place the node"
            )
        if sum(self.clusters) != len(self.nodes):
            raise Refusal("AddrParams nodes_num_: give one number per cluster")
        if d >= self.domains or c >= self.clusters[d]:
            raise Refusal(f"address {addr}: outside the AddrParams hierarchy")
        cluster = sum(self.clusters[:d]) + c
        if n >= self.nodes[cluster] and not mobile_host:
            raise Refusal(
                f"address {addr}: cluster {d}.{c} has {self.nodes[cluster]} nodes "
                "(AddrParams nodes_num_)"
            )


def section(model: Any, node_name: Any) -> dict[str, Any]:
    """The scenario's ``[mobile_ip]`` for a hierarchical script's mobile nodes, refusing what
    ternsim's model cannot express (with the line that made the node)."""
    o = model.o
    mobile = [n for n in model.nodes if n.info.get("mobile")]
    agents = [n for n in mobile if n.info.get("base_station")]
    hosts = [n for n in mobile if not n.info.get("base_station")]
    for n in mobile:
        if not n.info.get("mip"):
            kind = "a base station" if n.info.get("base_station") else "a mobile node"
            raise Refusal(
                f"{kind} without -mobileIP ON (wired-cum-wireless routing through base "
                f"stations, wireless2.tcl): not supported; {SUPPORTED}",
                where=n.info["where"],
            )
    if model.radio["routing"]["protocol"] != "dsdv":
        raise Refusal(
            "a Mobile IP script with -adhocRouting "
            f"{model.radio['routing']['protocol'].upper()}: not supported (ns-2.35 cannot build "
            f"a DSR base station); {SUPPORTED}",
            where=agents[0].info["where"] if agents else None,
        )
    if not agents:
        raise Refusal(f"Mobile IP without a base station: not supported; {SUPPORTED}")
    by_id = {n.info["hier_id"]: n for n in agents}
    mobiles = []
    for h in hosts:
        reg = h.info["regagent"]
        ha = int(float(o.getvar(reg, "home_agent_")))
        home = by_id.get(ha)
        if home is None:
            raise Refusal(
                f"mobile host {h.info['addr']}: its regagent_'s home_agent_ ({ha}) is not a "
                "base station's address; set it with `[$MH set regagent_] set home_agent_ "
                "[AddrParams addr2id [$HA node-addr]]`",
                where=h.info["where"],
            )
        if h.info["addr"].split(".")[0] != home.info["addr"].split(".")[0]:
            raise Refusal(
                f"mobile host {h.info['addr']} outside its home agent's domain "
                f"({home.info['addr']}): not supported (the wired nodes route a host's "
                "address to the base station of its domain)",
                where=h.info["where"],
            )
        mobiles.append({"node": node_name(h), "home_agent": node_name(home)})
    out: dict[str, Any] = {"agents": [node_name(n) for n in agents], "mobiles": mobiles}
    # The timers: ns-2.35's defaults unless the script changed a class variable (the agents
    # copy their class's values when the nodes are made; ternsim has one value per run).
    for (cls, var), key in MIP_KEYS.items():
        owners = agents if cls == "Agent/MIPBS" else hosts
        values = {o.getvar(n.info["regagent"], var) for n in owners}
        if len(values) > 1:
            raise Refusal(f"{cls} {var} differing between nodes: not supported")
        if values:
            out[key] = f"{classes.seconds(values.pop())!r}s"
    return out


BASE_STATIONS = (
    "supported: the pattern of ns-2's wired-cum-wireless tutorial (wireless2.tcl): wired nodes "
    "`$ns node D.C.N`, base stations made with `-wiredRouting ON`, mobile nodes with "
    "`-wiredRouting OFF` in a base station's domain and cluster, each with `$node base-station "
    "[AddrParams addr2id [$BS node-addr]]`, -adhocRouting DSDV"
)


def base_stations(model: Any, node_name: Any) -> list[tuple[int, str]]:
    """A wired-cum-wireless script without Mobile IP: (index in ``model.nodes``, name of its
    base station) for each mobile node that names one with ``$node base-station``. ternsim's
    subnet is a base station and the mobile nodes naming it (``[[nodes]] base_station``,
    crates/ternsim-core/src/routing/dsdv/subnet.rs); ns-2's is the hierarchical domain and
    cluster, so a mobile node must name the base station of its own cluster."""
    protocol = model.radio["routing"]["protocol"]
    mobile = [n for n in model.nodes if n.info.get("mobile")]
    if protocol != "dsdv" and mobile:
        raise Refusal(
            f"a wired-cum-wireless script with -adhocRouting {protocol.upper()}: not "
            f"supported; {BASE_STATIONS}",
            where=mobile[0].info["where"],
        )
    stations = {n.info["hier_id"]: n for n in mobile if n.info.get("base_station")}
    out = []
    for i, n in enumerate(model.nodes):
        if not n.info.get("mobile") or n.info.get("base_station"):
            continue
        bs_id = n.info.get("base_stn")
        cluster = n.info["addr"].rsplit(".", 1)[0]
        if bs_id is None:
            if any(b.info["addr"].rsplit(".", 1)[0] == cluster for b in stations.values()):
                raise Refusal(
                    f"mobile node {n.info['addr']} without `$node base-station`: not "
                    f"supported in a base station's cluster; {BASE_STATIONS}",
                    where=n.info["where"],
                )
            continue  # an ad hoc node sharing the channel
        bs = stations.get(bs_id)
        if bs is None:
            raise Refusal(
                f"mobile node {n.info['addr']}: base-station {bs_id} is not a base station's "
                f"address (-wiredRouting ON); {BASE_STATIONS}",
                where=n.info["where"],
            )
        if bs.info["addr"].rsplit(".", 1)[0] != cluster:
            raise Refusal(
                f"mobile node {n.info['addr']} with base station {bs.info['addr']} of another "
                f"cluster: not supported; {BASE_STATIONS}",
                where=n.info["where"],
            )
        out.append((i, node_name(bs)))
    return out
