//! `{name}` placeholders in a text, with `{{` and `}}` for literal braces:
//! how a `say` line's words (`say.rs`) and the Japanese catalog's templates
//! (`narration.rs`) are read. One scanner for both; each decides which
//! names it knows and what a bad brace means to it.

/// One piece of a text with placeholders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Brace<'a> {
    /// Words as they read (a doubled brace comes as its one brace).
    Text(&'a str),
    /// A placeholder: whatever stands between its braces, and the byte
    /// where its `{` is.
    Name { name: &'a str, at: usize },
}

/// A brace that is not one of a placeholder's, at this byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BraceError {
    /// A `{` never closed.
    Unclosed(usize),
    /// A `}` that closes nothing.
    StrayClose(usize),
}

/// The pieces of `text` in order; the first bad brace ends them.
pub fn braces(text: &str) -> impl Iterator<Item = Result<Brace<'_>, BraceError>> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let at = text.len() - rest.len();
        let piece = match rest.find(['{', '}']) {
            None => Ok(Brace::Text(std::mem::take(&mut rest))),
            Some(0) if rest.starts_with("{{") || rest.starts_with("}}") => {
                let brace = &rest[..1];
                rest = &rest[2..];
                Ok(Brace::Text(brace))
            }
            Some(0) if rest.starts_with('}') => Err(BraceError::StrayClose(at)),
            Some(0) => match rest.find('}') {
                Some(end) => {
                    let name = &rest[1..end];
                    rest = &rest[end + 1..];
                    Ok(Brace::Name { name, at })
                }
                None => Err(BraceError::Unclosed(at)),
            },
            Some(i) => {
                let words = &rest[..i];
                rest = &rest[i..];
                Ok(Brace::Text(words))
            }
        };
        if piece.is_err() {
            rest = "";
        }
        Some(piece)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_placeholders_and_doubled_braces() {
        let got: Vec<_> = braces("a {x}{{y}} é}}{z}").collect();
        assert_eq!(
            got,
            vec![
                Ok(Brace::Text("a ")),
                Ok(Brace::Name { name: "x", at: 2 }),
                Ok(Brace::Text("{")),
                Ok(Brace::Text("y")),
                Ok(Brace::Text("}")),
                Ok(Brace::Text(" é")),
                Ok(Brace::Text("}")),
                Ok(Brace::Name { name: "z", at: 15 }),
            ]
        );
        assert_eq!(braces("").count(), 0);
    }

    #[test]
    fn a_bad_brace_ends_the_pieces_with_its_place() {
        let got: Vec<_> = braces("ab {x y").collect();
        assert_eq!(
            got,
            vec![Ok(Brace::Text("ab ")), Err(BraceError::Unclosed(3))]
        );
        let got: Vec<_> = braces("a } {b}").collect();
        assert_eq!(
            got,
            vec![Ok(Brace::Text("a ")), Err(BraceError::StrayClose(2))]
        );
        // Whatever stands between the braces is the name; the reader judges it.
        let got: Vec<_> = braces("{a{b}").collect();
        assert_eq!(got, vec![Ok(Brace::Name { name: "a{b", at: 0 })]);
    }
}
