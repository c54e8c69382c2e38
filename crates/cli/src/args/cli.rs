//! The clap definition of the command line: every command and option once,
//! with the help text `--help` prints (the doc comments of the commands
//! and options below *are* that text, so they speak to the user).
//!
//! Values stay strings here, as they were typed: `args/mod.rs` checks them
//! (numbers, ports, commands, origins, formats) in the order of the grammar
//! clap replaced, so each mistake keeps its keyed message and the same
//! command line gets the same first error. `format`, `transport`, `--lang`
//! and `completions SHELL` name their values ([`Choices`]) for `--help` and
//! the completion scripts.

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueHint};

/// The usage of each command, written once: its `--help` and the
/// top level's synopsis (`SYNOPSIS`) both show it.
macro_rules! list_usage {
    () => {
        "mcp-lanes list [--lang TAG]"
    };
}
macro_rules! run_usage {
    () => {
        "mcp-lanes run --scenario ID [--format text|json] [--lang TAG] [--keep-secrets]\n       mcp-lanes run --file PATH [--format text|json] [--lang TAG] [--keep-secrets]"
    };
}
macro_rules! serve_usage {
    () => {
        "mcp-lanes serve [--transport stdio] --preset ID\n       mcp-lanes serve --transport http --port N --preset ID [HTTP OPTIONS]\n       mcp-lanes serve [--transport stdio | --transport http --port N [HTTP OPTIONS]]\n                       --file PATH --server ID\n       mcp-lanes serve --replay FILE"
    };
}
macro_rules! export_usage {
    () => {
        "mcp-lanes export --scenario ID\n       mcp-lanes export --figure FILE [--lang TAG] [--document [--base URL]] [--out PATH]"
    };
}
macro_rules! client_usage {
    () => {
        "mcp-lanes client [--flow NAME] [--out FILE [--keep-secrets]] [--timeout MS] [--lang TAG] URL\n       mcp-lanes client [--flow NAME] [--out FILE [--keep-secrets]] [--timeout MS] [--lang TAG] --cmd \"COMMAND ARGS\""
    };
}
macro_rules! check_usage {
    () => {
        "mcp-lanes check (--url URL | --cmd \"COMMAND ARGS\") [--flow ID]...\n                       [--tool NAME [--args JSON]]... [--format text|json|junit] [--out FILE]\n                       [--timeout MS] [--lang TAG] [--token T | --authorize] [--other-audience-token T]\n                       [--low-scope-token T]\n       mcp-lanes check --transcript FILE [--format text|json|junit] [--out FILE] [--lang TAG]"
    };
}
macro_rules! bridge_usage {
    () => {
        "mcp-lanes bridge --cmd \"COMMAND ARGS\" --port N [--allow-origin ORIGIN] [--timeout MS]"
    };
}
macro_rules! tap_usage {
    () => {
        "mcp-lanes tap [--out FILE] [--log FILE] [--live N [--allow-origin ORIGIN]] [--lang TAG] -- COMMAND [ARGS]...\n       mcp-lanes tap --print-config HOST [--out FILE] -- COMMAND [ARGS]...\n       mcp-lanes tap --upstream URL --port N [--allow-origin ORIGIN] [--out FILE] [--har FILE] [--live N]\n                     [--keep-secrets] [--log FILE] [--lang TAG]\n       mcp-lanes tap --replay FILE [--lang TAG]"
    };
}
macro_rules! completions_usage {
    () => {
        "mcp-lanes completions SHELL"
    };
}

/// The top level's usage: the synopsis of every command (`--help`, and
/// below an error that names no command).
const SYNOPSIS: &str = concat!(
    list_usage!(),
    "\n       ",
    run_usage!(),
    "\n       ",
    serve_usage!(),
    "\n       ",
    export_usage!(),
    "\n       ",
    client_usage!(),
    "\n       ",
    check_usage!(),
    "\n       ",
    bridge_usage!(),
    "\n       ",
    tap_usage!(),
    "\n       ",
    completions_usage!(),
    "\n       ",
    "mcp-lanes [COMMAND] --help | --version"
);

/// What the top level's `--help` ends with.
const AFTER_HELP: &str = "\
`mcp-lanes COMMAND --help` tells a command's options.

Exit status: 0 on success, 1 on an I/O failure (client: an exchange failed \
below the protocol: a timeout, a closed connection, an answer over the size \
limit, a server that exits; check: a rule failed), 2 on a usage error or \
(client, check) an unreachable server; tap exits with its server's status.";

/// mcp-lanes: a simulator of MCP (Model Context Protocol) clients and servers
#[derive(Debug, Parser)]
#[command(
    name = "mcp-lanes",
    bin_name = "mcp-lanes",
    version,
    override_usage = SYNOPSIS,
    after_help = AFTER_HELP,
    subcommand_required = true,
    max_term_width = 100
)]
pub struct Cli {
    /// The command.
    #[command(subcommand)]
    pub command: Sub,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Sub {
    /// Print every scenario, server preset and client preset
    ///
    /// Print every scenario, server preset and client preset, one per line:
    /// ID<TAB>KIND<TAB>DESCRIPTION (KIND is scenario, server or client).
    #[command(override_usage = list_usage!())]
    List(ListOpts),
    /// Run a scenario on the virtual clock and print its transcript
    ///
    /// Run a scenario on the virtual clock and print its transcript: text
    /// (default) is a sequence listing per set-up; json prints {"scenario":
    /// ID, "setups": [{"label": ..., "transcript": [...]}]}. --file runs a
    /// scenario file (README: Scenario files); an invalid file gets every
    /// problem on stderr and exit status 2.
    #[command(override_usage = run_usage!())]
    Run(RunOpts),
    /// Serve a simulated server preset, or a server of a scenario file, for a real client
    ///
    /// Serve a simulated server preset, or a server of a scenario file, for
    /// a real client.
    ///
    /// stdio: one JSON-RPC message per line on stdin, replies on stdout, a
    /// log of rules and notes on stderr; exits when stdin closes.
    ///
    /// http: Streamable HTTP on http://127.0.0.1:N/mcp (loopback only);
    /// --port 0 picks a free port and prints it on stderr.
    ///
    /// --auth: /mcp becomes an OAuth protected resource, and an
    /// authorization server for labs answers on the same origin (issuer
    /// http://127.0.0.1:N). Lab shortcut: the user consents at once, so
    /// /authorize redirects straight back to the client with the code.
    #[command(override_usage = serve_usage!())]
    Serve(ServeOpts),
    /// Print a built-in scenario as a scenario file, or a file's complete figure as HTML
    ///
    /// --scenario: print a built-in scenario as a scenario file, to start
    /// one from.
    ///
    /// --figure: run a scenario file's set-ups and write their complete
    /// figure as static HTML (the page's views, every step and message
    /// drawn): the `div.app-root` a course page includes next to
    /// mcp-lanes' style.css and figure.js, or with --document a standalone
    /// HTML document that links them from --base. An invalid file gets
    /// every problem on stderr and exit status 2.
    #[command(override_usage = export_usage!())]
    Export(ExportOpts),
    /// Run the simulator's own client against a real server
    ///
    /// Run the simulator's own client against a real server: over
    /// Streamable HTTP at URL (http:// only), or over the stdio of COMMAND
    /// (started without a shell). Prints the run like `run`.
    ///
    /// The flow is --flow, else $MCP_CONFORMANCE_SCENARIO (the official
    /// conformance suite's client mode sets it and appends the URL), else
    /// `overview`. Flows: overview (discover and list), the conformance
    /// client scenarios (tools_call, request-metadata,
    /// sep-2322-client-request-state, http-standard-headers,
    /// http-custom-headers, http-invalid-tool-headers,
    /// json-schema-ref-no-deref, json-schema-2020-12-preservation), and every
    /// scenario id (its set-ups' client scripts).
    #[command(override_usage = client_usage!())]
    Client(ClientOpts),
    /// Grade a real server against the rule catalog
    ///
    /// Run the lesson flows against a real server and grade every exchange
    /// against the rule catalog (spec/RULES.md): pass, fail or n/a per
    /// rule, with what was expected, what came, the exchange and the spec
    /// link. Flows: discover, capabilities, unknown, version, meta, headers
    /// (HTTP), legacy, counter-offer. Only tools named with --tool, or
    /// marked readOnlyHint by the server, are ever called.
    ///
    /// --transcript grades a recorded conversation offline instead (- reads
    /// stdin): a transcript (a JSON array of JSON-RPC messages), the `run
    /// --format json` document, a HAR capture of Streamable HTTP, `client
    /// --out` timelines or a `check --out` report. Exit status 2 for a file
    /// that is none of them.
    #[command(override_usage = check_usage!())]
    Check(CheckOpts),
    /// Serve a stdio MCP server as Streamable HTTP, for the page's live check
    ///
    /// Serve a stdio MCP server (COMMAND, started once without a shell) as
    /// Streamable HTTP on http://127.0.0.1:N/mcp, so the page can check it
    /// from the browser. Only the page at --allow-origin may use it (CORS);
    /// other Host or Origin headers get 403 (DNS rebinding).
    #[command(override_usage = bridge_usage!())]
    Bridge(BridgeOpts),
    /// Stand between an MCP host and its server, and record what passes
    ///
    /// Start COMMAND as the server and pass every byte on unchanged, in
    /// order: the host's stdin to the server, the server's stdout back, its
    /// stderr to tap's stderr. What tap has to say goes to stderr (a line
    /// per message with the rules it broke; --log FILE instead), never to
    /// the protocol stream. Tap exits with the server's status, then writes
    /// --out as the page's timeline JSON (read by `check --transcript` and
    /// the page). In a host's configuration, start `mcp-lanes tap -- COMMAND
    /// ARGS` where the server's COMMAND ARGS were; `--print-config HOST`
    /// prints that entry (claude-desktop, vscode, cursor) and edits nothing.
    /// --upstream URL --port N is the same for Streamable HTTP, a reverse
    /// proxy on loopback; --replay FILE serves a recording back as its
    /// server.
    #[command(
        override_usage = tap_usage!()
    )]
    Tap(TapOpts),
    /// Print the completion script of a shell
    ///
    /// Print the completion script of a shell on stdout, e.g.
    /// `mcp-lanes completions bash > ~/.local/share/bash-completion/completions/mcp-lanes`.
    #[command(override_usage = completions_usage!())]
    Completions(CompletionsOpts),
}

/// `list`'s options.
#[derive(Debug, Args)]
pub struct ListOpts {
    /// Language of the scenario titles and descriptions (the page's catalogs: www/i18n/)
    #[arg(long, value_name = "TAG", allow_hyphen_values = true, value_parser = Choices::langs())]
    pub lang: Option<String>,
}

/// `run`'s options.
#[derive(Debug, Args)]
pub struct RunOpts {
    /// A catalog scenario: its id, or its number in `mcp-lanes list`
    #[arg(long, value_name = "ID", allow_hyphen_values = true)]
    pub scenario: Option<String>,
    /// A scenario file (JSON)
    #[arg(long, value_name = "PATH", allow_hyphen_values = true, value_hint = ValueHint::FilePath)]
    pub file: Option<String>,
    /// text (default): a sequence listing per set-up; json: the transcript document
    #[arg(long, value_name = "FORMAT", allow_hyphen_values = true, value_parser = Choices::new(&["text", "json"]))]
    pub format: Option<String>,
    /// Language of the text output: scenario title and summary, notes, outcomes and set-up labels (ids, MCP terms and JSON stay as they are)
    #[arg(long, value_name = "TAG", allow_hyphen_values = true, value_parser = Choices::langs())]
    pub lang: Option<String>,
    /// Keep tokens, authorization codes, code verifiers and client secrets in what is written (redacted by default)
    #[arg(long)]
    pub keep_secrets: bool,
}

/// `serve`'s options.
#[derive(Debug, Args)]
pub struct ServeOpts {
    /// stdio (default) or http
    #[arg(long, value_name = "T", allow_hyphen_values = true, value_parser = Choices::new(&["stdio", "http"]))]
    pub transport: Option<String>,
    /// TCP port for --transport http (0 = any free port)
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub port: Option<String>,
    /// A server preset (`mcp-lanes list` names them)
    #[arg(long, value_name = "ID", allow_hyphen_values = true)]
    pub preset: Option<String>,
    /// A scenario file (JSON) whose server to serve
    #[arg(long, value_name = "PATH", allow_hyphen_values = true, value_hint = ValueHint::FilePath)]
    pub file: Option<String>,
    /// The file's server to serve (an id of its servers, or a preset its set-ups use)
    #[arg(long, value_name = "ID", allow_hyphen_values = true)]
    pub server: Option<String>,
    /// Serve a recorded conversation back over stdio (tap --out, client --out, a transcript or HAR): each request matched with a recorded one gets the recorded answer, as tap --replay does
    #[arg(long, value_name = "FILE", allow_hyphen_values = true, value_hint = ValueHint::FilePath)]
    pub replay: Option<String>,
    /// Connections held at once; more wait to be accepted (default: set by memory and the open-file limit)
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        help_heading = "HTTP options"
    )]
    pub max_connections: Option<String>,
    /// Worker threads (default: one per core)
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        help_heading = "HTTP options"
    )]
    pub threads: Option<String>,
    /// A legacy session idle for S seconds expires; its id then gets 404 and the client initializes again (default 1800)
    #[arg(
        long,
        value_name = "S",
        allow_hyphen_values = true,
        help_heading = "HTTP options"
    )]
    pub session_idle: Option<String>,
    /// Legacy sessions kept at once; a new one beyond drops the one idle longest (default 10000)
    #[arg(
        long,
        value_name = "N",
        allow_hyphen_values = true,
        help_heading = "HTTP options"
    )]
    pub max_sessions: Option<String>,
    /// An open SSE stream silent for S seconds gets a comment, so a client that left is noticed (default 15)
    #[arg(
        long,
        value_name = "S",
        allow_hyphen_values = true,
        help_heading = "HTTP options"
    )]
    pub keep_alive: Option<String>,
    /// Log start, shutdown and failures only, not every request
    #[arg(long, help_heading = "HTTP options")]
    pub quiet: bool,
    /// Protect /mcp with OAuth: 401 without a token, and a lab authorization server (dynamic registration, PKCE S256, immediate consent, tokens bound to /mcp, refresh) on the same loopback origin
    #[arg(long, help_heading = "HTTP options")]
    pub auth: bool,
}

/// `export`'s options.
#[derive(Debug, Args)]
pub struct ExportOpts {
    /// A catalog scenario: its id, or its number in `mcp-lanes list`
    #[arg(long, value_name = "ID", allow_hyphen_values = true)]
    pub scenario: Option<String>,
    /// A scenario file (JSON) whose complete figure to write as HTML
    #[arg(long, value_name = "FILE", allow_hyphen_values = true, value_hint = ValueHint::FilePath)]
    pub figure: Option<String>,
    /// Language of the figure (default en; the file's own translation where it has one)
    #[arg(long, value_name = "TAG", allow_hyphen_values = true, value_parser = Choices::langs())]
    pub lang: Option<String>,
    /// Write the figure to PATH instead of stdout
    #[arg(long, value_name = "PATH", allow_hyphen_values = true, value_hint = ValueHint::FilePath)]
    pub out: Option<String>,
    /// A standalone HTML document around the figure, linking style.css and figure.js
    #[arg(long)]
    pub document: bool,
    /// Where the document finds style.css and figure.js (default: its own directory)
    #[arg(long, value_name = "URL", allow_hyphen_values = true, value_hint = ValueHint::Url)]
    pub base: Option<String>,
}

/// `client`'s options.
#[derive(Debug, Args)]
pub struct ClientOpts {
    /// The client's flow (default: $MCP_CONFORMANCE_SCENARIO, else overview)
    #[arg(long, value_name = "NAME", allow_hyphen_values = true)]
    pub flow: Option<String>,
    /// Write the client's runs as timeline JSON, the page's format
    #[arg(long, value_name = "FILE", allow_hyphen_values = true, value_hint = ValueHint::FilePath)]
    pub out: Option<String>,
    /// Deadline of each exchange in milliseconds (default 10000)
    #[arg(long, value_name = "MS", allow_hyphen_values = true)]
    pub timeout: Option<String>,
    /// A server to start (without a shell) and speak stdio with
    #[arg(long, value_name = "COMMAND ARGS", allow_hyphen_values = true, value_hint = ValueHint::CommandString)]
    pub cmd: Option<String>,
    /// Language of the printed runs (ids, MCP terms and JSON stay as they are)
    #[arg(long, value_name = "TAG", allow_hyphen_values = true, value_parser = Choices::langs())]
    pub lang: Option<String>,
    /// Keep tokens, authorization codes, code verifiers and client secrets in what is written (redacted by default)
    #[arg(long)]
    pub keep_secrets: bool,
    /// A Streamable HTTP server (http://HOST:PORT/PATH)
    #[arg(value_name = "URL", value_hint = ValueHint::Url)]
    pub url: Option<String>,
}

/// `check`'s options.
#[derive(Debug, Args)]
pub struct CheckOpts {
    /// A Streamable HTTP server (http://HOST:PORT/PATH)
    #[arg(long, value_name = "URL", allow_hyphen_values = true, value_hint = ValueHint::Url)]
    pub url: Option<String>,
    /// A server to start (without a shell) and speak stdio with
    #[arg(long, value_name = "COMMAND ARGS", allow_hyphen_values = true, value_hint = ValueHint::CommandString)]
    pub cmd: Option<String>,
    /// A recorded conversation to grade offline (transcript, run --format json, HAR, timelines or a report; - for stdin)
    #[arg(long, value_name = "FILE", allow_hyphen_values = true, value_hint = ValueHint::FilePath)]
    pub transcript: Option<String>,
    /// Run only this flow (repeatable; discover always runs)
    #[arg(long = "flow", value_name = "ID", allow_hyphen_values = true)]
    pub flows: Vec<String>,
    /// A tool the check may call (repeatable)
    #[arg(long = "tool", value_name = "NAME", allow_hyphen_values = true)]
    pub tools: Vec<String>,
    /// The arguments (a JSON object) of the --tool before it (default {})
    #[arg(long = "args", value_name = "JSON", allow_hyphen_values = true)]
    pub tool_args: Vec<String>,
    /// text (default): feedback to read; json: the report, with the page's timeline; junit: JUnit XML, a testcase per rule, for a course's autograder
    #[arg(long, value_name = "FORMAT", allow_hyphen_values = true, value_parser = Choices::new(&["text", "json", "junit"]))]
    pub format: Option<String>,
    /// Write the report as JSON (the page opens it)
    #[arg(long, value_name = "FILE", allow_hyphen_values = true, value_hint = ValueHint::FilePath)]
    pub out: Option<String>,
    /// Deadline of each exchange in milliseconds (default 10000)
    #[arg(long, value_name = "MS", allow_hyphen_values = true)]
    pub timeout: Option<String>,
    /// Language of the text report: headings, verdicts, rule summaries (ids, MCP terms, a server's words and JSON stay as they are)
    #[arg(long, value_name = "TAG", allow_hyphen_values = true, value_parser = Choices::langs())]
    pub lang: Option<String>,
    /// The tokens of the authorization checks.
    #[command(flatten)]
    pub tokens: TokenOpts,
}

/// `check`'s tokens, for a server that answers 401 (HTTP only).
#[derive(Debug, Args)]
pub struct TokenOpts {
    /// A token the server's authorization server issued for it: sent as Bearer with every flow, and must be accepted
    #[arg(long, value_name = "TOKEN", allow_hyphen_values = true)]
    pub token: Option<String>,
    /// A token issued for another resource: must be refused with 401
    #[arg(long, value_name = "TOKEN", allow_hyphen_values = true)]
    pub other_audience_token: Option<String>,
    /// A token for this server with too little scope: must get 403 insufficient_scope with the scope needed
    #[arg(long, value_name = "TOKEN", allow_hyphen_values = true)]
    pub low_scope_token: Option<String>,
    /// Without --token, when the server answers 401: get a token from the authorization server it names, by the OAuth flow `mcp-lanes client` runs (registration, PKCE, the authorization request, the token request), and run the flows with it. Only an authorization server that consents without a person (a lab server such as `serve --auth`) gives one
    #[arg(long)]
    pub authorize: bool,
}

impl From<TokenOpts> for crate::check::Tokens {
    fn from(o: TokenOpts) -> Self {
        crate::check::Tokens {
            token: o.token,
            other_audience: o.other_audience_token,
            low_scope: o.low_scope_token,
            authorize: o.authorize,
        }
    }
}

/// `bridge`'s options.
#[derive(Debug, Args)]
pub struct BridgeOpts {
    /// The stdio server to start once (without a shell)
    #[arg(long, value_name = "COMMAND ARGS", allow_hyphen_values = true, value_hint = ValueHint::CommandString)]
    pub cmd: Option<String>,
    /// TCP port on 127.0.0.1 (0 = any free port, printed on stderr)
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub port: Option<String>,
    /// The one page that may use the bridge (CORS), e.g. http://127.0.0.1:8080
    #[arg(long, value_name = "ORIGIN", allow_hyphen_values = true, value_hint = ValueHint::Url)]
    pub allow_origin: Option<String>,
    /// A request that gets nothing from the server for MS milliseconds gets 504 (default 30000)
    #[arg(long, value_name = "MS", allow_hyphen_values = true)]
    pub timeout: Option<String>,
}

/// `tap`'s options and the server's command line.
#[derive(Debug, Args)]
pub struct TapOpts {
    /// Write the conversation to FILE as the page's timeline JSON when the server exits
    #[arg(long, value_name = "FILE", allow_hyphen_values = true, value_hint = ValueHint::FilePath)]
    pub out: Option<String>,
    /// Write the line per message (time, direction, method or outcome, rules broken) to FILE instead of stderr
    #[arg(long, value_name = "FILE", allow_hyphen_values = true, value_hint = ValueHint::FilePath)]
    pub log: Option<String>,
    /// Print the configuration entry of HOST (claude-desktop, vscode, cursor) that starts the server through tap
    #[arg(long, value_name = "HOST", allow_hyphen_values = true)]
    pub print_config: Option<String>,
    /// Pass Streamable HTTP on to the server at URL (http://), recording what passes; with --port
    #[arg(long, value_name = "URL", allow_hyphen_values = true)]
    pub upstream: Option<String>,
    /// The loopback port the --upstream proxy listens on (0 = any free port)
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub port: Option<String>,
    /// The one page origin that may use the --upstream proxy from a browser (CORS)
    #[arg(long, value_name = "ORIGIN", allow_hyphen_values = true)]
    pub allow_origin: Option<String>,
    /// With --upstream: write what passed to FILE as a HAR 1.2 capture when tap stops
    #[arg(long, value_name = "FILE", allow_hyphen_values = true, value_hint = ValueHint::FilePath)]
    pub har: Option<String>,
    /// Serve the conversation as it happens on loopback port N (0 = any free port) to the page at --allow-origin: open /?tap=http://127.0.0.1:N/
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub live: Option<String>,
    /// Serve the recording FILE back over stdio as its server (no command): each request gets the recorded reply, with its id
    #[arg(long, value_name = "FILE", allow_hyphen_values = true, value_hint = ValueHint::FilePath)]
    pub replay: Option<String>,
    /// Language of what tap says on stderr
    #[arg(long, value_name = "TAG", allow_hyphen_values = true, value_parser = Choices::langs())]
    pub lang: Option<String>,
    /// Keep tokens, authorization codes, code verifiers and client secrets in what is written (redacted by default)
    #[arg(long)]
    pub keep_secrets: bool,
    /// The server's command line, after --
    #[arg(last = true, value_name = "COMMAND", value_hint = ValueHint::CommandWithArguments)]
    pub command: Vec<String>,
}

/// `completions`' argument.
#[derive(Debug, Args)]
pub struct CompletionsOpts {
    /// The shell
    #[arg(value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

/// A value parser that names the values an option takes (for `--help` and
/// the completion scripts) and accepts any string: which values are valid,
/// and the keyed message for one that is not, is `args/mod.rs`'s to say,
/// after the checks that come first.
#[derive(Debug, Clone)]
pub struct Choices(Vec<&'static str>);

impl Choices {
    /// The values `values`.
    pub fn new(values: &[&'static str]) -> Self {
        Choices(values.to_vec())
    }

    /// The languages of the catalogs (`--lang`).
    pub fn langs() -> Self {
        Choices(crate::i18n::CATALOGS.iter().map(|(tag, ..)| *tag).collect())
    }
}

impl TypedValueParser for Choices {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.0.iter().map(|v| PossibleValue::new(*v))))
    }
}
