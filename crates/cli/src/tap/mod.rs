//! `mcp-lanes tap [--out FILE] [--lang TAG] -- COMMAND ARGS`: a stdio shim
//! between an MCP host and the server it starts. The host runs tap where it
//! ran the server; tap starts the server and passes the bytes on unchanged
//! and in order (the host's stdin to the server, the server's stdout back,
//! its stderr straight to tap's stderr), and records what it reads as it
//! passes. Tap never writes to the protocol stream: what it has to say
//! (lines that are not JSON, lines too long to record, a last line without
//! its newline) goes to stderr. It exits with the server's status, and
//! then writes `--out` as the page's timeline JSON (what `check
//! --transcript`, the page's `?timeline=` and the check panel read).
//!
//! `tap --print-config NAME -- COMMAND ARGS` prints the entry a host's
//! configuration needs ([`hosts`]); tap edits no configuration file.
//! `tap --replay FILE` serves a recording back as its server ([`replay`]);
//! `tap --upstream URL --port N` is the same tap for Streamable HTTP, a
//! reverse proxy on loopback ([`proxy`]). `--live N` serves the
//! conversation as it happens to the page, as server-sent events ([`live`]).

mod gone;
mod har;
mod hosts;
mod lines;
mod live;
mod log;
mod proxy;
mod replay;
mod tape;

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::Duration;

use crate::i18n::Catalog;
use crate::Failure;
use lines::Lines;
use log::{Fed, Log};
use tape::{Pipe, Said, Tape};

pub use hosts::HOSTS;

/// How long tap waits, once the server has exited, for the rest of what
/// it wrote (a child of the server may keep its stdout open).
const DRAIN_WAIT: Duration = Duration::from_secs(2);

/// What `tap` was asked to do.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TapArgs {
    /// The server's command line, program first.
    pub command: Vec<String>,
    /// `--out`: where the conversation goes, as timeline JSON.
    pub out: Option<PathBuf>,
    /// `--log`: where the line per message goes (stderr without it).
    pub log: Option<PathBuf>,
    /// `--print-config NAME`: print the host's configuration entry instead.
    pub print_config: Option<String>,
    /// `--replay FILE`: serve this recording back instead of a server.
    pub replay: Option<String>,
    /// `--upstream URL`: proxy Streamable HTTP to this server instead.
    pub upstream: Option<String>,
    /// `--port N`: where the proxy listens (0: any free port).
    pub port: u16,
    /// `--allow-origin ORIGIN`: the one page that may use the proxy.
    pub allow_origin: Option<String>,
    /// `--har FILE`: the proxy's traffic as a HAR capture.
    pub har: Option<PathBuf>,
    /// `--live N`: serve the conversation to the page on this loopback
    /// port as it happens (0: any free port).
    pub live: Option<u16>,
    /// `--lang`: the language of what tap says on stderr (checked).
    pub lang: Option<String>,
    /// `--keep-secrets`: tokens and codes left in `--out` and `--har`.
    pub keep_secrets: bool,
}

/// Runs the server through tap (or prints a host's entry).
pub fn tap(args: &TapArgs) -> Result<(), Failure> {
    let lang = Catalog::or_english(args.lang.as_deref());
    if let Some(host) = &args.print_config {
        return print_config(args, host, &lang);
    }
    if let Some(path) = &args.replay {
        return replay::replay(path, &lang);
    }
    if let Some(url) = &args.upstream {
        return http_tap(args, url, lang);
    }
    let (program, rest) = args
        .command
        .split_first()
        .ok_or_else(|| Failure::Usage("tap needs the server's command after --".into()))?;
    let log_file = open_log(args, &lang)?;
    let hub = start_live(args, &args.command.join(" "), &lang)?;
    let mut child = Command::new(program)
        .args(rest)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| {
            Failure::Io(lang.fill(
                "cli.tap.spawn",
                "cannot start {command}: {error}",
                &[("command", program.clone()), ("error", e.to_string())],
            ))
        })?;
    let tape = Arc::new(Mutex::new(Tape::new()));
    let (feed, logger) = start_log(args, log_file, &args.command.join(" "));
    let lang = Arc::new(lang);
    let (left, client_left) = mpsc::channel();
    if let Some(to_server) = child.stdin.take() {
        let (tape, lang, feed, hub) = (tape.clone(), lang.clone(), feed.clone(), hub.clone());
        // Not joined: the host may keep its end open after the server left.
        thread::spawn(move || {
            let sides = Sides {
                tape: &tape,
                lang: &lang,
                log: &feed,
                live: hub.as_deref(),
            };
            pump(io::stdin().lock(), to_server, Pipe::Client, &sides);
            let _ = left.send(());
        });
    }
    let (done, drained) = mpsc::channel();
    if let Some(from_server) = child.stdout.take() {
        let (tape, lang, feed, hub) = (tape.clone(), lang.clone(), feed.clone(), hub.clone());
        thread::spawn(move || {
            let sides = Sides {
                tape: &tape,
                lang: &lang,
                log: &feed,
                live: hub.as_deref(),
            };
            pump(from_server, io::stdout(), Pipe::Server, &sides);
            let _ = done.send(());
        });
    }
    let status = gone::wait_server(&mut child, &client_left, &lang)
        .map_err(|e| Failure::Io(e.to_string()))?;
    let _ = drained.recv_timeout(DRAIN_WAIT);
    let tape = tape.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // The last grade, written before tap's last words.
    let _ = feed.send(Fed::End);
    let _ = logger.join();
    if let Some(hub) = &hub {
        hub.end();
    }
    finish(args, &tape, &lang);
    match exit_code(&status) {
        0 => Ok(()),
        code => Err(Failure::Exit(code)),
    }
}

/// `--log FILE` opened (before the server starts or the proxy listens: a
/// file that cannot be written stops tap there); `None` for stderr.
fn open_log(args: &TapArgs, lang: &Catalog) -> Result<Option<std::fs::File>, Failure> {
    let Some(path) = &args.log else {
        return Ok(None);
    };
    std::fs::File::create(path).map(Some).map_err(|e| {
        Failure::Usage(lang.fill(
            "cli.tap.log_unwritable",
            "cannot write the log {path}: {error}",
            &[
                ("path", path.display().to_string()),
                ("error", e.to_string()),
            ],
        ))
    })
}

/// `--live N`: listening (before the server starts: a port that cannot
/// be had stops tap there), serving the page, and said on stderr; the hub
/// the pumps feed. `None` without `--live`.
fn start_live(
    args: &TapArgs,
    label: &str,
    lang: &Catalog,
) -> Result<Option<Arc<live::Hub>>, Failure> {
    let Some(port) = args.live else {
        return Ok(None);
    };
    let (listener, port) = live::listen(port).map_err(|e| {
        Failure::Io(lang.fill(
            "cli.tap.cannot_listen",
            "cannot listen on 127.0.0.1:{port}: {error}",
            &[("port", port.to_string()), ("error", e.to_string())],
        ))
    })?;
    let hub = live::Hub::new(label, !args.keep_secrets);
    live::serve(listener, Arc::clone(&hub), args.allow_origin.clone());
    let url = format!("http://127.0.0.1:{port}/");
    say(&lang.fill(
        "cli.tap.live",
        "the conversation, live: {url} (open the page at /?tap={url}; it must be --allow-origin)",
        &[("url", url.clone())],
    ));
    Ok(Some(hub))
}

/// The log's thread (a run called `label`), writing to `file` or stderr,
/// and its feed.
fn start_log(
    args: &TapArgs,
    file: Option<std::fs::File>,
    label: &str,
) -> (mpsc::Sender<Fed>, thread::JoinHandle<()>) {
    let (feed, fed) = mpsc::channel();
    let log = Log::new(Catalog::or_english(args.lang.as_deref()), label);
    let logger = thread::spawn(move || match file {
        Some(mut file) => log.run(&fed, &mut file),
        None => log.run(&fed, &mut io::stderr()),
    });
    (feed, logger)
}

/// `--upstream URL --port N`: the reverse proxy, until a stop signal;
/// then the last grade and `--out`.
fn http_tap(args: &TapArgs, url: &str, lang: Catalog) -> Result<(), Failure> {
    let upstream = crate::driver::Endpoint::parse(url)
        .map_err(|keyed| Failure::Usage(keyed.say(Some(&lang))))?;
    let log_file = open_log(args, &lang)?;
    // One thread: a request and its upstream exchange stay on it (no
    // hop between cores per request); nothing here blocks for long.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Io(e.to_string()))?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(("127.0.0.1", args.port)))
        .map_err(|e| {
            Failure::Io(lang.fill(
                "cli.tap.cannot_listen",
                "cannot listen on 127.0.0.1:{port}: {error}",
                &[("port", args.port.to_string()), ("error", e.to_string())],
            ))
        })?;
    let port = listener.local_addr().map_or(args.port, |a| a.port());
    let hub = start_live(args, url, &lang)?;
    let tape = Arc::new(Mutex::new(Tape::new()));
    let (feed, logger) = start_log(args, log_file, url);
    say(&lang.fill(
        "cli.tap.proxying",
        "passing http://127.0.0.1:{port}{path} on to {upstream} (Ctrl-C stops)",
        &[
            ("port", port.to_string()),
            ("path", upstream.path.clone()),
            ("upstream", url.to_string()),
        ],
    ));
    let shared = Arc::new(proxy::Shared {
        upstream,
        policy: crate::bridge::guard::Policy {
            port,
            origin: args.allow_origin.clone(),
        },
        tape: Arc::clone(&tape),
        log: feed.clone(),
        har: args.har.as_ref().map(|_| Mutex::new(Vec::new())),
        live: hub.clone(),
        lang: lang.clone(),
    });
    runtime.block_on(proxy::serve(listener, Arc::clone(&shared)));
    runtime.shutdown_timeout(Duration::from_millis(500));
    let _ = feed.send(Fed::End);
    let _ = logger.join();
    if let Some(hub) = &hub {
        hub.end();
    }
    let tape = tape.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    finish(args, &tape, &lang);
    if let (Some(path), Some(exchanges)) = (&args.har, &shared.har) {
        let exchanges = exchanges.lock().unwrap_or_else(|p| p.into_inner());
        let mut capture = har::capture(&exchanges);
        if !args.keep_secrets {
            mcp_lanes_core::redact::json(&mut capture);
        }
        let text = capture.to_string() + "\n";
        let written = write_whole(path, &text).map_err(|e| e.to_string());
        said_written(
            &lang,
            written,
            path,
            (
                "cli.tap.har_written",
                "{count} HTTP exchanges written to {path}",
            ),
            exchanges.len(),
        );
    }
    Ok(())
}

/// The status tap exits with: the server's, or 128 + the signal that
/// ended it (as a shell says it).
fn exit_code(status: &std::process::ExitStatus) -> u8 {
    if let Some(code) = status.code() {
        return u8::try_from(code).unwrap_or(1);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return u8::try_from(128 + signal).unwrap_or(1);
        }
    }
    1
}

/// What both pumps share: the record, the language of tap's notes, the
/// log's feed and the live view's hub.
struct Sides<'a> {
    tape: &'a Mutex<Tape>,
    lang: &'a Catalog,
    log: &'a mpsc::Sender<Fed>,
    live: Option<&'a live::Hub>,
}

/// Passes `from` on to `to` chunk by chunk as it comes, and records each
/// line a chunk completes first (a copy goes to the log and the live view). A reader that is gone does
/// not stop the reading (nothing blocks the writer on the other side); the
/// end of `from` ends it, and closes `to`.
fn pump(mut from: impl Read, mut to: impl Write, pipe: Pipe, sides: &Sides) {
    let Sides {
        tape,
        lang,
        log,
        live,
    } = sides;
    let mut lines = Lines::default();
    let mut buf = vec![0u8; 64 * 1024];
    let mut open = true;
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        // Recorded before it is passed on: a server that reads a request
        // and exits at once must not end the recording, the log and the
        // live view before they hold what it was sent.
        for line in lines.feed(&buf[..n]) {
            let (said, entry) = {
                let mut tape = tape.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                let before = tape.len();
                let said = tape.record(pipe, line);
                let entry = (tape.len() > before)
                    .then(|| tape.last().cloned())
                    .flatten();
                (said, entry)
            };
            if let Some(entry) = entry {
                if let Some(hub) = live {
                    hub.push(&entry);
                }
                let _ = log.send(Fed::Entry(entry));
            }
            if let Some(said) = said {
                say(&words(lang, &said));
            }
        }
        if open && to.write_all(&buf[..n]).and_then(|()| to.flush()).is_err() {
            open = false;
            if pipe == Pipe::Server {
                gone::said(tape, log, *live, gone::Gone::StoppedReading, None);
            }
        }
    }
    if pipe == Pipe::Client {
        gone::said(tape, log, *live, gone::Gone::ClosedStdin, None);
    }
    if let Some(bytes) = lines.finish() {
        say(&lang.fill(
                "cli.tap.partial",
                "the {side} ended with {bytes} bytes after its last newline (not a whole message; passed on, not recorded)",
                &[("side", side(lang, pipe)), ("bytes", bytes.to_string())],
            ),
        );
    }
}

/// "the client" or "the server", in the language.
fn side(lang: &Catalog, pipe: Pipe) -> String {
    match pipe {
        Pipe::Client => lang.text("cli.tap.client", "client"),
        Pipe::Server => lang.text("cli.tap.server", "server"),
    }
}

/// What tap says about a line.
fn words(lang: &Catalog, said: &Said) -> String {
    match said {
        Said::NotJson { from, index, error } => lang.fill(
            "cli.tap.not_json",
            "line {index} from the {side} is not JSON ({error}); passed on, recorded as text",
            &[
                ("index", index.to_string()),
                ("side", side(lang, *from)),
                ("error", error.clone()),
            ],
        ),
        Said::TooLong { from, index, bytes } => lang.fill(
            "cli.tap.too_long",
            "line {index} from the {side} is {bytes} bytes, over what tap records; passed on, not recorded",
            &[
                ("index", index.to_string()),
                ("side", side(lang, *from)),
                ("bytes", bytes.to_string()),
            ],
        ),
        Said::Full { messages } => lang.fill(
            "cli.tap.full",
            "{messages} messages recorded, as many as a recording holds: later ones are passed on, not recorded",
            &[("messages", messages.to_string())],
        ),
    }
}

/// One line on stderr, as tap's (the program's name is no word to
/// translate), in one write: the server writes to the same stderr, and a
/// write of a short line is not cut by another.
pub(super) fn say(text: &str) {
    let line = format!("mcp-lanes tap: {text}\n");
    let _ = io::stderr().lock().write_all(line.as_bytes());
}

/// After the server's exit: how much was recorded, and `--out` written.
fn finish(args: &TapArgs, tape: &Tape, lang: &Catalog) {
    let Some(path) = &args.out else {
        return;
    };
    let label = args
        .upstream
        .clone()
        .unwrap_or_else(|| args.command.join(" "));
    let written = tape
        .timelines(&label)
        .map(|timelines| mcp_lanes_core::redact::timelines(&timelines, args.keep_secrets))
        .and_then(|timelines| serde_json::to_string(&timelines).map_err(|e| e.to_string()))
        .and_then(|json| write_whole(path, &(json + "\n")).map_err(|e| e.to_string()));
    said_written(
        lang,
        written,
        path,
        ("cli.tap.written", "{count} messages written to {path}"),
        tape.len(),
    );
}

/// Says on stderr that `count` things went to `path` (`done`: the key and
/// English of that sentence), or why nothing was written.
fn said_written(
    lang: &Catalog,
    written: Result<(), String>,
    path: &std::path::Path,
    done: (&str, &str),
    count: usize,
) {
    let path = path.display().to_string();
    match written {
        Ok(()) => say(&lang.fill(
            done.0,
            done.1,
            &[("count", count.to_string()), ("path", path)],
        )),
        Err(error) => say(&lang.fill(
            "cli.tap.not_written",
            "nothing written to {path}: {error}",
            &[("path", path), ("error", error)],
        )),
    }
}

/// Writes `text` to `path` whole or not at all: to a file beside it, then
/// renamed, so that a reader never sees half a recording.
fn write_whole(path: &std::path::Path, text: &str) -> io::Result<()> {
    let mut part = path.as_os_str().to_owned();
    part.push(".part");
    let part = PathBuf::from(part);
    std::fs::write(&part, text)?;
    std::fs::rename(&part, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&part);
    })
}

/// `--print-config NAME`: the host's entry on stdout, where it goes on
/// stderr.
fn print_config(args: &TapArgs, host: &str, lang: &Catalog) -> Result<(), Failure> {
    let program = std::env::current_exe()
        .ok()
        .and_then(|p| p.to_str().map(str::to_string))
        .unwrap_or_else(|| "mcp-lanes".into());
    let mut tap_args = Vec::new();
    if let Some(out) = &args.out {
        let out = std::path::absolute(out).unwrap_or_else(|_| out.clone());
        tap_args.extend(["--out".to_string(), out.display().to_string()]);
    }
    let (Some(entry), Some(place)) = (
        hosts::entry(host, &program, &tap_args, &args.command),
        hosts::place(host),
    ) else {
        return Err(Failure::Usage(lang.fill(
            "cli.tap.unknown_host",
            "no host called {host}: tap knows {hosts}",
            &[
                ("host", host.to_string()),
                (
                    "hosts",
                    HOSTS.iter().map(|(h, _)| *h).collect::<Vec<_>>().join(", "),
                ),
            ],
        )));
    };
    say(&lang.fill(
        "cli.tap.place",
        "add this to {place}:",
        &[("place", place.to_string())],
    ));
    let text = serde_json::to_string_pretty(&entry).unwrap_or_default();
    crate::print(&(text + "\n"))
}
