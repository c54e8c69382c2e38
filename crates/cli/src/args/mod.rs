//! The command line grammar. clap's derive API declares every command and
//! option once (`cli.rs`: also each command's `--help` and the completion
//! scripts); this module turns what clap parsed into a [`Command`] of
//! plain data for the command modules, with the checks clap does not make
//! (which options go together; numbers, ports, formats, commands, URLs and
//! origins), in the order of the grammar clap replaced. Every mistake is a
//! keyed usage error (`usage.rs`), said in the language of `--lang`.
//!
//! Layers: `lib.rs` parses here and hands each command its data; this
//! module imports the command modules' data types and `i18n`, and none of
//! the modules it imports imports it back.

mod cli;
mod completions;
mod tap;
mod usage;

use std::ffi::OsString;

use clap::error::ErrorKind;
use clap::{ArgMatches, CommandFactory, FromArgMatches};

use crate::bridge::BridgeArgs;
use crate::check::{CheckArgs, ReportFormat, TranscriptArgs};
use crate::client::ClientArgs;
use crate::driver::Target;
use crate::figure::FigureArgs;
use crate::http::HttpOptions;
use crate::i18n::Keyed;
use crate::run::{Format, Scenario};
use crate::source::ServerSource;
use cli::{BridgeOpts, CheckOpts, ClientOpts, ExportOpts, RunOpts, ServeOpts, Sub};
pub use usage::UsageError;
use usage::{usage, HTTP_ONLY};

/// The transport `serve` speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// One JSON message per line on stdin/stdout.
    Stdio,
    /// Streamable HTTP on 127.0.0.1.
    Http(HttpOptions),
}

/// A parsed command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `--help`, of the program or of a command: the text to print.
    Help(String),
    /// `--version`.
    Version,
    /// `completions SHELL`: the script to print.
    Completions(String),
    /// `list [--lang TAG]`.
    List {
        /// The language of the scenario descriptions (`--lang`, checked).
        lang: Option<String>,
    },
    /// `run (--scenario ID | --file PATH) [--format F]`.
    Run {
        /// The scenario.
        scenario: Scenario,
        /// Output format.
        format: Format,
        /// The language of the text output's headings (`--lang`, checked).
        lang: Option<String>,
        /// `--keep-secrets`: tokens and codes left in the JSON output.
        keep_secrets: bool,
    },
    /// `client [--flow NAME] [--out FILE] [--timeout MS] (URL | --cmd C)`.
    Client(ClientArgs),
    /// `check (--url URL | --cmd C) [--flow ID]... [--tool N [--args J]]...
    /// [--format F] [--out FILE] [--timeout MS]`.
    Check(CheckArgs),
    /// `check --transcript FILE [--format F] [--out FILE]`: graded offline.
    CheckTranscript(TranscriptArgs),
    /// `bridge --cmd C --port N [--allow-origin O] [--timeout MS]`.
    Bridge(BridgeArgs),
    /// `tap [--out FILE] [--print-config HOST] -- COMMAND ARGS`.
    Tap(crate::tap::TapArgs),
    /// `serve --transport T (--preset ID | --file PATH --server ID)`.
    Serve {
        /// Where to serve.
        transport: Transport,
        /// What to serve.
        server: ServerSource,
    },
    /// `export --scenario ID`.
    Export {
        /// The scenario id as typed (checked when exported).
        scenario: String,
    },
    /// `export --figure FILE [--lang TAG] [--document [--base URL]] [--out PATH]`.
    Figure(FigureArgs),
}

/// Parses the arguments after the program name.
pub fn parse<I>(args: I) -> Result<Command, UsageError>
where
    I: IntoIterator,
    I::Item: Into<OsString>,
{
    let args = hoist(args.into_iter().map(Into::into).collect());
    let argv = std::iter::once(OsString::from("mcp-lanes")).chain(args.iter().cloned());
    let matches = match cli::Cli::command().try_get_matches_from(argv) {
        Ok(matches) => matches,
        Err(err) => {
            return match err.kind() {
                ErrorKind::DisplayHelp => Ok(Command::Help(err.render().to_string())),
                ErrorKind::DisplayVersion => Ok(Command::Version),
                _ => Err(usage::from_clap(&err, &args)),
            }
        }
    };
    let parsed =
        cli::Cli::from_arg_matches(&matches).map_err(|err| usage::from_clap(&err, &args))?;
    command(parsed.command, &matches).map_err(|message| UsageError {
        message,
        tip: None,
        command: matches.subcommand_name().map(str::to_string),
    })
}

/// The options of the grammar before clap that take a value and could come
/// before `list`, `run`, `serve` or `export` (`--lang zh list`).
const TAKES_VALUE: [&str; 13] = [
    "--scenario",
    "--format",
    "--lang",
    "--transport",
    "--port",
    "--preset",
    "--file",
    "--server",
    "--max-connections",
    "--threads",
    "--session-idle",
    "--max-sessions",
    "--keep-alive",
];

/// The command line with its command first: the grammar before clap took
/// options before the command too (`mcp-lanes --lang zh list`), clap takes
/// a command's options after it.
fn hoist(mut args: Vec<OsString>) -> Vec<OsString> {
    let mut i = 0;
    while let Some(arg) = args.get(i).and_then(|a| a.to_str()) {
        match arg {
            "-h" | "--help" | "-V" | "--version" => break,
            // After `--`, the next argument was the command all the same.
            "--" => {
                if i + 1 < args.len() {
                    let command = args.remove(i + 1);
                    args.insert(0, command);
                }
                break;
            }
            option if TAKES_VALUE.contains(&option) => i += 2,
            option if option.starts_with('-') => i += 1,
            _ => {
                let command = args.remove(i);
                args.insert(0, command);
                break;
            }
        }
    }
    args
}

/// The command of what clap parsed, its values checked.
fn command(sub: Sub, matches: &ArgMatches) -> Result<Command, Keyed> {
    match sub {
        Sub::List(o) => Ok(Command::List {
            lang: catalog(o.lang)?,
        }),
        Sub::Run(o) => run(o),
        Sub::Serve(o) => serve(o),
        Sub::Export(o) => export(o),
        Sub::Client(o) => client(o),
        Sub::Check(o) => check(o, matches.subcommand_matches("check")),
        Sub::Bridge(o) => bridge(o),
        Sub::Tap(o) => tap::tap(o),
        Sub::Completions(o) => Ok(Command::Completions(completions::script(o.shell))),
    }
}

/// `--lang`, when it names a language of the catalogs (`None`: English,
/// the core's own text).
pub(super) fn catalog(lang: Option<String>) -> Result<Option<String>, Keyed> {
    match lang {
        None => Ok(None),
        Some(tag) => crate::i18n::Catalog::load(&tag)
            .map(|_| Some(tag.clone()))
            .ok_or_else(|| {
                usage(
                    "cli.usage.unknown_lang",
                    "unknown --lang {tag} (expected one of {tags})",
                    &[("tag", format!("{tag:?}")), ("tags", crate::i18n::tags())],
                )
            }),
    }
}

/// Parses a positive count given to `--name`.
fn count(name: &str, value: &str, min: u64, max: u64) -> Result<u64, Keyed> {
    value
        .parse::<u64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| {
            usage(
                "cli.usage.not_a_count",
                "--{name} {value} is not a number from {min} to {max}",
                &[
                    ("name", name.to_string()),
                    ("value", format!("{value:?}")),
                    ("min", min.to_string()),
                    ("max", max.to_string()),
                ],
            )
        })
}

/// A count that fits a `usize` (every maximum here does).
fn count_usize(name: &str, value: &str, min: u64, max: u64) -> Result<usize, Keyed> {
    count(name, value, min, max).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// `run`: a catalog scenario or a file, and the format.
fn run(o: RunOpts) -> Result<Command, Keyed> {
    let scenario = match one_of(
        o.scenario,
        o.file,
        (
            "cli.usage.run_both",
            "run takes --scenario ID or --file PATH, not both",
        ),
        (
            "cli.usage.run_needs",
            "run needs --scenario ID or --file PATH",
        ),
    )? {
        Ok(id) => Scenario::Builtin(id),
        Err(path) => Scenario::File(path),
    };
    let format = match o.format.as_deref() {
        None | Some("text") => Format::Text,
        Some("json") => Format::Json,
        Some(other) => {
            return Err(usage(
                "cli.usage.unknown_format",
                "unknown --format {value} (expected text or json)",
                &[("value", format!("{other:?}"))],
            ))
        }
    };
    Ok(Command::Run {
        scenario,
        format,
        lang: catalog(o.lang)?,
        keep_secrets: o.keep_secrets,
    })
}

/// `export`: a catalog scenario as a file, or a file's complete figure
/// (and the figure's options, which `--scenario` does not take).
fn export(o: ExportOpts) -> Result<Command, Keyed> {
    let path = match one_of(
        o.scenario,
        o.figure,
        (
            "cli.usage.export_both",
            "export takes --scenario ID or --figure FILE, not both",
        ),
        (
            "cli.usage.export_needs",
            "export needs --scenario ID or --figure FILE",
        ),
    )? {
        Ok(scenario) => {
            let given = [
                ("lang", o.lang.is_some()),
                ("out", o.out.is_some()),
                ("document", o.document),
                ("base", o.base.is_some()),
            ];
            if let Some((name, _)) = given.iter().find(|(_, given)| *given) {
                return Err(usage(
                    "cli.usage.http_only",
                    "--{name} only applies to {what}",
                    &[
                        ("name", name.to_string()),
                        ("what", "export --figure FILE".to_string()),
                    ],
                ));
            }
            return Ok(Command::Export { scenario });
        }
        Err(path) => path,
    };
    if o.base.is_some() && !o.document {
        return Err(usage(
            "cli.usage.http_only",
            "--{name} only applies to {what}",
            &[
                ("name", "base".to_string()),
                ("what", "--document".to_string()),
            ],
        ));
    }
    let lang = match o.lang {
        None => crate::figure::DEFAULT_LANG.to_string(),
        Some(tag) => crate::figure::language(&tag).ok_or_else(|| {
            usage(
                "cli.usage.unknown_lang",
                "unknown --lang {tag} (expected one of {tags})",
                &[("tag", format!("{tag:?}")), ("tags", crate::figure::tags())],
            )
        })?,
    };
    Ok(Command::Figure(FigureArgs {
        path,
        lang,
        document: o.document.then(|| o.base.unwrap_or_default()),
        out: o.out.map(std::path::PathBuf::from),
    }))
}

/// `serve`: what to serve, then how.
fn serve(o: ServeOpts) -> Result<Command, Keyed> {
    if let Some(path) = o.replay {
        // A recording answers over stdio only: it is the server, alone.
        let alone = o.preset.is_none()
            && o.file.is_none()
            && o.server.is_none()
            && o.port.is_none()
            && matches!(o.transport.as_deref(), None | Some("stdio"))
            && o.max_connections.is_none()
            && o.threads.is_none()
            && o.session_idle.is_none()
            && o.max_sessions.is_none()
            && o.keep_alive.is_none()
            && !o.quiet
            && !o.auth;
        if !alone {
            return Err(usage(
                "cli.usage.serve_replay_alone",
                "serve --replay FILE is the whole server, over stdio: it takes no --preset, --file, --server or HTTP option",
                &[],
            ));
        }
        return Ok(Command::Tap(crate::tap::TapArgs {
            replay: Some(path),
            ..Default::default()
        }));
    }
    let server = match (o.preset, o.file, o.server) {
        (Some(id), None, None) => ServerSource::Preset(id),
        (None, Some(path), Some(server)) => ServerSource::File { path, server },
        (None, Some(_), None) => {
            return Err(usage(
                "cli.usage.serve_needs_server",
                "serve --file PATH needs --server ID (the id of one of the file's servers)",
                &[],
            ))
        }
        (None, None, Some(_)) => {
            return Err(usage(
                "cli.usage.server_needs_file",
                "--server ID needs --file PATH (for a preset, use --preset ID)",
                &[],
            ))
        }
        (Some(_), _, _) => {
            return Err(usage(
                "cli.usage.serve_both",
                "serve takes --preset ID or --file PATH --server ID, not both",
                &[],
            ))
        }
        (None, None, None) => {
            return Err(usage(
                "cli.usage.serve_needs",
                "serve needs --preset ID, or --file PATH --server ID",
                &[],
            ))
        }
    };
    let http_given = [
        o.max_connections.is_some(),
        o.threads.is_some(),
        o.session_idle.is_some(),
        o.max_sessions.is_some(),
        o.keep_alive.is_some(),
        o.quiet,
        o.auth,
    ];
    let transport = match o.transport.as_deref() {
        None | Some("stdio") => {
            if o.port.is_some() {
                return Err(usage(
                    "cli.usage.port_http_only",
                    "--port only applies to --transport http",
                    &[],
                ));
            }
            if let Some((name, _)) = HTTP_ONLY.iter().zip(http_given).find(|(_, given)| *given) {
                return Err(usage(
                    "cli.usage.http_only",
                    "--{name} only applies to {what}",
                    &[
                        ("name", name.to_string()),
                        ("what", "--transport http".to_string()),
                    ],
                ));
            }
            Transport::Stdio
        }
        Some("http") => {
            let port = o.port.ok_or_else(|| {
                usage(
                    "cli.usage.http_needs_port",
                    "--transport http needs --port N",
                    &[],
                )
            })?;
            let mut options = HttpOptions::on_port(port_number(&port)?);
            if let Some(n) = o.max_connections {
                options.max_connections = Some(count_usize("max-connections", &n, 1, 1_000_000)?);
            }
            if let Some(n) = o.threads {
                options.threads = Some(count_usize("threads", &n, 1, 1024)?);
            }
            if let Some(n) = o.session_idle {
                options.session_idle_secs = count("session-idle", &n, 1, 31_536_000)?;
            }
            if let Some(n) = o.max_sessions {
                options.max_sessions = count_usize("max-sessions", &n, 1, 10_000_000)?;
            }
            if let Some(n) = o.keep_alive {
                options.keep_alive_secs = count("keep-alive", &n, 1, 3600)?;
            }
            options.quiet = o.quiet;
            options.auth = o.auth;
            Transport::Http(options)
        }
        Some(other) => {
            return Err(usage(
                "cli.usage.unknown_transport",
                "unknown --transport {value} (expected stdio or http)",
                &[("value", format!("{other:?}"))],
            ))
        }
    };
    Ok(Command::Serve { transport, server })
}

/// `client`: a URL (the last argument, as the conformance suite appends
/// it) or `--cmd`, and its options.
fn client(o: ClientOpts) -> Result<Command, Keyed> {
    let timeout_ms = timeout_ms(o.timeout)?;
    let target = target(
        o.url,
        o.cmd,
        (
            "cli.usage.client_both",
            "client takes a URL or --cmd, not both",
        ),
        (
            "cli.usage.client_needs",
            "client needs the server: a URL (http://HOST:PORT/PATH) or --cmd \"COMMAND\"",
        ),
    )?;
    Ok(Command::Client(ClientArgs {
        flow: o.flow,
        out: o.out.map(std::path::PathBuf::from),
        timeout_ms,
        target,
        lang: catalog(o.lang)?,
        keep_secrets: o.keep_secrets,
    }))
}

/// `check`: the server, the flows, the tools it may call and their
/// arguments (each `--args` belongs to the `--tool` before it, so their
/// order on the command line is read from `matches`), the report.
fn check(o: CheckOpts, matches: Option<&ArgMatches>) -> Result<Command, Keyed> {
    let at = |id: &str| -> Vec<usize> {
        matches
            .and_then(|m| m.indices_of(id))
            .map(Iterator::collect)
            .unwrap_or_default()
    };
    let mut given: Vec<(usize, bool, String)> = at("tools")
        .into_iter()
        .zip(o.tools)
        .map(|(i, name)| (i, true, name))
        .chain(
            at("tool_args")
                .into_iter()
                .zip(o.tool_args)
                .map(|(i, json)| (i, false, json)),
        )
        .collect();
    given.sort_by_key(|(i, ..)| *i);
    let mut tools: Vec<(String, serde_json::Value)> = Vec::new();
    let mut args_given = 0usize;
    for (_, is_tool, text) in given {
        if is_tool {
            tools.push((text, serde_json::json!({})));
            continue;
        }
        let value: serde_json::Value = serde_json::from_str(&text)
            .ok()
            .filter(serde_json::Value::is_object)
            .ok_or_else(|| {
                usage(
                    "cli.usage.not_args",
                    "--args {value} is not a JSON object",
                    &[("value", format!("{text:?}"))],
                )
            })?;
        let count = tools.len();
        match tools.last_mut() {
            Some(tool) if args_given < count => tool.1 = value,
            _ => {
                return Err(usage(
                    "cli.usage.args_after_tool",
                    "--args follows the --tool it belongs to",
                    &[],
                ))
            }
        }
        args_given = tools.len();
    }
    let format = match o.format.as_deref() {
        None | Some("text") => ReportFormat::Text,
        Some("json") => ReportFormat::Json,
        Some("junit") => ReportFormat::Junit,
        Some(other) => {
            return Err(usage(
                "cli.usage.check_format",
                "--format {value} is not text, json or junit",
                &[("value", format!("{other:?}"))],
            ))
        }
    };
    if let Some(path) = o.transcript {
        if o.url.is_some() || o.cmd.is_some() {
            return Err(usage(
                "cli.usage.check_transcript_both",
                "check takes --url, --cmd or --transcript, one of them",
                &[],
            ));
        }
        let live = [
            ("flow", !o.flows.is_empty()),
            ("tool", !tools.is_empty()),
            ("timeout", o.timeout.is_some()),
        ];
        if let Some((name, _)) = live.iter().find(|(_, given)| *given) {
            return Err(usage(
                "cli.usage.http_only",
                "--{name} only applies to {what}",
                &[
                    ("name", name.to_string()),
                    ("what", "check --url or --cmd".to_string()),
                ],
            ));
        }
        return Ok(Command::CheckTranscript(TranscriptArgs {
            path,
            format,
            out: o.out.map(std::path::PathBuf::from),
            lang: catalog(o.lang)?,
        }));
    }
    let target = target(
        o.url,
        o.cmd,
        (
            "cli.usage.check_both",
            "check takes --url or --cmd, not both",
        ),
        (
            "cli.usage.check_needs",
            "check needs the server: --url http://HOST:PORT/PATH or --cmd \"COMMAND\" (or a recording: --transcript FILE)",
        ),
    )?;
    Ok(Command::Check(CheckArgs {
        target,
        flows: o.flows,
        tools,
        format,
        out: o.out.map(std::path::PathBuf::from),
        timeout_ms: timeout_ms(o.timeout)?,
        lang: catalog(o.lang)?,
        tokens: o.tokens.into(),
    }))
}

/// `bridge`: the command, the port, the page's origin, the timeout.
fn bridge(o: BridgeOpts) -> Result<Command, Keyed> {
    let cmd = o.cmd.ok_or_else(|| {
        usage(
            "cli.usage.bridge_needs_cmd",
            "bridge needs --cmd \"COMMAND ARGS\" (a stdio server)",
            &[],
        )
    })?;
    let command = command_words(&cmd)?;
    let port = o.port.ok_or_else(|| {
        usage(
            "cli.usage.bridge_needs_port",
            "bridge needs --port N (0 = any free port)",
            &[],
        )
    })?;
    let port = port_number(&port)?;
    let allow_origin = o
        .allow_origin
        .map(|origin| crate::bridge::guard::parse_origin(&origin))
        .transpose()?;
    let timeout_ms = match o.timeout {
        None => crate::bridge::DEFAULT_TIMEOUT_MS,
        Some(t) => count("timeout", &t, 1, 3_600_000)?,
    };
    Ok(Command::Bridge(BridgeArgs {
        command,
        port,
        allow_origin,
        timeout_ms,
    }))
}

/// The language a command line asks for (`--lang TAG` or `--lang=TAG`),
/// read before it is parsed: what its usage errors are said in.
pub fn asked_lang<I>(args: I) -> Option<String>
where
    I: IntoIterator,
    I::Item: Into<OsString>,
{
    let args: Vec<String> = args
        .into_iter()
        .map(|a| a.into().to_string_lossy().into_owned())
        .collect();
    args.iter()
        .enumerate()
        .find_map(|(i, a)| match a.strip_prefix("--lang") {
            Some("") => args.get(i + 1).cloned(),
            Some(rest) => rest.strip_prefix('=').map(str::to_string),
            None => None,
        })
}

/// `--timeout MS`, checked.
fn timeout_ms(timeout: Option<String>) -> Result<Option<u64>, Keyed> {
    match timeout {
        None => Ok(None),
        Some(t) => t
            .parse::<u64>()
            .ok()
            .filter(|ms| (1..=3_600_000).contains(ms))
            .map(Some)
            .ok_or_else(|| {
                usage(
                    "cli.usage.not_a_timeout",
                    "--timeout {value} is not a number of milliseconds (1 to 3600000)",
                    &[("value", format!("{t:?}"))],
                )
            }),
    }
}

/// Exactly one of two options: `Ok` the first, `Err` the second; `both`
/// and `neither` are the usage errors (key, English template) otherwise.
fn one_of<A, B>(
    a: Option<A>,
    b: Option<B>,
    both: (&'static str, &'static str),
    neither: (&'static str, &'static str),
) -> Result<Result<A, B>, Keyed> {
    match (a, b) {
        (Some(a), None) => Ok(Ok(a)),
        (None, Some(b)) => Ok(Err(b)),
        (Some(_), Some(_)) => Err(usage(both.0, both.1, &[])),
        (None, None) => Err(usage(neither.0, neither.1, &[])),
    }
}

/// The server a `client` or `check` talks to: a URL or `--cmd`, exactly one.
fn target(
    url: Option<String>,
    cmd: Option<String>,
    both: (&'static str, &'static str),
    neither: (&'static str, &'static str),
) -> Result<Target, Keyed> {
    Ok(match one_of(url, cmd, both, neither)? {
        Ok(url) => Target::Http { url },
        Err(cmd) => Target::Stdio {
            command: command_words(&cmd)?,
        },
    })
}

/// A `--port` value: 0 to 65535.
pub(super) fn port_number(port: &str) -> Result<u16, Keyed> {
    port.parse::<u16>().map_err(|_| {
        usage(
            "cli.usage.not_a_port",
            "--port {value} is not a port number (0 to 65535)",
            &[("value", format!("{port:?}"))],
        )
    })
}

/// `--cmd "COMMAND ARGS"` split like a POSIX shell would.
fn command_words(cmd: &str) -> Result<Vec<String>, Keyed> {
    shlex::split(cmd)
        .filter(|words| !words.is_empty())
        .ok_or_else(|| {
            usage(
                "cli.usage.not_a_command",
                "--cmd {value} is not a command line",
                &[("value", format!("{cmd:?}"))],
            )
        })
}

#[cfg(test)]
mod tests;
