//! `tap`'s command line checked into [`crate::tap::TapArgs`].

use super::cli::TapOpts;
use super::usage::usage;
use super::{catalog, port_number, Command};
use crate::i18n::Keyed;

/// `tap`: the server's command (after `--`), `--out`, `--log`,
/// `--print-config`, or `--replay FILE` instead of a command.
pub(super) fn tap(o: TapOpts) -> Result<Command, Keyed> {
    if o.replay.is_some() && !o.command.is_empty() {
        return Err(usage(
            "cli.usage.tap_replay_no_command",
            "tap --replay FILE is the server: it takes no command after --",
            &[],
        ));
    }
    if o.upstream.is_some() && !o.command.is_empty() {
        return Err(usage(
            "cli.usage.tap_upstream_no_command",
            "tap --upstream URL passes HTTP on to a running server: it takes no command after --",
            &[],
        ));
    }
    if o.har.is_some() && o.upstream.is_none() {
        return Err(usage(
            "cli.usage.tap_har_needs_upstream",
            "--har FILE records HTTP: it goes with --upstream URL",
            &[],
        ));
    }
    if let Some(url) = &o.upstream {
        crate::driver::Endpoint::parse(url)?;
        if o.port.is_none() {
            return Err(usage(
                "cli.usage.tap_needs_port",
                "tap --upstream URL needs --port N (0 = any free port)",
                &[],
            ));
        }
    }
    let port = o.port.as_deref().map(port_number).transpose()?.unwrap_or(0);
    let live = o.live.as_deref().map(port_number).transpose()?;
    if live.is_some() && (o.replay.is_some() || o.print_config.is_some()) {
        return Err(usage(
            "cli.usage.tap_live_needs_conversation",
            "--live N serves a conversation as it passes: it goes with a server's command or --upstream URL",
            &[],
        ));
    }
    let allow_origin = o
        .allow_origin
        .map(|origin| crate::bridge::guard::parse_origin(&origin))
        .transpose()?;
    if o.command.is_empty() && o.replay.is_none() && o.upstream.is_none() {
        return Err(usage(
            "cli.usage.tap_needs_command",
            "tap needs the server's command after --: mcp-lanes tap -- COMMAND ARGS",
            &[],
        ));
    }
    if let Some(host) = &o.print_config {
        if !crate::tap::HOSTS.iter().any(|(h, _)| h == host) {
            return Err(usage(
                "cli.usage.tap_unknown_host",
                "--print-config {value}: tap knows {hosts}",
                &[
                    ("value", host.clone()),
                    (
                        "hosts",
                        crate::tap::HOSTS
                            .iter()
                            .map(|(h, _)| *h)
                            .collect::<Vec<_>>()
                            .join(", "),
                    ),
                ],
            ));
        }
    }
    Ok(Command::Tap(crate::tap::TapArgs {
        command: o.command,
        out: o.out.map(std::path::PathBuf::from),
        log: o.log.map(std::path::PathBuf::from),
        print_config: o.print_config,
        replay: o.replay,
        upstream: o.upstream,
        port,
        allow_origin,
        har: o.har.map(std::path::PathBuf::from),
        keep_secrets: o.keep_secrets,
        live,
        lang: catalog(o.lang)?,
    }))
}
