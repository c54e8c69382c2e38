fn main() {
    let args: Vec<String> = std::env::args().collect();
    let id = args.get(1).cloned().unwrap_or_else(|| "discover".into());
    let timelines = mcp_lanes_core::scenarios::run(&id).expect("scenario");
    for t in &timelines {
        println!(
            "=== {} | {} <-> {} [{:?}]",
            t.label, t.client_label, t.server_label, t.transport
        );
        for e in &t.events {
            match e.message() {
                Some(m) => println!(
                    "{:>8} {:?} {:<28} {}  || {:?} {}",
                    e.at_ms,
                    m.from,
                    m.label,
                    m.wire.chars().take(260).collect::<String>(),
                    e.rules,
                    e.note
                ),
                None => println!("{:>8} {:?} {:?} {}", e.at_ms, e.kind, e.rules, e.note),
            }
        }
        println!("summary: {:?}", t.summary);
    }
}
