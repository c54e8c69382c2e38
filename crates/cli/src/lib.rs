//! `mcp-lanes`: the native command line of the MCP simulator (the binary is
//! `src/main.rs`, a call to [`main`]; the library lets the fuzz targets reach
//! the HTTP request conversion).
//!
//! - `list` prints the scenario catalog and the presets;
//! - `run` plays a scenario on the virtual clock and prints its transcript;
//! - `serve` puts the very same simulated server the page shows on real
//!   stdio or on Streamable HTTP at `http://127.0.0.1:N/mcp`;
//! - `export` prints a catalog scenario as a scenario file, or
//!   (`--figure`) a scenario file's complete figure as static HTML, drawn
//!   by the web crate's views ([`figure`]);
//! - `client` runs the very same simulated client against a real server,
//!   over Streamable HTTP or a child's stdio ([`driver`]);
//! - `check` runs the lesson flows against a real server and grades every
//!   exchange against the rule catalog (`check`), or grades a recorded
//!   conversation offline (`check --transcript`);
//! - `bridge` serves a stdio server as Streamable HTTP on loopback, for the
//!   page's live check ([`bridge`]).
//!
//! `run` and `serve` also take a scenario file (`--file`), read by the core.
//!
//! All protocol behaviour lives in `mcp-lanes-core`; this crate only moves
//! bytes between real file descriptors or sockets and the sans-IO
//! [`mcp_lanes_core::server::Server`], and reads the real clock to hand it
//! milliseconds since start. The few answers decided here are about framing
//! only (a line or body too large, bytes that are not UTF-8, a path other
//! than `/mcp`), see [`edge`].

mod args;
mod authorize;
mod bridge;
mod check;
mod client;
mod dpop;
mod driver;
mod edge;
mod figure;
mod flows;
pub mod frontmatter;
pub mod http;
pub mod i18n;
mod jws;
mod list;
mod log;
mod run;
mod source;
mod state_key;
mod stdio;
mod tap;

use std::io::{self, Write};
use std::process::ExitCode;

use args::{Command, Transport};

/// Why a command failed, and so which exit status it gets.
#[derive(Debug)]
#[non_exhaustive]
pub enum Failure {
    /// Bad command line or unknown id: the message, exit status 2.
    Usage(String),
    /// An I/O failure: the message, exit status 1.
    Io(String),
    /// `check` found a rule the server broke: the message, exit status 1.
    Verdict(String),
    /// stdout was closed by the reader (e.g. `| head`): exit 0 quietly.
    StdoutClosed,
    /// A program `tap` ran ended with this status: exit with it, quietly.
    Exit(u8),
}

impl Failure {
    /// Maps an error writing to stdout.
    pub fn stdout(err: io::Error) -> Failure {
        if err.kind() == io::ErrorKind::BrokenPipe {
            Failure::StdoutClosed
        } else {
            Failure::Io(format!("cannot write to stdout: {err}"))
        }
    }
}

/// The catalog of a checked `--lang`.
fn catalog(lang: Option<String>) -> Option<i18n::Catalog> {
    lang.as_deref().and_then(i18n::Catalog::load)
}

/// Runs the command line given to the process and returns its exit status.
pub fn main() -> ExitCode {
    let command = match args::parse(std::env::args_os().skip(1)) {
        Ok(command) => command,
        Err(err) => {
            // The error in the language asked for (the usage lines are
            // English, like --help).
            let lang = args::asked_lang(std::env::args_os().skip(1))
                .and_then(|tag| i18n::Catalog::load(&tag));
            let _ = write!(io::stderr(), "{}", err.report(lang.as_ref()));
            return ExitCode::from(2);
        }
    };
    let outcome = match command {
        Command::Help(text) | Command::Completions(text) => print(&text),
        Command::Version => print(&format!("mcp-lanes {}\n", env!("CARGO_PKG_VERSION"))),
        Command::List { lang } => print(&list::render(catalog(lang).as_ref())),
        Command::Run {
            scenario,
            format,
            lang,
            keep_secrets,
        } => run::run(&scenario, format, catalog(lang).as_ref(), keep_secrets)
            .and_then(|s| print(&s)),
        Command::Client(args) => client::client(&args),
        Command::Check(args) => check::check(&args),
        Command::CheckTranscript(args) => check::transcript::check(&args),
        Command::Bridge(args) => bridge::bridge(&args),
        Command::Tap(args) => tap::tap(&args),
        Command::Export { scenario } => run::export(&scenario).and_then(|s| print(&s)),
        Command::Figure(args) => figure::export(&args),
        Command::Serve { transport, server } => {
            source::server(&server).and_then(|(config, script)| match transport {
                Transport::Stdio => stdio::serve(config, script),
                Transport::Http(options) => http::serve(config, script, &options),
            })
        }
    };
    match outcome {
        Ok(()) | Err(Failure::StdoutClosed) => ExitCode::SUCCESS,
        Err(Failure::Exit(code)) => ExitCode::from(code),
        Err(Failure::Usage(msg)) => {
            let _ = writeln!(io::stderr(), "error: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Io(msg)) => {
            let _ = writeln!(io::stderr(), "error: {msg}");
            ExitCode::FAILURE
        }
        Err(Failure::Verdict(msg)) => {
            let _ = writeln!(io::stderr(), "{msg}");
            ExitCode::FAILURE
        }
    }
}

/// Writes `text` to stdout (never panics on a closed pipe, unlike `print!`).
fn print(text: &str) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(Failure::stdout)
}
