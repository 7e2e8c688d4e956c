//! Arguments advise hands to external tools: option strings split into words as a shell
//! splits them, and GPU architectures as nvcc's `-arch` takes them.

/// Options written as one string (`--ncu-args`, `--nvcc-flags`) split as a shell splits plain
/// words and quotes (no variables, no globs); `None` where a quote is not closed.
pub fn split_words(text: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                started = false;
            }
            (None, c) => cur.push(c),
        }
    }
    if quote.is_some() {
        return None;
    }
    if started || !cur.is_empty() {
        out.push(cur);
    }
    Some(out)
}

/// A real GPU architecture as nvcc's `-arch` takes it, from `sm_90`, `90`, `sm_90a` or
/// `sm_100f`: `sm_` and two or three digits with at most one letter after them. `None` for
/// anything else (`banana`, `compute_90`, `sm_9`), which nvcc would refuse or misread.
pub fn sm_arch(text: &str) -> Option<String> {
    let text = text.trim();
    let rest = text.strip_prefix("sm_").unwrap_or(text);
    let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
    let suffix = &rest[digits..];
    let ok = (2..=3).contains(&digits)
        && (suffix.is_empty()
            || (suffix.len() == 1 && suffix.chars().all(|c| c.is_ascii_lowercase())));
    ok.then(|| format!("sm_{rest}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn architectures_are_sm_and_digits() {
        assert_eq!(sm_arch("sm_90").as_deref(), Some("sm_90"));
        assert_eq!(sm_arch(" 86 ").as_deref(), Some("sm_86"));
        assert_eq!(sm_arch("sm_90a").as_deref(), Some("sm_90a"));
        assert_eq!(sm_arch("sm_100f").as_deref(), Some("sm_100f"));
        for bad in [
            "banana",
            "sm_banana",
            "compute_90",
            "sm_9",
            "sm_9 0",
            "",
            "sm_90ab",
            "sm_1000",
        ] {
            assert_eq!(sm_arch(bad), None, "{bad}");
        }
    }
}
