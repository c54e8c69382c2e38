//! The `mcp-lanes` binary: everything is in the library (`src/lib.rs`).

fn main() -> std::process::ExitCode {
    mcp_lanes_cli::main()
}
