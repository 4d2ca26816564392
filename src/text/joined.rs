//! `[&str]::join` and `[String]::join` in one copy: the standard library's
//! `join` is compiled once per element type, each about 1.2 KB of the page's
//! module (docs/crates.md, the fifth round). [`Joined::joined`] gives the
//! same string through one function that takes the parts as `&str`s.

/// A slice of strings joined with a separator, as `join` does.
pub trait Joined {
    fn joined(&self, sep: &str) -> String;
}

impl<S: AsRef<str>> Joined for [S] {
    fn joined(&self, sep: &str) -> String {
        join(&mut self.iter().map(AsRef::as_ref), sep)
    }
}

fn join(parts: &mut dyn Iterator<Item = &str>, sep: &str) -> String {
    let mut s = String::new();
    if let Some(first) = parts.next() {
        s.push_str(first);
        for p in parts {
            s.push_str(sep);
            s.push_str(p);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::Joined;

    #[test]
    fn as_join() {
        let words = ["a", "", "bc", "日本"];
        for n in 0..=words.len() {
            let strs = &words[..n];
            let strings: Vec<String> = strs.iter().map(|w| w.to_string()).collect();
            for sep in ["", ", ", "、"] {
                assert_eq!(strs.joined(sep), strs.join(sep));
                assert_eq!(strings.joined(sep), strings.join(sep));
            }
        }
        assert_eq!(["x", "y"].joined(" | "), "x | y");
    }
}
