//! Echoing input in messages: every piece of text that came from a user or a file
//! (a list line, a history token, a word on the command line, a list name stored in a
//! tree file) goes through [`echo`] before it is put into an error or printed.
//!
//! Invariants of the result: at most [`ECHO_CHARS`] characters of the input are
//! shown (then `…`), so a 100 MB line or a 130,000-character token makes a one-line
//! message; control characters and invisible formatting characters (a byte-order
//! mark, zero-width and bidirectional marks) are shown as `\u{..}` escapes, so the
//! message says what the input held and cannot move the cursor, ring the bell or
//! reorder the text around it. Other characters, non-ASCII letters included, are
//! kept as they are. Cost: linear in the characters shown, never in the input's
//! length.
//!
//! Counts in messages go through [`count`], so one of a thing reads "1 opener", not
//! "1 openers".

/// How many characters of the input a message shows.
pub const ECHO_CHARS: usize = 40;

/// `s` made safe and short for a message: escaped, and cut after [`ECHO_CHARS`]
/// characters with an ellipsis.
pub fn echo(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(4 * ECHO_CHARS) + 3);
    let mut chars = s.chars();
    for c in chars.by_ref().take(ECHO_CHARS) {
        if is_hidden(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    if chars.next().is_some() {
        out.push('…');
    }
    out
}

/// `n` and `noun`, the noun plural unless `n` is 1: "1 opener", "2 openers",
/// "0 guesses" (a noun ending in `s` takes `es`).
pub fn count(n: usize, noun: &str) -> String {
    match (n, noun.ends_with('s')) {
        (1, _) => format!("1 {noun}"),
        (_, true) => format!("{n} {noun}es"),
        (_, false) => format!("{n} {noun}s"),
    }
}

/// The whole of `n` things: "the 1 opener", "all 12972 openers".
pub fn all_of(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("the 1 {noun}")
    } else {
        format!("all {}", count(n, noun))
    }
}

/// `singular` when `n` is 1, else `plural`: the verb after a [`count`] ("has"/"have").
pub fn agree<'a>(n: usize, singular: &'a str, plural: &'a str) -> &'a str {
    if n == 1 {
        singular
    } else {
        plural
    }
}

/// Characters a terminal would act on or not show: C0/C1 controls and the invisible
/// format characters (soft hyphen, zero-width and directional marks, embeddings and
/// isolates, word joiners, the byte-order mark, interlinear annotation).
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00ad}'
                | '\u{061c}'
                | '\u{180e}'
                | '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_singular_only_for_one() {
        assert_eq!(count(1, "opener"), "1 opener");
        assert_eq!(count(0, "opener"), "0 openers");
        assert_eq!(count(12972, "opener"), "12972 openers");
        assert_eq!(count(1, "guess"), "1 guess");
        assert_eq!(count(6, "guess"), "6 guesses");
        assert_eq!(agree(1, "has", "have"), "has");
        assert_eq!(agree(2, "has", "have"), "have");
    }

    #[test]
    fn short_printable_input_is_unchanged() {
        assert_eq!(echo("salet"), "salet");
        assert_eq!(echo("salé"), "salé");
        assert_eq!(echo(""), "");
        let forty = "a".repeat(ECHO_CHARS);
        assert_eq!(echo(&forty), forty);
    }

    #[test]
    fn long_input_is_cut_with_an_ellipsis() {
        let long = "x".repeat(130_000);
        let e = echo(&long);
        assert_eq!(e, format!("{}…", "x".repeat(ECHO_CHARS)));
        // Cut at a character boundary, never inside a multi-byte letter.
        let e = echo(&"é".repeat(100));
        assert_eq!(e.chars().count(), ECHO_CHARS + 1);
    }

    #[test]
    fn control_and_invisible_characters_are_escaped() {
        assert_eq!(echo("ab\x1b[2Jc"), "ab\\u{1b}[2Jc");
        assert_eq!(echo("a\nb\r\x07"), "a\\u{a}b\\u{d}\\u{7}");
        assert_eq!(echo("\u{feff}cigar"), "\\u{feff}cigar");
        assert_eq!(echo("ab\u{202e}cd"), "ab\\u{202e}cd");
        assert!(echo(&"\u{0}".repeat(1000)).len() < 10 * ECHO_CHARS);
    }
}
