//! A suggestion's reason as a list for the report's cards: `recommend::suggest` writes it as
//! one sentence of clauses joined by "; ", which reads well on a terminal line but runs to
//! 120-200 words; a card lists the clauses one per line.

/// The clauses of `reason`: split at each "; " outside parentheses and brackets (a clause's
/// parenthesis keeps its own "; "), trimmed, a closing ";" dropped, empty ones left out.
pub fn clauses(reason: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let bytes = reason.as_bytes();
    for (i, c) in reason.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            ';' if depth == 0 && bytes.get(i + 1) == Some(&b' ') => {
                out.push(reason[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(reason[start..].trim().trim_end_matches(';').to_string());
    out.retain(|c| !c.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_split_outside_parentheses_only() {
        let reason = "follows the majority rule: 14% got faster (median 0.994x; 4% faster, 43% \
                      slower); the model predicts 0.0240x here; range [a; b] kept;";
        assert_eq!(
            clauses(reason),
            [
                "follows the majority rule: 14% got faster (median 0.994x; 4% faster, 43% slower)",
                "the model predicts 0.0240x here",
                "range [a; b] kept",
            ]
        );
        assert_eq!(clauses("one clause"), ["one clause"]);
        assert!(clauses("").is_empty());
        // An unbalanced parenthesis does not panic or lose text.
        assert_eq!(clauses("a) b; c"), ["a) b", "c"]);
        assert_eq!(clauses("a (b; c"), ["a (b; c"]);
        // A semicolon not followed by a space (inside a value) does not split.
        assert_eq!(clauses("x=1;2; y"), ["x=1;2", "y"]);
    }
}
