//! `tap --print-config NAME -- COMMAND ARGS`: the entry a host's MCP
//! configuration needs so that it starts the server through tap. Printed,
//! never written into the host's file: where that file is and what else it
//! holds is the person's.

use serde_json::{json, Value};

/// The hosts whose configuration tap can print, with where it goes.
pub const HOSTS: &[(&str, &str)] = &[
    (
        "claude-desktop",
        "claude_desktop_config.json (Claude Desktop: Settings > Developer > Edit Config), under \"mcpServers\"",
    ),
    ("vscode", ".vscode/mcp.json in the workspace (VS Code), under \"servers\""),
    ("cursor", "~/.cursor/mcp.json or .cursor/mcp.json (Cursor), under \"mcpServers\""),
];

/// The configuration entry for `host`, starting `tap` (the path of this
/// program) with `tap_args` then `--` and `command`; `None` for a host
/// tap does not know.
pub fn entry(host: &str, program: &str, tap_args: &[String], command: &[String]) -> Option<Value> {
    let mut args: Vec<String> = vec!["tap".into()];
    args.extend(tap_args.iter().cloned());
    args.push("--".into());
    args.extend(command.iter().cloned());
    let server = json!({"command": program, "args": args});
    let name = "tapped";
    match host {
        "claude-desktop" | "cursor" => Some(json!({"mcpServers": {name: server}})),
        "vscode" => {
            let mut server = server;
            server["type"] = json!("stdio");
            Some(json!({"servers": {name: server}}))
        }
        _ => None,
    }
}

/// Where `host`'s configuration goes, in words.
pub fn place(host: &str) -> Option<&'static str> {
    HOSTS.iter().find(|(h, _)| *h == host).map(|(_, p)| *p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_host_has_an_entry_that_starts_the_server_through_tap() {
        let cmd = vec!["python3".to_string(), "server.py".to_string()];
        for (host, _) in HOSTS {
            let e = entry(
                host,
                "/usr/bin/mcp-lanes",
                &["--out".into(), "t.json".into()],
                &cmd,
            )
            .expect("an entry");
            let server = e.as_object().unwrap().values().next().unwrap()["tapped"].clone();
            assert_eq!(server["command"], "/usr/bin/mcp-lanes");
            assert_eq!(
                server["args"],
                json!(["tap", "--out", "t.json", "--", "python3", "server.py"])
            );
            assert!(place(host).is_some());
        }
        assert_eq!(entry("notepad", "x", &[], &cmd), None);
    }
}
