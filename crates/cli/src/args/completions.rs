//! `completions SHELL`: the completion script clap writes for the grammar.

use clap::CommandFactory;

use super::cli;

/// The completion script of `shell`. clap_complete's bash script never
/// completes a command's options when the program's name has a hyphen
/// (clap issue 6421): bash's is made for `mcp_lanes`, then registered for
/// `mcp-lanes`.
pub(super) fn script(shell: clap_complete::Shell) -> String {
    let bash = shell == clap_complete::Shell::Bash;
    let name = if bash { "mcp_lanes" } else { "mcp-lanes" };
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cli::Cli::command(), name, &mut script);
    let script = String::from_utf8_lossy(&script).into_owned();
    if !bash {
        return script;
    }
    script
        .lines()
        .map(|line| match line.strip_suffix(" mcp_lanes") {
            Some(head) if line.trim_start().starts_with("complete ") => {
                format!("{head} mcp-lanes\n")
            }
            _ => format!("{line}\n"),
        })
        .collect()
}
