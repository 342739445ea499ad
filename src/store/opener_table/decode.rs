//! [`OpenerTable::decode`]'s steps, one function each: the header lines, the header's
//! fields, the columns line, the rows' checksum line, the rows, and the cross-check of
//! the rows against the header and the table rebuilt from them. Every error names the
//! file and line (the format and its rules: the parent module's doc).

use super::*;
use crate::game::echo::echo;

/// The header's values: each with the line it stood on.
pub(super) type HeaderLines<'t> = BTreeMap<&'t str, (usize, &'t str)>;

/// The header's fields, checked one by one (line numbers kept for the cross-check).
pub(super) struct Head<'t> {
    list: &'t str,
    checksum: u64,
    hard: bool,
    max_guesses: u8,
    answers: usize,
    openers: usize,
    solved: u64,
    solved_line: usize,
    complete: bool,
    complete_line: usize,
}

/// A row as read: its line, opener, entry and rank cell (checked once the table is
/// rebuilt).
pub(super) type ReadRow<'t> = (usize, Word, Entry, &'t str);

/// [`OpenerTable::decode`]'s steps over the lines of one table text.
pub(super) struct Parser<'t> {
    pub(super) file: &'t Path,
    pub(super) lines: Vec<&'t str>,
}

impl<'t> Parser<'t> {
    pub(super) fn bad(&self, line: usize, why: String) -> TableError {
        TableError::Bad {
            file: self.file.into(),
            line,
            why,
        }
    }

    /// The `# key=value` lines at the top (the first must be the format), each key
    /// once, and the index of the line after them.
    pub(super) fn header_lines(&self) -> Result<(HeaderLines<'t>, usize), TableError> {
        let lines = &self.lines;
        let mut header: HeaderLines = BTreeMap::new();
        let mut at = 0;
        while at < lines.len() && lines[at].starts_with('#') {
            let n = at + 1;
            let body = lines[at][1..].trim();
            let (k, v) = body.split_once('=').ok_or_else(|| {
                self.bad(
                    n,
                    format!("expected '# key=value', got '{}'", echo(lines[at])),
                )
            })?;
            let (k, v) = (k.trim(), v.trim());
            if n == 1 && k != "format" {
                return Err(self.bad(
                    n,
                    format!(
                        "not an opener table: the first line must be '# format={FORMAT} {VERSION}'"
                    ),
                ));
            }
            if let Some((first, _)) = header.insert(k, (n, v)) {
                return Err(self.bad(
                    n,
                    format!("'{}' appears twice (first on line {first})", echo(k)),
                ));
            }
            at += 1;
        }
        if header.is_empty() {
            return Err(self.bad(
                1,
                format!(
                    "not an opener table: the first line must be '# format={FORMAT} {VERSION}'"
                ),
            ));
        }
        Ok((header, at))
    }

    /// The header's fields: the format version, no unknown key, each value checked.
    pub(super) fn head(
        &self,
        header: &HeaderLines<'t>,
        end_of_header: usize,
    ) -> Result<Head<'t>, TableError> {
        let get = |k: &str| -> Result<(usize, &'t str), TableError> {
            header
                .get(k)
                .copied()
                .ok_or_else(|| self.bad(end_of_header + 1, format!("missing header '# {k}=...'")))
        };
        let number = |k: &str| -> Result<(usize, u64), TableError> {
            let (n, v) = get(k)?;
            v.parse()
                .map(|x| (n, x))
                .map_err(|_| self.bad(n, format!("'{k}' is not a whole number: '{}'", echo(v))))
        };
        // A count of words: from 1 to 65535.
        let count = |k: &str| -> Result<usize, TableError> {
            let (n, v) = number(k)?;
            if v == 0 || v > u16::MAX as u64 {
                return Err(self.bad(n, format!("{k} {v} is not from 1 to 65535")));
            }
            Ok(v as usize)
        };
        let (n, format) = get("format")?;
        let version = format
            .strip_prefix(FORMAT)
            .and_then(|v| v.trim().parse::<u32>().ok())
            .ok_or_else(|| self.bad(n, format!("format '{}' is not {FORMAT} N", echo(format))))?;
        if version != VERSION {
            return Err(self.bad(
                n,
                format!("format version {version} (this build reads version {VERSION})"),
            ));
        }
        for k in header.keys() {
            const KNOWN: [&str; 9] = [
                "format",
                "list",
                "checksum",
                "mode",
                "max_guesses",
                "answers",
                "openers",
                "solved",
                "complete",
            ];
            if !KNOWN.contains(k) {
                return Err(self.bad(header[k].0, format!("unknown header '{}'", echo(k))));
            }
        }
        let (list_line, list) = get("list")?;
        if list.is_empty() || !list.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
            return Err(self.bad(list_line, format!("bad list name '{}'", echo(list))));
        }
        let (n, sum) = get("checksum")?;
        let checksum = u64::from_str_radix(sum, 16)
            .ok()
            .filter(|_| sum.len() == 16)
            .ok_or_else(|| {
                self.bad(
                    n,
                    format!("checksum '{}' is not 16 hexadecimal digits", echo(sum)),
                )
            })?;
        let (n, mode) = get("mode")?;
        let hard = parse_mode(mode).ok_or_else(|| {
            self.bad(n, format!("unknown mode '{}' (normal or hard)", echo(mode)))
        })?;
        let (n, max_guesses) = number("max_guesses")?;
        if !(1..=10).contains(&max_guesses) {
            return Err(self.bad(n, format!("max_guesses {max_guesses} is not from 1 to 10")));
        }
        let answers = count("answers")?;
        let openers = count("openers")?;
        let (solved_line, solved) = number("solved")?;
        let (complete_line, complete) = get("complete")?;
        let complete = match complete {
            "yes" => true,
            "no" => false,
            other => {
                return Err(self.bad(
                    complete_line,
                    format!("complete must be 'yes' or 'no', not '{}'", echo(other)),
                ))
            }
        };
        Ok(Head {
            list,
            checksum,
            hard,
            max_guesses: max_guesses as u8,
            answers,
            openers,
            solved,
            solved_line,
            complete,
            complete_line,
        })
    }

    /// The columns line at `at`; the index of the first row.
    pub(super) fn columns(&self, at: usize) -> Result<usize, TableError> {
        match self.lines.get(at) {
            Some(l) if l.trim() == COLUMNS => Ok(at + 1),
            Some(l) => Err(self.bad(
                at + 1,
                format!("expected the columns '{COLUMNS}', got '{}'", echo(l)),
            )),
            None => Err(self.bad(at.max(1), format!("missing the columns line '{COLUMNS}'"))),
        }
    }

    /// The last non-empty line (at or after `at`): the rows' checksum, checked once
    /// the rows are. Its index and value.
    pub(super) fn rows_checksum(&self, at: usize) -> Result<(usize, u64), TableError> {
        let lines = &self.lines;
        let end = lines
            .iter()
            .rposition(|l| !l.trim().is_empty())
            .filter(|&i| i >= at)
            .ok_or_else(|| {
                self.bad(
                    lines.len().max(1),
                    format!("missing the last line '# {ROWS_CHECKSUM}=...' (truncated?)"),
                )
            })?;
        let want_sum = lines[end]
            .strip_prefix('#')
            .and_then(|l| l.trim().strip_prefix(ROWS_CHECKSUM))
            .and_then(|l| l.trim_start().strip_prefix('='))
            .map(str::trim)
            .ok_or_else(|| {
                self.bad(
                    end + 1,
                    format!("the last line must be '# {ROWS_CHECKSUM}=<16 hexadecimal digits>' (the table is truncated, or edited)"),
                )
            })?;
        let want_sum = u64::from_str_radix(want_sum, 16)
            .ok()
            .filter(|_| want_sum.len() == 16)
            .ok_or_else(|| {
                self.bad(
                    end + 1,
                    format!(
                        "{ROWS_CHECKSUM} '{}' is not 16 hexadecimal digits",
                        echo(want_sum)
                    ),
                )
            })?;
        Ok((end, want_sum))
    }

    /// The rows from `at` to `end` (empty lines skipped), each cell checked on its own:
    /// the opener once, a total with its average and max depth, or cannot finish.
    pub(super) fn rows(
        &self,
        at: usize,
        end: usize,
        head: &Head,
    ) -> Result<Vec<ReadRow<'t>>, TableError> {
        let (max_guesses, answers) = (head.max_guesses, head.answers);
        let mut entries: Vec<ReadRow> = Vec::new();
        let mut seen: HashMap<Word, usize> = HashMap::new();
        for (i, line) in self.lines.iter().enumerate().take(end).skip(at) {
            let n = i + 1;
            if line.trim().is_empty() {
                continue;
            }
            let cells: Vec<&str> = line.split(',').map(str::trim).collect();
            let [rank, opener, total, avg, depth] = cells[..] else {
                return Err(self.bad(
                    n,
                    format!(
                        "expected 5 comma-separated fields ({COLUMNS}), got {}: '{}'",
                        cells.len(),
                        echo(line)
                    ),
                ));
            };
            let word = Word::parse(opener)
                .map_err(|e| self.bad(n, format!("opener '{}': {e}", echo(opener))))?;
            if let Some(first) = seen.insert(word, n) {
                return Err(self.bad(
                    n,
                    format!("opener '{word}' appears twice (first on line {first})"),
                ));
            }
            let entry = if total == format!("cannot finish within {max_guesses}") {
                if (rank, avg, depth) != ("-", "-", "-") {
                    return Err(self.bad(
                        n,
                        format!(
                            "'{word}' cannot finish: its rank, average and max_depth must be '-'"
                        ),
                    ));
                }
                Entry::CannotFinish
            } else {
                let total: u64 = total.parse().map_err(|_| {
                    self.bad(n, format!("total '{}' of '{word}' is neither a whole number nor 'cannot finish within {max_guesses}'", echo(total)))
                })?;
                if total < answers as u64 {
                    return Err(self.bad(
                        n,
                        format!("total {total} of '{word}' is less than the {answers} answers"),
                    ));
                }
                if avg != average(total, answers) {
                    return Err(self.bad(
                        n,
                        format!(
                            "average '{}' of '{word}' is not {total}/{answers} = {}",
                            echo(avg),
                            average(total, answers)
                        ),
                    ));
                }
                let max_depth: u8 = depth
                    .parse()
                    .ok()
                    .filter(|d| (1..=max_guesses).contains(d))
                    .ok_or_else(|| {
                        self.bad(
                            n,
                            format!(
                                "max_depth '{}' of '{word}' is not from 1 to {max_guesses}",
                                echo(depth)
                            ),
                        )
                    })?;
                Entry::Exact { total, max_depth }
            };
            entries.push((n, word, entry, rank));
        }
        Ok(entries)
    }

    /// The rows against the header (their count, `complete`) and against the table
    /// rebuilt from them (their order and ranks): the table when they agree.
    pub(super) fn cross_check(
        &self,
        head: &Head,
        entries: &[ReadRow],
    ) -> Result<OpenerTable, TableError> {
        let (solved, openers) = (head.solved, head.openers);
        let last = self.lines.len().max(1);
        if entries.len() as u64 != solved {
            return Err(self.bad(
                last,
                format!(
                    "{} rows, but the header says solved={solved} (line {})",
                    entries.len(),
                    head.solved_line
                ),
            ));
        }
        if entries.len() > openers {
            return Err(self.bad(
                last,
                format!("{} rows, more than the {openers} openers", entries.len()),
            ));
        }
        if head.complete != (entries.len() == openers) {
            return Err(self.bad(
                head.complete_line,
                format!(
                    "complete={} but {} of {openers} openers have a row",
                    if head.complete { "yes" } else { "no" },
                    entries.len()
                ),
            ));
        }
        let table = OpenerTable {
            list: head.list.to_string(),
            checksum: head.checksum,
            hard: head.hard,
            max_guesses: head.max_guesses,
            answers: head.answers,
            openers,
            rows: Vec::new(),
            index: HashMap::new(),
        }
        .with_rows(entries.iter().map(|&(_, w, e, _)| (w, e)));
        for ((n, word, _, rank), row) in entries.iter().zip(&table.rows) {
            if row.opener != *word {
                return Err(self.bad(*n, format!("rows out of order: '{word}' here, '{}' expected (rows go by total, then opener; openers that cannot finish last)", row.opener)));
            }
            let want = row.rank.map_or("-".to_string(), |r| r.to_string());
            if *rank != want {
                return Err(self.bad(*n, format!("rank '{}' of '{word}' should be {want} (one more than the rows with a smaller total)", echo(rank))));
            }
        }
        Ok(table)
    }
}
