//! The benchmark's load generator: N keep-alive HTTP/1.1 connections, each
//! sending one request at a time (closed loop) to an MCP endpoint for a
//! fixed time, on hyper's client. Prints one JSON line: requests per
//! second, p50/p99 latency, failures.
//!
//! ```text
//! load --url http://127.0.0.1:PORT/mcp --work discover|call|legacy
//!      --connections N --seconds S [--warmup S] [--tool NAME]
//!      [--arguments JSON] [--threads N] [--rate R]
//! ```
//!
//! Without `--rate` the loop is closed: each connection sends its next
//! request as soon as the last is answered, so the figure is the most the
//! pair can do, and with N connections in flight the latency is N over the
//! throughput (Little's law), whatever the server. `--rate R` makes it open:
//! R requests per second in all, each connection on its own schedule
//! (spread evenly), and a request's latency counts from the time it was
//! due, not from when a busy client got round to sending it (no
//! coordinated omission). That is how a latency target at a given
//! concurrency is measured. `--threads N` runs the generator on N threads.
//!
//! `discover` and `call` are modern (2026-07-28) POSTs of server/discover
//! and tools/call; `legacy` opens one session per connection (initialize,
//! notifications/initialized, 2025-06-18) and then repeats tools/call in
//! it. A response counts when its status is 200 and its body names the
//! request's id; anything else is a failure. Only requests that start
//! after the warm-up and end before the deadline are counted.

use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1;
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use tokio::net::TcpStream;

#[derive(Clone, Debug)]
struct Plan {
    host: String,
    port: u16,
    path: String,
    work: String,
    connections: usize,
    seconds: f64,
    warmup: f64,
    tool: String,
    arguments: Value,
    /// Requests per second in all (`None`: closed loop).
    rate: Option<f64>,
}

#[derive(Default, Debug)]
struct Tally {
    latencies_us: Vec<u32>,
    /// Successful exchanges, warm-up included (for CPU per request).
    all_ok: u64,
    failures: u64,
    connect_failures: u64,
}

fn usage() -> ! {
    eprintln!("usage: load --url URL --work discover|call|legacy --connections N --seconds S [--warmup S] [--tool NAME] [--arguments JSON] [--threads N] [--rate R]");
    std::process::exit(2)
}

fn parse() -> (Plan, usize) {
    let mut args = std::env::args().skip(1);
    let mut url = String::new();
    let mut plan = Plan {
        host: String::new(),
        port: 0,
        path: "/mcp".into(),
        work: "discover".into(),
        connections: 1,
        seconds: 5.0,
        warmup: 1.0,
        tool: "list_incidents".into(),
        arguments: json!({}),
        rate: None,
    };
    let mut threads = 1;
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_else(|| usage());
        match flag.as_str() {
            "--url" => url = value,
            "--work" => plan.work = value,
            "--connections" => plan.connections = value.parse().unwrap_or_else(|_| usage()),
            "--seconds" => plan.seconds = value.parse().unwrap_or_else(|_| usage()),
            "--warmup" => plan.warmup = value.parse().unwrap_or_else(|_| usage()),
            "--tool" => plan.tool = value,
            "--arguments" => {
                plan.arguments = serde_json::from_str(&value).unwrap_or_else(|_| usage())
            }
            "--threads" => threads = value.parse().unwrap_or_else(|_| usage()),
            "--rate" => {
                plan.rate =
                    Some(value.parse().unwrap_or_else(|_| usage())).filter(|r: &f64| *r > 0.0)
            }
            _ => usage(),
        }
    }
    let rest = url.strip_prefix("http://").unwrap_or_else(|| usage());
    let (authority, path) = rest.split_once('/').unwrap_or((rest, "mcp"));
    let (host, port) = authority.rsplit_once(':').unwrap_or_else(|| usage());
    plan.host = host.to_string();
    plan.port = port.parse().unwrap_or_else(|_| usage());
    plan.path = format!("/{path}");
    (plan, threads)
}

const MODERN: &str = "2026-07-28";
const LEGACY: &str = "2025-06-18";

fn modern(id: u64, method: &str, mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn request(plan: &Plan, body: &Value, headers: &[(&str, &str)]) -> hyper::Request<Full<Bytes>> {
    let mut builder = hyper::Request::post(plan.path.as_str())
        .header("Host", format!("{}:{}", plan.host, plan.port))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream");
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    builder
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap_or_else(|_| usage())
}

/// Sends one request; the session id header (if any) and whether the reply
/// was a 2xx naming `id` (or, for a notification, any 2xx).
async fn exchange(
    sender: &mut http1::SendRequest<Full<Bytes>>,
    req: hyper::Request<Full<Bytes>>,
    id: Option<u64>,
) -> Option<(Option<String>, bool)> {
    let response = sender.send_request(req).await.ok()?;
    let session = response
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let status = response.status();
    let body = response.into_body().collect().await.ok()?.to_bytes();
    let ok = status.is_success()
        && match id {
            Some(id) => {
                let needle = format!("\"id\":{id}");
                body.windows(needle.len()).any(|w| w == needle.as_bytes())
            }
            None => true,
        };
    Some((session, ok))
}

async fn connect(plan: &Plan) -> Option<http1::SendRequest<Full<Bytes>>> {
    let stream = TcpStream::connect((plan.host.as_str(), plan.port))
        .await
        .ok()?;
    let _ = stream.set_nodelay(true);
    let (sender, conn) = http1::handshake(TokioIo::new(stream)).await.ok()?;
    tokio::spawn(conn);
    Some(sender)
}

async fn one_connection(plan: Arc<Plan>, index: usize, start: Instant) -> Tally {
    let mut tally = Tally::default();
    let measure_from = start + Duration::from_secs_f64(plan.warmup);
    let deadline = measure_from + Duration::from_secs_f64(plan.seconds);
    // Open loop: this connection's requests are due every `every`, the
    // connections' schedules spread evenly over one period.
    let every = plan
        .rate
        .map(|rate| Duration::from_secs_f64(plan.connections as f64 / rate));
    let mut due =
        every.map(|every| start + every.mul_f64(index as f64 / plan.connections.max(1) as f64));
    let mut sender = None;
    let mut session: Option<String> = None;
    let mut id = 0u64;
    while Instant::now() < deadline {
        let Some(s) = sender.as_mut() else {
            match connect(&plan).await {
                Some(s) => {
                    sender = Some(s);
                    session = None;
                }
                None => {
                    tally.connect_failures += 1;
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
            continue;
        };
        if plan.work == "legacy" && session.is_none() {
            let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": LEGACY, "capabilities": {},
                "clientInfo": {"name": "mcp-lanes-load", "version": "1.0"}}});
            match exchange(s, request(&plan, &init, &[]), Some(0)).await {
                // A stateless server mints no id: the session is empty.
                Some((sid, true)) => {
                    let sid = sid.unwrap_or_default();
                    let done = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
                    let mut headers = vec![("MCP-Protocol-Version", LEGACY)];
                    if !sid.is_empty() {
                        headers.push(("Mcp-Session-Id", sid.as_str()));
                    }
                    let _ = exchange(s, request(&plan, &done, &headers), None).await;
                    session = Some(sid);
                }
                _ => {
                    tally.failures += 1;
                    sender = None;
                }
            }
            continue;
        }
        id += 1;
        let began = match (due.as_mut(), every) {
            (Some(at), Some(every)) => {
                tokio::time::sleep_until((*at).into()).await;
                let this = *at;
                *at += every;
                this
            }
            _ => Instant::now(),
        };
        let name = plan.tool.clone();
        let (body, headers): (Value, Vec<(&str, String)>) = match plan.work.as_str() {
            "discover" => (
                modern(id, "server/discover", json!({})),
                vec![
                    ("MCP-Protocol-Version", MODERN.into()),
                    ("Mcp-Method", "server/discover".into()),
                ],
            ),
            "call" => (
                modern(
                    id,
                    "tools/call",
                    json!({"name": name, "arguments": plan.arguments}),
                ),
                vec![
                    ("MCP-Protocol-Version", MODERN.into()),
                    ("Mcp-Method", "tools/call".into()),
                    ("Mcp-Name", name.clone()),
                ],
            ),
            _ => (
                json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                    "params": {"name": name, "arguments": plan.arguments}}),
                match session.as_deref() {
                    Some(sid) if !sid.is_empty() => vec![
                        ("MCP-Protocol-Version", LEGACY.into()),
                        ("Mcp-Session-Id", sid.to_string()),
                    ],
                    _ => vec![("MCP-Protocol-Version", LEGACY.into())],
                },
            ),
        };
        let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let outcome = exchange(s, request(&plan, &body, &headers), Some(id)).await;
        let ended = Instant::now();
        let counted = began >= measure_from && ended <= deadline;
        match outcome {
            Some((_, true)) => {
                tally.all_ok += 1;
                if counted {
                    let us = ended.duration_since(began).as_micros();
                    tally
                        .latencies_us
                        .push(u32::try_from(us).unwrap_or(u32::MAX));
                }
            }
            Some((_, false)) => {
                if counted {
                    tally.failures += 1;
                }
            }
            None => {
                if counted {
                    tally.failures += 1;
                }
                sender = None;
            }
        }
    }
    tally
}

fn main() {
    let (plan, threads) = parse();
    let runtime = if threads <= 1 {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
    } else {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(threads)
            .enable_all()
            .build()
    }
    .unwrap_or_else(|_| usage());
    let plan = Arc::new(plan);
    let tallies = runtime.block_on(async {
        let start = Instant::now();
        let tasks: Vec<_> = (0..plan.connections)
            .map(|i| tokio::spawn(one_connection(Arc::clone(&plan), i, start)))
            .collect();
        let mut out = Vec::new();
        for task in tasks {
            if let Ok(t) = task.await {
                out.push(t);
            }
        }
        out
    });
    let mut all: Vec<u32> = Vec::new();
    let (mut failures, mut connect_failures, mut all_ok) = (0, 0, 0);
    for t in tallies {
        all.extend(t.latencies_us);
        all_ok += t.all_ok;
        failures += t.failures;
        connect_failures += t.connect_failures;
    }
    all.sort_unstable();
    let pct = |p: f64| -> f64 {
        if all.is_empty() {
            return 0.0;
        }
        let i = ((all.len() as f64 * p).ceil() as usize).clamp(1, all.len()) - 1;
        f64::from(all[i]) / 1000.0
    };
    let line = json!({
        "work": plan.work,
        "connections": plan.connections,
        "seconds": plan.seconds,
        "rate": plan.rate,
        "requests": all.len(),
        "rps": (all.len() as f64 / plan.seconds).round(),
        "p50_ms": (pct(0.50) * 1000.0).round() / 1000.0,
        "p99_ms": (pct(0.99) * 1000.0).round() / 1000.0,
        "failures": failures,
        "connect_failures": connect_failures,
        "all_ok": all_ok,
    });
    println!("{line}");
}
