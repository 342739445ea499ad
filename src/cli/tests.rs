//! Tests of the command-line definition itself: every command and option is
//! documented, and clap's own consistency checks pass.

use super::Cli;
use clap::CommandFactory;

/// Every subcommand has an about line and every argument of every command (global
/// options included) has help text, so no `--help` shows a bare option.
#[test]
fn every_command_and_option_has_help_text() {
    fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
        for arg in cmd.get_arguments() {
            let id = arg.get_id().as_str();
            if id == "help" || id == "version" {
                continue;
            }
            let blank = |t: Option<&clap::builder::StyledStr>| {
                t.is_none_or(|t| t.to_string().trim().is_empty())
            };
            if blank(arg.get_help()) && blank(arg.get_long_help()) {
                missing.push(format!("{path} {id}"));
            }
        }
        for sub in cmd.get_subcommands() {
            let name = format!("{path} {}", sub.get_name());
            if sub.get_name() != "help" && sub.get_about().is_none() {
                missing.push(format!("{name} (no about)"));
            }
            walk(sub, &name, missing);
        }
    }
    let cmd = Cli::command();
    cmd.clone().debug_assert();
    let mut missing = Vec::new();
    walk(&cmd, "wordle-tree", &mut missing);
    assert!(missing.is_empty(), "without help text: {missing:#?}");
}
