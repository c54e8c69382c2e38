//! Usage errors: what `main` prints, exit status 2, when a command line
//! does not fit the grammar. The message is always a catalog's
//! (`cli.usage.*` of `www/i18n/<tag>.json`), said in the language of
//! `--lang`: clap's parse errors are mapped to keyed messages here, by
//! their kind, with the offending argument filled in ([`from_clap`]); the
//! grammar's own checks (`args/mod.rs`) are keyed where they are made.
//! Below the message come clap's "did you mean" (keyed too), the
//! command's usage lines and where to read more; the usage lines are
//! English, like `--help`.

use std::ffi::OsString;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::CommandFactory;

use super::cli::Cli;
use crate::i18n::{Catalog, Keyed};

/// The options of `serve --transport http` alone.
pub const HTTP_ONLY: [&str; 7] = [
    "max-connections",
    "threads",
    "session-idle",
    "max-sessions",
    "keep-alive",
    "quiet",
    "auth",
];

/// A command line that does not fit the grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError {
    /// What is wrong.
    pub message: Keyed,
    /// A similar command or option, when clap found one (boxed: the error
    /// stays small, as clippy asks of an `Err`).
    pub tip: Option<Box<Keyed>>,
    /// The command whose usage follows the message (`None`: the top level).
    pub command: Option<String>,
}

impl UsageError {
    /// The error line's message in `lang`'s language (English without one,
    /// or where the catalog has no text).
    pub fn say(&self, lang: Option<&Catalog>) -> String {
        self.message.say(lang)
    }

    /// All that `main` prints on stderr: `error: ` and the message, the
    /// tip, the command's usage and where to read more.
    pub fn report(&self, lang: Option<&Catalog>) -> String {
        let mut out = format!("error: {}\n", self.say(lang));
        if let Some(tip) = &self.tip {
            out.push_str(&format!("\n  {}\n", tip.say(lang)));
        }
        let mut cli = Cli::command();
        cli.build();
        let help = match &self.command {
            Some(name) => format!("mcp-lanes {name} --help"),
            None => "mcp-lanes --help".to_string(),
        };
        let usage = match self.command.as_deref() {
            Some(name) => cli.find_subcommand_mut(name).map(|c| c.render_usage()),
            None => None,
        }
        .unwrap_or_else(|| cli.render_usage());
        out.push_str(&format!("\n{usage}\n\n"));
        out.push_str(
            &Keyed::new(
                "cli.usage.more",
                "For more information, try '{help}'.",
                &[("help", help)],
            )
            .say(lang),
        );
        out.push('\n');
        out
    }
}

impl std::fmt::Display for UsageError {
    /// The English message.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.say(None))
    }
}

/// A usage error of `key` (English `template`) with `args`.
pub fn usage(key: &'static str, template: &'static str, args: &[(&'static str, String)]) -> Keyed {
    Keyed::new(key, template, args)
}

/// The command a command line is for: its first argument, when that names
/// one (the line is in order: see `hoist` in `args/mod.rs`).
fn command_of(args: &[OsString]) -> Option<String> {
    let first = args.first()?.to_str()?;
    Cli::command()
        .get_subcommands()
        .any(|c| c.get_name() == first)
        .then(|| first.to_string())
}

/// The commands, comma separated (`help` is clap's and left out).
fn commands() -> String {
    Cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .filter(|name| name != "help")
        .collect::<Vec<_>>()
        .join(", ")
}

/// A clap error as a keyed usage error: its kind chooses the catalog
/// message, its context fills it in (`args` are the arguments clap was
/// given, after the program name).
pub fn from_clap(err: &clap::Error, args: &[OsString]) -> UsageError {
    let command = command_of(args);
    let text = |kind| match err.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        _ => None,
    };
    let texts = |kind| match err.get(kind) {
        Some(ContextValue::String(s)) => vec![s.clone()],
        Some(ContextValue::Strings(v)) => v.clone(),
        _ => Vec::new(),
    };
    // clap names an option with its value (`--scenario <ID>`): the option.
    let option = |kind| {
        text(kind)
            .and_then(|a| a.split_whitespace().next().map(str::to_string))
            .unwrap_or_default()
    };
    let invalid_arg = option(ContextKind::InvalidArg);
    let value = text(ContextKind::InvalidValue).unwrap_or_default();
    let message = match err.kind() {
        ErrorKind::UnknownArgument => unknown_argument(
            &text(ContextKind::InvalidArg).unwrap_or_default(),
            command.as_deref(),
        ),
        ErrorKind::InvalidSubcommand => usage(
            "cli.usage.unknown_command",
            "unknown command {value}; commands: {commands}",
            &[
                (
                    "value",
                    format!(
                        "{:?}",
                        text(ContextKind::InvalidSubcommand).unwrap_or_default()
                    ),
                ),
                ("commands", commands()),
            ],
        ),
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            no_command()
        }
        ErrorKind::InvalidValue if value.is_empty() => usage(
            "cli.usage.missing_value_for",
            "missing argument for option '{option}'",
            &[("option", invalid_arg)],
        ),
        ErrorKind::InvalidValue => usage(
            "cli.usage.invalid_value",
            "invalid value {value} for {option}; possible values: {values}",
            &[
                ("value", format!("{value:?}")),
                ("option", invalid_arg),
                ("values", texts(ContextKind::ValidValue).join(", ")),
            ],
        ),
        ErrorKind::ArgumentConflict
            if text(ContextKind::InvalidArg) == text(ContextKind::PriorArg) =>
        {
            usage(
                "cli.usage.twice",
                "--{name} given more than once",
                &[("name", invalid_arg.trim_start_matches('-').to_string())],
            )
        }
        ErrorKind::ArgumentConflict => usage(
            "cli.usage.conflict",
            "{option} cannot be used with {other}",
            &[
                ("option", invalid_arg),
                ("other", texts(ContextKind::PriorArg).join(", ")),
            ],
        ),
        ErrorKind::MissingRequiredArgument => usage(
            "cli.usage.missing_required",
            "{command} needs {args}",
            &[
                (
                    "command",
                    command.clone().unwrap_or_else(|| "mcp-lanes".into()),
                ),
                ("args", texts(ContextKind::InvalidArg).join(", ")),
            ],
        ),
        ErrorKind::InvalidUtf8 => usage(
            "cli.usage.not_unicode",
            "argument is invalid unicode: {value}",
            &[(
                "value",
                args.iter()
                    .find(|a| a.to_str().is_none())
                    .map(|a| format!("{:?}", a.to_string_lossy()))
                    .unwrap_or_default(),
            )],
        ),
        ErrorKind::TooManyValues => usage(
            "cli.usage.unexpected_value",
            "unexpected argument for option '{option}': {value}",
            &[("option", invalid_arg), ("value", format!("{value:?}"))],
        ),
        ErrorKind::ValueValidation => usage(
            "cli.usage.bad_value",
            "invalid value {value} for {option}",
            &[("value", format!("{value:?}")), ("option", invalid_arg)],
        ),
        // Kinds this grammar never meets (no option takes several values
        // or needs `=`; help and version are not errors): clap's words.
        _ => usage("cli.usage.as_is", "{text}", &[("text", clap_line(err))]),
    };
    let suggested = |kind| texts(kind).join("', '");
    let tip = (if message.key == "cli.usage.no_command" {
        // An option before any command: clap's tip would be an option of
        // the top level (`--version`), not what was meant.
        None
    } else if err.get(ContextKind::SuggestedSubcommand).is_some() {
        Some(usage(
            "cli.usage.tip_command",
            "tip: a similar command exists: '{suggestion}'",
            &[("suggestion", suggested(ContextKind::SuggestedSubcommand))],
        ))
    } else if err.get(ContextKind::SuggestedArg).is_some() {
        Some(usage(
            "cli.usage.tip_option",
            "tip: a similar option exists: '{suggestion}'",
            &[("suggestion", suggested(ContextKind::SuggestedArg))],
        ))
    } else {
        None
    })
    .map(Box::new);
    UsageError {
        message,
        tip,
        command,
    }
}

/// `no command given`.
fn no_command() -> Keyed {
    usage(
        "cli.usage.no_command",
        "no command given; commands: {commands}",
        &[("commands", commands())],
    )
}

/// An argument no option of `command` takes: an option of another command
/// (or of `serve --transport http` alone), an option of none, or a value
/// where the command takes none (more).
fn unknown_argument(arg: &str, command: Option<&str>) -> Keyed {
    let Some(flag) = arg
        .strip_prefix('-')
        .map(|_| arg.split('=').next().unwrap_or(arg))
    else {
        let value = ("value", format!("{arg:?}"));
        return match command {
            Some("client") => usage(
                "cli.usage.client_one_url",
                "unexpected argument {value} (client takes one URL)",
                &[value],
            ),
            Some("check") => usage(
                "cli.usage.check_argument",
                "unexpected argument {value} (check takes --url URL or --cmd \"COMMAND\")",
                &[value],
            ),
            Some("bridge") => usage(
                "cli.usage.bridge_argument",
                "unexpected argument {value} (bridge takes the server as --cmd \"COMMAND\")",
                &[value],
            ),
            _ => usage(
                "cli.usage.unexpected_argument",
                "unexpected argument {value}",
                &[value],
            ),
        };
    };
    let name = flag.trim_start_matches('-');
    let elsewhere = flag.starts_with("--")
        && Cli::command()
            .get_subcommands()
            .flat_map(|c| c.get_arguments())
            .any(|a| a.get_long() == Some(name));
    match command {
        Some(_) if HTTP_ONLY.contains(&name) => usage(
            "cli.usage.http_only",
            "--{name} only applies to {what}",
            &[
                ("name", name.to_string()),
                ("what", "serve --transport http".to_string()),
            ],
        ),
        Some(command) if elsewhere => usage(
            "cli.usage.not_for_command",
            "--{name} does not apply to `{command}`",
            &[("name", name.to_string()), ("command", command.to_string())],
        ),
        None if elsewhere => no_command(),
        _ => usage(
            "cli.usage.invalid_option",
            "invalid option '{option}'",
            &[("option", flag.to_string())],
        ),
    }
}

/// The first line of clap's own message, without its `error: `.
fn clap_line(err: &clap::Error) -> String {
    let text = err.render().to_string();
    let line = text.lines().next().unwrap_or_default();
    line.strip_prefix("error: ").unwrap_or(line).to_string()
}
