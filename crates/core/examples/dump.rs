//! Prints every set-up of a scenario as a readable event list (a debugging
//! aid: `cargo run -p mcp-lanes-core --example dump -- ID`).

fn main() {
    let id = std::env::args().nth(1).unwrap_or_else(|| "discover".into());
    let Some(timelines) = mcp_lanes_core::scenarios::run(&id) else {
        eprintln!("unknown scenario {id}");
        std::process::exit(2);
    };
    for t in &timelines {
        println!(
            "=== {} | {} <-> {} [{}]",
            t.label,
            t.client_label,
            t.server_label,
            t.transport.name()
        );
        for e in &t.events {
            match e.message() {
                Some(m) => {
                    let status = m
                        .http
                        .as_ref()
                        .and_then(|h| h.status)
                        .map(|s| format!(" [{s}]"))
                        .unwrap_or_default();
                    println!(
                        "{:>8} {:?} {}{} {}\n           {:?} {}",
                        e.at_ms, m.from, m.label, status, m.wire, e.rules, e.note
                    )
                }
                None => println!("{:>8} {:?} {:?} {}", e.at_ms, e.kind, e.rules, e.note),
            }
        }
        println!("summary: {:?}\n", t.summary);
    }
}
