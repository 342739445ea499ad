//! The command-line definition itself, checked through the test build of the binary
//! (moved here from the binary's unit tests, whose build compiled the whole CLI a
//! second time; see the test chapter of docs/guide/performance.md): clap's own
//! consistency checks pass for every command, every command and every argument says
//! what it is, and every command's `--help` ends with examples.
//!
//! `completions SHELL` builds the whole command tree (`Command::build`, every
//! subcommand), and in a build with debug assertions, as the `test` profile's binary
//! is, clap checks each command as it builds it: the same checks as
//! `Command::debug_assert`. The zsh script is the one generated text that names every
//! command with its about line and every argument (global options under each
//! command, positionals included) with its help (the short help, the first
//! paragraph of a doc comment), so an empty one is visible in it.

use crate::common::{cli, stdout};

/// The zsh completion script of the test build (clap's debug checks run on it).
fn zsh_script() -> String {
    let out = cli().args(["completions", "zsh"]).output().unwrap();
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    stdout(&out)
}

/// The text of `s` up to its first `end` not escaped by a backslash, and whether
/// one was found.
fn until_unescaped(s: &str, end: char) -> Option<&str> {
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            c if c == end && !escaped => return Some(&s[..i]),
            _ => escaped = false,
        }
    }
    None
}

/// What one quoted line of the zsh script declares: an option or flag
/// (`'--name=[help]...'`, `'--name[help]'`), a positional (`':name -- help:...'`),
/// or a command of a commands list (`'name:about'`).
#[derive(Debug, PartialEq)]
enum Item<'a> {
    Option { name: &'a str, help: &'a str },
    Positional { spec: &'a str },
    Command { name: &'a str, about: &'a str },
}

fn item(line: &str) -> Option<Item<'_>> {
    let rest = line.strip_prefix('\'')?;
    // Conflicts, `(--tree)`, and the repeat mark `*` come before the name.
    let rest = match rest.strip_prefix('(') {
        Some(r) => &r[r.find(')')? + 1..],
        None => rest,
    };
    let rest = rest.strip_prefix('*').unwrap_or(rest);
    if rest.starts_with('-') {
        let open = rest.find('[')?;
        let help = until_unescaped(&rest[open + 1..], ']')?;
        let name = rest[..open].trim_end_matches(['=', '+']);
        Some(Item::Option { name, help })
    } else if rest.starts_with(':') {
        let spec = until_unescaped(rest.trim_start_matches(':'), ':')?;
        Some(Item::Positional { spec })
    } else {
        let name = until_unescaped(rest, ':')?;
        let about = until_unescaped(&rest[name.len() + 1..], '\'')?;
        Some(Item::Command { name, about })
    }
}

#[test]
fn the_zsh_lines_are_read_as_options_positionals_and_commands() {
    let cases = [
        (
            r"'(--tree)--opener=[No tree\: open with this word]:OPENER:_default' \",
            Some(Item::Option {
                name: "--opener",
                help: r"No tree\: open with this word",
            }),
        ),
        (
            r"'--hard[]' \",
            Some(Item::Option {
                name: "--hard",
                help: "",
            }),
        ),
        (
            r"'*::history -- The guesses\: salet\:BYBBY:_default' \",
            Some(Item::Positional {
                spec: r"history -- The guesses\: salet\:BYBBY",
            }),
        ),
        (r"':file:_files' \", Some(Item::Positional { spec: "file" })),
        (
            r"'play:Play along\: suggests a guess' \",
            Some(Item::Command {
                name: "play",
                about: r"Play along\: suggests a guess",
            }),
        ),
        (
            r"'path:' \",
            Some(Item::Command {
                name: "path",
                about: "",
            }),
        ),
        (r#"":: :_wordle-tree_commands" \"#, None),
    ];
    for (line, want) in cases {
        assert_eq!(item(line), want, "{line}");
    }
}

/// Every command has an about line and every argument of every command (global
/// options included) has help text, so no `--help` shows a bare option; and clap's
/// debug checks passed while the script was generated.
#[test]
fn every_command_and_argument_has_help_text() {
    let script = zsh_script();
    let (mut options, mut positionals, mut commands) = (0, 0, Vec::new());
    let mut missing = Vec::new();
    for line in script.lines() {
        match item(line) {
            Some(Item::Option { name, help }) => {
                options += 1;
                if help.trim().is_empty() {
                    missing.push(line);
                }
                assert!(name.starts_with('-'), "{line}");
            }
            Some(Item::Positional { spec }) => {
                positionals += 1;
                if !spec.contains(" -- ") {
                    missing.push(line);
                }
            }
            Some(Item::Command { name, about }) => {
                commands.push(name);
                if about.trim().is_empty() {
                    missing.push(line);
                }
            }
            None => {}
        }
    }
    assert!(missing.is_empty(), "without help text: {missing:#?}");
    // The script was read: the global options under each command, the positionals,
    // and the commands of `--help`.
    assert!(options > 100 && positionals > 5, "{options} {positionals}");
    for cmd in [
        "next",
        "play",
        "review",
        "rank",
        "solve",
        "verify",
        "completions",
    ] {
        assert!(commands.contains(&cmd), "{cmd} not in {commands:?}");
    }
}

/// Every command's `--help` ends with examples.
#[test]
fn every_command_has_examples() {
    let out = cli().arg("--help").output().unwrap();
    let help = stdout(&out);
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // A command's name is indented by two spaces; a wrapped about line, more.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&c| c != "help")
        .collect();
    assert!(commands.len() > 15, "{commands:?}");
    let without: Vec<&str> = commands
        .iter()
        .copied()
        .filter(|cmd| {
            let out = cli().args([cmd, "--help"]).output().unwrap();
            assert!(out.status.success(), "{cmd} --help");
            !stdout(&out).lines().any(|l| l.starts_with("Example"))
        })
        .collect();
    assert!(without.is_empty(), "no examples in --help: {without:?}");
}
