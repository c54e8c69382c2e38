//! Where `run` and `serve` get what they run: a catalog scenario or a
//! server preset by id, or a scenario file read from disk and checked by
//! the core (`scenarios::file`). An unknown id or an invalid file is a
//! usage error (exit status 2) listing every problem.

use std::io::Read;

use mcp_lanes_core::scenarios::file::{self, ScenarioFile, MAX_FILE_BYTES};
use mcp_lanes_core::server::{presets, ServerConfig};

use crate::args::ServerSource;
use crate::{list, Failure};

/// Reads and loads a scenario file; every problem is in the error.
pub fn load(path: &str) -> Result<ScenarioFile, Failure> {
    let opened = std::fs::File::open(path)
        .map_err(|err| Failure::Usage(format!("cannot read the scenario file {path:?}: {err}")))?;
    // Read one byte past the limit at most: a huge file is not read whole.
    let mut bytes = Vec::new();
    opened
        .take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| Failure::Usage(format!("cannot read the scenario file {path:?}: {err}")))?;
    let problems = |lines: Vec<String>| {
        let count = lines.len();
        let noun = if count == 1 { "problem" } else { "problems" };
        Failure::Usage(format!(
            "{path} is not a valid scenario file ({count} {noun}):\n  {}",
            lines.join("\n  ")
        ))
    };
    if bytes.len() > MAX_FILE_BYTES {
        return Err(problems(vec![format!(
            "(file): more than the limit of {MAX_FILE_BYTES} bytes for a scenario file"
        )]));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| problems(vec!["(file): not UTF-8 text".to_string()]))?;
    file::load(&text).map_err(|errors| problems(errors.iter().map(ToString::to_string).collect()))
}

/// The server `serve` runs.
pub fn server(source: &ServerSource) -> Result<ServerConfig, Failure> {
    match source {
        ServerSource::Preset(id) => presets::server(id).ok_or_else(|| {
            Failure::Usage(format!(
                "unknown server preset {id:?}; valid server presets: {}",
                list::server_ids()
            ))
        }),
        ServerSource::File { path, server } => {
            let loaded = load(path)?;
            loaded.server(server).cloned().ok_or_else(|| {
                let ids: Vec<&str> = loaded.servers.iter().map(|(id, _)| id.as_str()).collect();
                Failure::Usage(format!(
                    "{path} has no server {server:?}; its servers: {}",
                    ids.join(", ")
                ))
            })
        }
    }
}
