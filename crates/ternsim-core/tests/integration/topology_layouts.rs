//! `[topology]` layouts: generated, positioned nodes named n0, n1, … and their errors.

use ternsim_core::scenario::{from_toml, ScenarioError};

fn with_topology(
    topology: &str,
    extra: &str,
) -> Result<ternsim_core::scenario::ResolvedScenario, ScenarioError> {
    from_toml(&format!(
        "name = \"t\"\nduration = \"1s\"\n[topology]\n{topology}\n{extra}"
    ))
}

/// A 7-hop chain with 200 m spacing: 8 nodes n0 … n7 on the x axis at 0, 200, …, 1400 m.
#[test]
fn a_chain_places_hops_plus_one_nodes_at_the_spacing() {
    let sc = with_topology("chain = { hops = 7, spacing = \"200m\" }", "").unwrap();
    assert_eq!(sc.nodes.len(), 8);
    for (i, n) in sc.nodes.iter().enumerate() {
        assert_eq!(n.name, format!("n{i}"));
        let p = n.position.expect("positioned");
        assert_eq!((p.x, p.y), (200.0 * i as f64, 0.0));
    }
}

/// A 2 x 3 grid, row-major: n4 is row 1, column 1 → (100 m, 100 m); listed nodes follow.
#[test]
fn a_grid_is_row_major_and_listed_nodes_follow() {
    let sc = with_topology(
        "grid = { rows = 2, cols = 3, spacing = \"100m\" }",
        "[[nodes]]\nname = \"sink\"\nposition = [50.0, 300.0]\n",
    )
    .unwrap();
    assert_eq!(sc.nodes.len(), 7);
    let p = sc.nodes[4].position.unwrap();
    assert_eq!((p.x, p.y), (100.0, 100.0));
    assert_eq!(sc.nodes[6].name, "sink");
}

#[test]
fn layout_errors_name_their_key_path() {
    let e = with_topology("chain = { hops = 0, spacing = \"200m\" }", "").unwrap_err();
    assert_eq!(e.path, "topology.chain.hops");
    let e = with_topology(
        "chain = { hops = 2, spacing = \"200m\" }\ngrid = { rows = 1, cols = 1, spacing = \"1m\" }",
        "",
    )
    .unwrap_err();
    assert_eq!(e.path, "topology");
    let e = with_topology("chain = { hops = 2, spacing = 200 }", "").unwrap_err();
    assert!(e.path.starts_with("topology.chain"), "{e}");
    assert!(e.message.contains("no unit"), "{e}");
    let e = with_topology(
        "chain = { hops = 2, spacing = \"200m\" }",
        "[[nodes]]\nname = \"n1\"\n",
    )
    .unwrap_err();
    assert_eq!(e.path, "nodes.0.name");
    assert!(e.message.contains("duplicate node name `n1`"), "{e}");
}
