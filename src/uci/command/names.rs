//! The commands' names, to tell a typo from a command: `patina analyse` is neither a subcommand
//! nor a UCI command, and the shell suggests the nearest name (`analyze`).

use super::{parse, ParseError};

/// Every command `parse` knows, in the order a user meets them.
pub const COMMAND_NAMES: [&str; 19] = [
    "uci",
    "isready",
    "setoption",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "debug",
    "register",
    "d",
    "eval",
    "result",
    "bench",
    "genfens",
    // Not commands of their own, but what a user typing `go perft` or `go infinite` may write.
    "perft",
    "infinite",
    "ponder",
];

/// Whether `word` starts a UCI command (`parse` knows it, whatever the rest of the line).
pub fn is_command(word: &str) -> bool {
    !matches!(parse(word), Err(ParseError::UnknownCommand { .. }))
}

/// The name among `names` nearest to `word` by edit distance, if one is near enough to be the
/// word meant: at most 2 edits, and fewer than half the word's letters.
pub fn nearest_name<'a>(word: &str, names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count().saturating_sub(1) / 2).min(2);
    names
        .into_iter()
        .map(|name| (edit_distance(word, name), name))
        .filter(|&(distance, _)| distance <= limit)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, name)| name)
}

/// Levenshtein distance: the fewest insertions, deletions and substitutions from `a` to `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listed_commands_parse_and_typos_do_not() {
        for name in &COMMAND_NAMES[..16] {
            assert!(is_command(name), "{name}");
        }
        for typo in ["analyse", "isredy", "posiiton", "--depth"] {
            assert!(!is_command(typo), "{typo}");
        }
    }

    #[test]
    fn the_nearest_name_is_suggested_only_when_near() {
        let names = ["analyze", "bench", "perft", "result"].into_iter().chain(COMMAND_NAMES);
        assert_eq!(nearest_name("analyse", names.clone()), Some("analyze"));
        assert_eq!(nearest_name("isredy", names.clone()), Some("isready"));
        assert_eq!(nearest_name("bnech", names.clone()), Some("bench"));
        assert_eq!(nearest_name("xyzzy", names.clone()), None);
        assert_eq!(nearest_name("dd", names.clone()), None, "one letter is no evidence");
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "go"), 2);
    }
}
