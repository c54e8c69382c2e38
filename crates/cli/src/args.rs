//! The command line grammar.
//!
//! `lexopt` only splits the arguments into options and values (it has no
//! dependencies and no macros, so it adds almost nothing to the build); the
//! small grammar on top is written out here so every error message is ours.

use std::ffi::OsString;

use crate::http::HttpOptions;
use crate::run::{Format, Scenario};
use crate::source::ServerSource;

/// The usage text printed by `--help` (stdout) and after a usage error
/// (stderr).
pub const USAGE: &str = "\
mcp-lanes: a simulator of MCP (Model Context Protocol) clients and servers

Usage:
  mcp-lanes list [--lang TAG]
  mcp-lanes run --scenario ID [--format text|json] [--lang TAG]
  mcp-lanes run --file PATH [--format text|json] [--lang TAG]
  mcp-lanes serve [--transport stdio] --preset ID
  mcp-lanes serve --transport http --port N --preset ID [HTTP OPTIONS]
  mcp-lanes serve [--transport stdio | --transport http --port N [HTTP OPTIONS]]
                  --file PATH --server ID
  mcp-lanes export --scenario ID
  mcp-lanes client [--flow NAME] [--out FILE] [--timeout MS] [--lang TAG] URL
  mcp-lanes client [--flow NAME] [--out FILE] [--timeout MS] [--lang TAG] --cmd \"COMMAND ARGS\"
  mcp-lanes check (--url URL | --cmd \"COMMAND ARGS\") [--flow ID]...
                  [--tool NAME [--args JSON]]... [--format text|json|junit] [--out FILE]
                  [--timeout MS] [--lang TAG]
  mcp-lanes bridge --cmd \"COMMAND ARGS\" --port N [--allow-origin ORIGIN] [--timeout MS]
  mcp-lanes --help | --version

Commands:
  list    Print every scenario, server preset and client preset, one per
          line: ID<TAB>KIND<TAB>DESCRIPTION (KIND is scenario, server or client).
  run     Run a scenario on the virtual clock and print its transcript:
          text (default) is a sequence listing per set-up; json prints
          {\"scenario\": ID, \"setups\": [{\"label\": ..., \"transcript\": [...]}]}.
          --file runs a scenario file (README: Scenario files); an invalid
          file gets every problem on stderr and exit status 2.
  serve   Serve a simulated server preset, or a server of a scenario file,
          for a real client.
          stdio: one JSON-RPC message per line on stdin, replies on stdout,
                 a log of rules and notes on stderr; exits when stdin closes.
          http:  Streamable HTTP on http://127.0.0.1:N/mcp (loopback only);
                 --port 0 picks a free port and prints it on stderr.
  export  Print a built-in scenario as a scenario file, to start one from.
  client  Run the simulator's own client against a real server: over
          Streamable HTTP at URL (http:// only), or over the stdio of
          COMMAND (started without a shell). Prints the run like `run`.
          The flow is --flow, else $MCP_CONFORMANCE_SCENARIO (the official
          conformance suite's client mode sets it and appends the URL),
          else `overview`. Flows: overview (discover and list), the
          conformance client scenarios (tools_call, request-metadata,
          sep-2322-client-request-state, http-standard-headers,
          http-custom-headers, http-invalid-tool-headers,
          json-schema-ref-no-deref, json-schema-2020-12-preservation),
          and every scenario id (its set-ups' client scripts).
  check   Run the lesson flows against a real server and grade every
          exchange against the rule catalog (spec/RULES.md): pass, fail or
          n/a per rule, with what was expected, what came, the exchange
          and the spec link. Flows: discover, capabilities, unknown,
          version, meta, headers (HTTP), legacy, counter-offer. Only tools
          named with --tool, or marked readOnlyHint by the server, are
          ever called.
  bridge  Serve a stdio MCP server (COMMAND, started once without a shell)
          as Streamable HTTP on http://127.0.0.1:N/mcp, so the page can
          check it from the browser. Only the page at --allow-origin may
          use it (CORS); other Host or Origin headers get 403 (DNS
          rebinding). --timeout MS: a request that gets nothing from the
          server for that long gets 504 (default 30000).

Options:
  --scenario ID     scenario id (or catalog number) for run and export
  --file PATH       a scenario file (JSON) for run or serve
  --server ID       the file's server to serve (an id of its servers, or a
                    preset its set-ups use)
  --format FORMAT   text or json (run; default text)
  --lang TAG        language of the text output (list, run, client, check
                    --format text): scenario titles and summaries from the
                    page's catalogs (www/i18n/: en, zh), the notes, outcomes
                    and set-up labels of a run, a check's headings, verdicts
                    and rule summaries; ids, MCP terms, a server's words and
                    JSON stay as they are
  --transport T     stdio or http (serve; default stdio)
  --port N          TCP port for --transport http (0 = any free port)
  --preset ID       server preset for serve

HTTP options (serve --transport http):
  --max-connections N  connections held at once; more wait to be accepted
                       (default: set by memory and the open-file limit)
  --threads N          worker threads (default: one per core)
  --session-idle S     a legacy session idle for S seconds expires; its id
                       then gets 404 and the client initializes again
                       (default 1800)
  --max-sessions N     legacy sessions kept at once; a new one beyond drops
                       the one idle longest (default 10000)
  --keep-alive S       an open SSE stream silent for S seconds gets a
                       comment, so a client that left is noticed (default 15)
  --quiet              log start, shutdown and failures only, not every
                       request

Client options (client):
  --flow NAME       the client's flow (client)
  --out FILE        write the client's runs as timeline JSON, the page's
                    format (client)
  --timeout MS      deadline of each exchange (client; default 10000)
  --cmd \"COMMAND\"   a server to start and speak stdio with (client, check)

Check options (check):
  --url URL         a Streamable HTTP server
  --flow ID         run only this flow (repeatable; discover always runs)
  --tool NAME       a tool the check may call (repeatable)
  --args JSON       the arguments of the --tool before it (default {})
  --format FORMAT   text (feedback to read), json (the report, with the
                    page's timeline) or junit (JUnit XML: a testcase per rule,
                    for a course's autograder)
  --out FILE        write the report as JSON (the page opens it)
  --timeout MS      deadline of each exchange (default 10000)

  -h, --help        print this help
  -V, --version     print the version

Exit status: 0 on success, 1 on an I/O failure (client: an exchange
failed below the protocol: a timeout, a closed connection, an answer over
the size limit, a server that exits; check: a rule failed), 2 on a usage
error or (client, check) an unreachable server.
";

/// `--lang`, when it names a language of the catalogs (`None`: English,
/// the core's own text).
fn catalog(lang: Option<String>) -> Result<Option<String>, UsageError> {
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

/// The transport `serve` speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// One JSON message per line on stdin/stdout.
    Stdio,
    /// Streamable HTTP on 127.0.0.1.
    Http(HttpOptions),
}

/// Parses a positive count given to `--name`.
fn count(name: &str, value: &str, min: u64, max: u64) -> Result<u64, UsageError> {
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

/// A parsed command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `--help`.
    Help,
    /// `--version`.
    Version,
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
    },
    /// `client [--flow NAME] [--out FILE] [--timeout MS] (URL | --cmd C)`.
    Client(crate::client::ClientArgs),
    /// `check (--url URL | --cmd C) [--flow ID]... [--tool N [--args J]]...
    /// [--format F] [--out FILE] [--timeout MS]`.
    Check(crate::check::CheckArgs),
    /// `bridge --cmd C --port N [--allow-origin O] [--timeout MS]`.
    Bridge(crate::bridge::BridgeArgs),
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
}

/// A command line that does not fit the grammar: a catalog message
/// (`cli.usage.*` of `www/i18n/<tag>.json`, CLI-only keys), said in
/// English unless [`UsageError::say`] is given a language.
pub use crate::i18n::Keyed as UsageError;

impl From<lexopt::Error> for UsageError {
    /// lexopt's own sentences, keyed (the same English).
    fn from(err: lexopt::Error) -> Self {
        use lexopt::Error::*;
        match err {
            MissingValue { option: None } => {
                usage("cli.usage.missing_value", "missing argument", &[])
            }
            MissingValue {
                option: Some(option),
            } => usage(
                "cli.usage.missing_value_for",
                "missing argument for option '{option}'",
                &[("option", option)],
            ),
            UnexpectedOption(option) => usage(
                "cli.usage.invalid_option",
                "invalid option '{option}'",
                &[("option", option)],
            ),
            UnexpectedArgument(value) => usage(
                "cli.usage.unexpected_argument",
                "unexpected argument {value}",
                &[("value", format!("{value:?}"))],
            ),
            UnexpectedValue { option, value } => usage(
                "cli.usage.unexpected_value",
                "unexpected argument for option '{option}': {value}",
                &[("option", option), ("value", format!("{value:?}"))],
            ),
            NonUnicodeValue(value) => usage(
                "cli.usage.not_unicode",
                "argument is invalid unicode: {value}",
                &[("value", format!("{value:?}"))],
            ),
            other => usage("cli.usage.as_is", "{text}", &[("text", other.to_string())]),
        }
    }
}

fn usage(key: &'static str, template: &'static str, args: &[(&'static str, String)]) -> UsageError {
    UsageError {
        key,
        template,
        args: args.to_vec(),
    }
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

/// Stores an option value, refusing a second one.
fn set_once(slot: &mut Option<String>, name: &str, value: String) -> Result<(), UsageError> {
    if slot.is_some() {
        return Err(usage(
            "cli.usage.twice",
            "--{name} given more than once",
            &[("name", name.to_string())],
        ));
    }
    *slot = Some(value);
    Ok(())
}

/// Parses the arguments after the program name.
pub fn parse<I>(args: I) -> Result<Command, UsageError>
where
    I: IntoIterator,
    I::Item: Into<OsString>,
{
    use lexopt::prelude::*;

    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    if args.first().is_some_and(|a| a == "client") {
        return parse_client(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "check") {
        return parse_check(&args[1..]);
    }
    if args.first().is_some_and(|a| a == "bridge") {
        return parse_bridge(&args[1..]);
    }
    let mut parser = lexopt::Parser::from_args(args);
    let mut command: Option<String> = None;
    let mut scenario = None;
    let mut format = None;
    let mut lang = None;
    let mut transport = None;
    let mut port = None;
    let mut preset = None;
    let mut file = None;
    let mut server = None;
    let mut max_connections = None;
    let mut threads = None;
    let mut session_idle = None;
    let mut max_sessions = None;
    let mut keep_alive = None;
    let mut quiet = false;
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => return Ok(Command::Help),
            Short('V') | Long("version") => return Ok(Command::Version),
            Long("scenario") => set_once(&mut scenario, "scenario", parser.value()?.string()?)?,
            Long("format") => set_once(&mut format, "format", parser.value()?.string()?)?,
            Long("lang") => set_once(&mut lang, "lang", parser.value()?.string()?)?,
            Long("transport") => set_once(&mut transport, "transport", parser.value()?.string()?)?,
            Long("port") => set_once(&mut port, "port", parser.value()?.string()?)?,
            Long("preset") => set_once(&mut preset, "preset", parser.value()?.string()?)?,
            Long("file") => set_once(&mut file, "file", parser.value()?.string()?)?,
            Long("server") => set_once(&mut server, "server", parser.value()?.string()?)?,
            Long("max-connections") => set_once(
                &mut max_connections,
                "max-connections",
                parser.value()?.string()?,
            )?,
            Long("threads") => set_once(&mut threads, "threads", parser.value()?.string()?)?,
            Long("session-idle") => {
                set_once(&mut session_idle, "session-idle", parser.value()?.string()?)?
            }
            Long("max-sessions") => {
                set_once(&mut max_sessions, "max-sessions", parser.value()?.string()?)?
            }
            Long("keep-alive") => {
                set_once(&mut keep_alive, "keep-alive", parser.value()?.string()?)?
            }
            Long("quiet") => quiet = true,
            Value(value) if command.is_none() => command = Some(value.string()?),
            Value(value) => {
                return Err(usage(
                    "cli.usage.unexpected_argument",
                    "unexpected argument {value}",
                    &[("value", format!("{:?}", value.to_string_lossy()))],
                ))
            }
            other => return Err(other.unexpected().into()),
        }
    }
    let Some(command) = command else {
        return Err(usage(
            "cli.usage.no_command",
            "no command given (expected list, run, serve or export)",
            &[],
        ));
    };
    // Options that belong to another command are errors, not silently ignored.
    let refuse = |name: &str, given: bool| -> Result<(), UsageError> {
        if given {
            Err(usage(
                "cli.usage.not_for_command",
                "--{name} does not apply to `{command}`",
                &[("name", name.to_string()), ("command", command.clone())],
            ))
        } else {
            Ok(())
        }
    };
    let http_only = [
        ("max-connections", max_connections.is_some()),
        ("threads", threads.is_some()),
        ("session-idle", session_idle.is_some()),
        ("max-sessions", max_sessions.is_some()),
        ("keep-alive", keep_alive.is_some()),
        ("quiet", quiet),
    ];
    let not_http = |what: &str| -> Result<(), UsageError> {
        match http_only.iter().find(|(_, given)| *given) {
            Some((name, _)) => Err(usage(
                "cli.usage.http_only",
                "--{name} only applies to {what}",
                &[("name", name.to_string()), ("what", what.to_string())],
            )),
            None => Ok(()),
        }
    };
    match command.as_str() {
        "list" => {
            refuse("scenario", scenario.is_some())?;
            refuse("format", format.is_some())?;
            refuse("transport", transport.is_some())?;
            refuse("port", port.is_some())?;
            refuse("preset", preset.is_some())?;
            refuse("file", file.is_some())?;
            refuse("server", server.is_some())?;
            not_http("serve --transport http")?;
            Ok(Command::List {
                lang: catalog(lang)?,
            })
        }
        "export" => {
            refuse("lang", lang.is_some())?;
            refuse("format", format.is_some())?;
            refuse("transport", transport.is_some())?;
            refuse("port", port.is_some())?;
            refuse("preset", preset.is_some())?;
            refuse("file", file.is_some())?;
            refuse("server", server.is_some())?;
            not_http("serve --transport http")?;
            let scenario = scenario.ok_or_else(|| {
                usage("cli.usage.export_needs", "export needs --scenario ID", &[])
            })?;
            Ok(Command::Export { scenario })
        }
        "run" => {
            refuse("transport", transport.is_some())?;
            refuse("port", port.is_some())?;
            refuse("preset", preset.is_some())?;
            refuse("server", server.is_some())?;
            not_http("serve --transport http")?;
            let scenario = match one_of(
                scenario,
                file,
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
            let format = match format.as_deref() {
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
                lang: catalog(lang)?,
            })
        }
        "serve" => {
            refuse("lang", lang.is_some())?;
            refuse("scenario", scenario.is_some())?;
            refuse("format", format.is_some())?;
            let server =
                match (preset, file, server) {
                    (Some(id), None, None) => ServerSource::Preset(id),
                    (None, Some(path), Some(server)) => ServerSource::File { path, server },
                    (None, Some(_), None) => return Err(usage(
                        "cli.usage.serve_needs_server",
                        "serve --file PATH needs --server ID (the id of one of the file's servers)",
                        &[],
                    )),
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
            let transport = match transport.as_deref() {
                None | Some("stdio") => {
                    if port.is_some() {
                        return Err(usage(
                            "cli.usage.port_http_only",
                            "--port only applies to --transport http",
                            &[],
                        ));
                    }
                    not_http("--transport http")?;
                    Transport::Stdio
                }
                Some("http") => {
                    let port = port.ok_or_else(|| {
                        usage(
                            "cli.usage.http_needs_port",
                            "--transport http needs --port N",
                            &[],
                        )
                    })?;
                    let port = port_number(&port)?;
                    let mut options = HttpOptions::on_port(port);
                    if let Some(n) = max_connections {
                        options.max_connections =
                            Some(count("max-connections", &n, 1, 1_000_000)? as usize);
                    }
                    if let Some(n) = threads {
                        options.threads = Some(count("threads", &n, 1, 1024)? as usize);
                    }
                    if let Some(n) = session_idle {
                        options.session_idle_secs = count("session-idle", &n, 1, 31_536_000)?;
                    }
                    if let Some(n) = max_sessions {
                        options.max_sessions = count("max-sessions", &n, 1, 10_000_000)? as usize;
                    }
                    if let Some(n) = keep_alive {
                        options.keep_alive_secs = count("keep-alive", &n, 1, 3600)?;
                    }
                    options.quiet = quiet;
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
        other => Err(usage(
            "cli.usage.unknown_command",
            "unknown command {value} (expected list, run, serve or export)",
            &[("value", format!("{other:?}"))],
        )),
    }
}

/// `client`'s own options: `--flow`, `--out`, `--timeout`, and either a
/// URL (the last argument, as the conformance suite appends it) or `--cmd`.
fn parse_client(args: &[OsString]) -> Result<Command, UsageError> {
    use lexopt::prelude::*;

    let mut parser = lexopt::Parser::from_args(args.iter().cloned());
    let (mut flow, mut out, mut timeout, mut cmd, mut url) = (None, None, None, None, None);
    let mut lang = None;
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => return Ok(Command::Help),
            Long("lang") => set_once(&mut lang, "lang", parser.value()?.string()?)?,
            Long("flow") => set_once(&mut flow, "flow", parser.value()?.string()?)?,
            Long("out") => set_once(&mut out, "out", parser.value()?.string()?)?,
            Long("timeout") => set_once(&mut timeout, "timeout", parser.value()?.string()?)?,
            Long("cmd") => set_once(&mut cmd, "cmd", parser.value()?.string()?)?,
            Value(value) if url.is_none() => url = Some(value.string()?),
            Value(value) => {
                return Err(usage(
                    "cli.usage.client_one_url",
                    "unexpected argument {value} (client takes one URL)",
                    &[("value", format!("{:?}", value.to_string_lossy()))],
                ))
            }
            other => return Err(other.unexpected().into()),
        }
    }
    let timeout_ms = match timeout {
        None => None,
        Some(t) => Some(
            t.parse::<u64>()
                .ok()
                .filter(|ms| (1..=3_600_000).contains(ms))
                .ok_or_else(|| {
                    usage(
                        "cli.usage.not_a_timeout",
                        "--timeout {value} is not a number of milliseconds (1 to 3600000)",
                        &[("value", format!("{t:?}"))],
                    )
                })?,
        ),
    };
    let target = target(
        url,
        cmd,
        (
            "cli.usage.client_both",
            "client takes a URL or --cmd, not both",
        ),
        (
            "cli.usage.client_needs",
            "client needs the server: a URL (http://HOST:PORT/PATH) or --cmd \"COMMAND\"",
        ),
    )?;
    Ok(Command::Client(crate::client::ClientArgs {
        flow,
        out: out.map(std::path::PathBuf::from),
        timeout_ms,
        target,
        lang: catalog(lang)?,
    }))
}

/// `--timeout MS`, checked.
fn timeout_ms(timeout: Option<String>) -> Result<Option<u64>, UsageError> {
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
) -> Result<Result<A, B>, UsageError> {
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
) -> Result<crate::driver::Target, UsageError> {
    Ok(match one_of(url, cmd, both, neither)? {
        Ok(url) => crate::driver::Target::Http { url },
        Err(cmd) => crate::driver::Target::Stdio {
            command: command_words(&cmd)?,
        },
    })
}

/// A `--port` value: 0 to 65535.
fn port_number(port: &str) -> Result<u16, UsageError> {
    port.parse::<u16>().map_err(|_| {
        usage(
            "cli.usage.not_a_port",
            "--port {value} is not a port number (0 to 65535)",
            &[("value", format!("{port:?}"))],
        )
    })
}

/// `--cmd "COMMAND ARGS"` split like a POSIX shell would.
fn command_words(cmd: &str) -> Result<Vec<String>, UsageError> {
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

/// `check`'s options.
fn parse_check(args: &[OsString]) -> Result<Command, UsageError> {
    use lexopt::prelude::*;

    let mut parser = lexopt::Parser::from_args(args.iter().cloned());
    let (mut url, mut cmd, mut out, mut timeout, mut format) = (None, None, None, None, None);
    let mut lang = None;
    let mut flows = Vec::new();
    let mut tools: Vec<(String, serde_json::Value)> = Vec::new();
    let mut args_given = 0usize;
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => return Ok(Command::Help),
            Long("url") => set_once(&mut url, "url", parser.value()?.string()?)?,
            Long("cmd") => set_once(&mut cmd, "cmd", parser.value()?.string()?)?,
            Long("out") => set_once(&mut out, "out", parser.value()?.string()?)?,
            Long("timeout") => set_once(&mut timeout, "timeout", parser.value()?.string()?)?,
            Long("format") => set_once(&mut format, "format", parser.value()?.string()?)?,
            Long("lang") => set_once(&mut lang, "lang", parser.value()?.string()?)?,
            Long("flow") => flows.push(parser.value()?.string()?),
            Long("tool") => tools.push((parser.value()?.string()?, serde_json::json!({}))),
            Long("args") => {
                let text = parser.value()?.string()?;
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
            Value(value) => {
                return Err(usage(
                    "cli.usage.check_argument",
                    "unexpected argument {value} (check takes --url URL or --cmd \"COMMAND\")",
                    &[("value", format!("{:?}", value.to_string_lossy()))],
                ))
            }
            other => return Err(other.unexpected().into()),
        }
    }
    let format = match format.as_deref() {
        None | Some("text") => crate::check::ReportFormat::Text,
        Some("json") => crate::check::ReportFormat::Json,
        Some("junit") => crate::check::ReportFormat::Junit,
        Some(other) => {
            return Err(usage(
                "cli.usage.check_format",
                "--format {value} is not text, json or junit",
                &[("value", format!("{other:?}"))],
            ))
        }
    };
    let target = target(
        url,
        cmd,
        (
            "cli.usage.check_both",
            "check takes --url or --cmd, not both",
        ),
        (
            "cli.usage.check_needs",
            "check needs the server: --url http://HOST:PORT/PATH or --cmd \"COMMAND\"",
        ),
    )?;
    Ok(Command::Check(crate::check::CheckArgs {
        target,
        flows,
        tools,
        format,
        out: out.map(std::path::PathBuf::from),
        timeout_ms: timeout_ms(timeout)?,
        lang: catalog(lang)?,
    }))
}

/// `bridge`'s options: `--cmd`, `--port`, `--allow-origin`, `--timeout`.
fn parse_bridge(args: &[OsString]) -> Result<Command, UsageError> {
    use lexopt::prelude::*;

    let mut parser = lexopt::Parser::from_args(args.iter().cloned());
    let (mut cmd, mut port, mut origin, mut timeout) = (None, None, None, None);
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => return Ok(Command::Help),
            Long("cmd") => set_once(&mut cmd, "cmd", parser.value()?.string()?)?,
            Long("port") => set_once(&mut port, "port", parser.value()?.string()?)?,
            Long("allow-origin") => {
                set_once(&mut origin, "allow-origin", parser.value()?.string()?)?
            }
            Long("timeout") => set_once(&mut timeout, "timeout", parser.value()?.string()?)?,
            Value(value) => {
                return Err(usage(
                    "cli.usage.bridge_argument",
                    "unexpected argument {value} (bridge takes the server as --cmd \"COMMAND\")",
                    &[("value", format!("{:?}", value.to_string_lossy()))],
                ))
            }
            other => return Err(other.unexpected().into()),
        }
    }
    let cmd = cmd.ok_or_else(|| {
        usage(
            "cli.usage.bridge_needs_cmd",
            "bridge needs --cmd \"COMMAND ARGS\" (a stdio server)",
            &[],
        )
    })?;
    let command = command_words(&cmd)?;
    let port = port.ok_or_else(|| {
        usage(
            "cli.usage.bridge_needs_port",
            "bridge needs --port N (0 = any free port)",
            &[],
        )
    })?;
    let port = port_number(&port)?;
    let allow_origin = origin
        .map(|o| crate::bridge::guard::parse_origin(&o))
        .transpose()?;
    let timeout_ms = match timeout {
        None => crate::bridge::DEFAULT_TIMEOUT_MS,
        Some(t) => count("timeout", &t, 1, 3_600_000)?,
    };
    Ok(Command::Bridge(crate::bridge::BridgeArgs {
        command,
        port,
        allow_origin,
        timeout_ms,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Command, UsageError> {
        parse(args.iter().copied())
    }

    /// Command lines that are usage errors (both tests below read them).
    const BAD: &[&[&str]] = &[
        &[],
        &["dance"],
        &["list", "--nope"],
        &["list", "--lang"],
        &["list", "--lang", "xx"],
        &["list", "--format", "json"],
        &["list", "--quiet"],
        &["list", "extra"],
        &["run", "--scenario", "a", "--scenario", "b"],
        &["run"],
        &["run", "--scenario", "a", "--file", "f"],
        &["run", "--scenario", "a", "--format", "xml"],
        &["export"],
        &["serve"],
        &["serve", "--file", "f"],
        &["serve", "--server", "s"],
        &["serve", "--preset", "p", "--file", "f"],
        &["serve", "--preset", "p", "--port", "1"],
        &["serve", "--preset", "p", "--transport", "http"],
        &[
            "serve",
            "--preset",
            "p",
            "--transport",
            "http",
            "--port",
            "x",
        ],
        &["serve", "--preset", "p", "--transport", "ftp"],
        &[
            "serve",
            "--preset",
            "p",
            "--transport",
            "http",
            "--port",
            "0",
            "--threads",
            "0",
        ],
        &["client"],
        &["client", "a", "b"],
        &["client", "--cmd", "x", "u"],
        &["client", "--cmd", "'", "--timeout", "9"],
        &["client", "--timeout", "0", "u"],
        &["check"],
        &["check", "x"],
        &["check", "--url", "u", "--cmd", "c"],
        &["check", "--url", "u", "--format", "xml"],
        &["check", "--url", "u", "--args", "{}"],
        &["check", "--url", "u", "--tool", "t", "--args", "[]"],
        &["check", "--cmd", "'"],
        &["bridge"],
        &["bridge", "x"],
        &["bridge", "--cmd", "c"],
        &["bridge", "--cmd", "c", "--port", "x"],
        &["frobnicate"],
        &["list", "extra"],
        &["list", "--scenario", "discover"],
        &["run"],
        &["run", "--scenario"],
        &["run", "--scenario", "a", "--scenario", "b"],
        &["run", "--scenario", "a", "--format", "yaml"],
        &["serve", "--transport", "http", "--preset", "notes"],
        &[
            "serve",
            "--transport",
            "http",
            "--port",
            "70000",
            "--preset",
            "notes",
        ],
        &[
            "serve",
            "--transport",
            "http",
            "--port",
            "-1",
            "--preset",
            "notes",
        ],
        &[
            "serve",
            "--transport",
            "stdio",
            "--port",
            "1",
            "--preset",
            "notes",
        ],
        &[
            "serve",
            "--transport",
            "carrier-pigeon",
            "--preset",
            "notes",
        ],
        &["serve", "--transport", "stdio"],
        &["list", "--bogus"],
        &["list", "-x"],
        &["serve", "--preset", "notes", "--quiet"],
        &["list", "--threads", "2"],
        &["export", "--scenario", "a", "--quiet"],
        &[
            "serve",
            "--transport",
            "http",
            "--port",
            "0",
            "--preset",
            "notes",
            "--threads",
            "0",
        ],
        &["run", "--scenario", "a", "--file", "b.json"],
        &["run", "--file", "b.json", "--server", "s"],
        &["serve", "--file", "b.json"],
        &["serve", "--server", "s"],
        &[
            "serve", "--preset", "notes", "--file", "b.json", "--server", "s",
        ],
        &["export"],
        &["export", "--scenario", "a", "--format", "json"],
        &["list", "--file", "b.json"],
        &["client"],
        &["client", "http://a", "http://b"],
        &["client", "--cmd", "x", "http://a"],
        &["client", "--cmd", "'unclosed"],
        &["client", "--timeout", "0", "http://a"],
        &["client", "--scenario", "x", "http://a"],
        &["bridge"],
        &["bridge", "--cmd", "x"],
        &["bridge", "--port", "0"],
        &["bridge", "--cmd", "x", "--port", "0", "--allow-origin", "*"],
        &[
            "bridge",
            "--cmd",
            "x",
            "--port",
            "0",
            "--allow-origin",
            "evil",
        ],
        &["bridge", "--cmd", "x", "--port", "70000"],
        &["bridge", "--cmd", "x", "--port", "0", "extra"],
        &["bridge", "--cmd", "", "--port", "0"],
    ];

    #[test]
    fn usage_errors_are_keyed_and_said_in_the_language_asked_for() {
        let en = crate::i18n::Catalog::load("en").expect("en");
        let zh = crate::i18n::Catalog::load("zh").expect("zh");
        for args in BAD {
            let Err(err) = p(args) else {
                panic!("{args:?} parses");
            };
            assert_eq!(
                en.text(err.key, ""),
                err.template,
                "{args:?}: {} is not in en.json as the code says it",
                err.key
            );
            assert_eq!(err.say(Some(&en)), err.to_string());
            if err.key != "cli.usage.as_is" {
                assert_ne!(err.say(Some(&zh)), err.to_string(), "{args:?}");
            }
        }
        assert_eq!(asked_lang(["run", "--lang", "zh"]).as_deref(), Some("zh"));
        assert_eq!(
            asked_lang(["run", "--lang=zh-CN"]).as_deref(),
            Some("zh-CN")
        );
        assert_eq!(asked_lang(["run", "--language"]), None);
    }

    #[test]
    fn parses_each_command() {
        assert!(matches!(p(&["list"]), Ok(Command::List { lang: None })));
        assert_eq!(
            p(&["list", "--lang", "zh"]),
            Ok(Command::List {
                lang: Some("zh".into())
            })
        );
        assert!(p(&["list", "--lang", "xx"]).is_err());
        assert!(p(&["export", "--scenario", "discover", "--lang", "zh"]).is_err());
        assert_eq!(
            p(&["run", "--scenario", "discover"]),
            Ok(Command::Run {
                scenario: Scenario::Builtin("discover".into()),
                format: Format::Text,
                lang: None,
            })
        );
        assert_eq!(
            p(&["run", "--format=json", "--scenario", "5"]),
            Ok(Command::Run {
                scenario: Scenario::Builtin("5".into()),
                format: Format::Json,
                lang: None,
            })
        );
        assert_eq!(
            p(&["serve", "--transport", "stdio", "--preset", "notes"]),
            Ok(Command::Serve {
                transport: Transport::Stdio,
                server: ServerSource::Preset("notes".into())
            })
        );
        assert_eq!(
            p(&["serve", "--preset", "notes"]),
            Ok(Command::Serve {
                transport: Transport::Stdio,
                server: ServerSource::Preset("notes".into())
            })
        );
        assert_eq!(
            p(&[
                "serve",
                "--transport",
                "http",
                "--port",
                "0",
                "--preset",
                "x"
            ]),
            Ok(Command::Serve {
                transport: Transport::Http(HttpOptions::on_port(0)),
                server: ServerSource::Preset("x".into())
            })
        );
        assert_eq!(
            p(&[
                "serve",
                "--transport",
                "http",
                "--port",
                "0",
                "--preset",
                "x",
                "--max-connections",
                "20000",
                "--threads",
                "1",
                "--session-idle",
                "60",
                "--max-sessions",
                "5",
                "--keep-alive",
                "2",
                "--quiet",
            ]),
            Ok(Command::Serve {
                transport: Transport::Http(HttpOptions {
                    port: 0,
                    max_connections: Some(20_000),
                    threads: Some(1),
                    session_idle_secs: 60,
                    max_sessions: 5,
                    keep_alive_secs: 2,
                    quiet: true,
                }),
                server: ServerSource::Preset("x".into())
            })
        );
        assert_eq!(
            p(&["run", "--file", "lesson.json", "--format", "json"]),
            Ok(Command::Run {
                scenario: Scenario::File("lesson.json".into()),
                format: Format::Json,
                lang: None,
            })
        );
        assert_eq!(
            p(&["serve", "--file", "lesson.json", "--server", "weather"]),
            Ok(Command::Serve {
                transport: Transport::Stdio,
                server: ServerSource::File {
                    path: "lesson.json".into(),
                    server: "weather".into()
                }
            })
        );
        assert_eq!(
            p(&["export", "--scenario", "discover"]),
            Ok(Command::Export {
                scenario: "discover".into()
            })
        );
        assert_eq!(p(&["--help"]), Ok(Command::Help));
        assert_eq!(p(&["run", "-h"]), Ok(Command::Help));
        assert_eq!(p(&["-V"]), Ok(Command::Version));
        assert_eq!(
            p(&["client", "--flow", "tools_call", "http://localhost:1/mcp"]),
            Ok(Command::Client(crate::client::ClientArgs {
                flow: Some("tools_call".into()),
                out: None,
                timeout_ms: None,
                target: crate::driver::Target::Http {
                    url: "http://localhost:1/mcp".into()
                },
                lang: None,
            }))
        );
        assert_eq!(
            p(&[
                "client",
                "--timeout",
                "500",
                "--cmd",
                "python3 'my server.py' --stdio"
            ]),
            Ok(Command::Client(crate::client::ClientArgs {
                flow: None,
                out: None,
                timeout_ms: Some(500),
                target: crate::driver::Target::Stdio {
                    command: vec!["python3".into(), "my server.py".into(), "--stdio".into()]
                },
                lang: None,
            }))
        );
    }

    #[test]
    fn parses_bridge() {
        assert_eq!(
            p(&[
                "bridge",
                "--cmd",
                "python3 server.py",
                "--port",
                "8931",
                "--allow-origin",
                "http://127.0.0.1:8080/"
            ]),
            Ok(Command::Bridge(crate::bridge::BridgeArgs {
                command: vec!["python3".into(), "server.py".into()],
                port: 8931,
                allow_origin: Some("http://127.0.0.1:8080".into()),
                timeout_ms: crate::bridge::DEFAULT_TIMEOUT_MS,
            }))
        );
    }

    #[test]
    fn refuses_what_does_not_fit() {
        for bad in BAD {
            assert!(p(bad).is_err(), "{bad:?} should be a usage error");
        }
    }
}
