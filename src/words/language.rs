//! The languages raftlab speaks, and the [`Renderer`] of each.

use std::borrow::Cow;

use crate::lang::say::Spoken;
use crate::words::renderer::Renderer;
use crate::words::text_en::English;
use crate::words::text_ja::Japanese;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Language {
    #[default]
    English,
    Japanese,
}

impl Language {
    pub const ALL: [Language; 2] = [Language::English, Language::Japanese];

    /// The BCP 47 code the page uses (`?lang=`, `<html lang>`).
    pub fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Japanese => "ja",
        }
    }

    /// `en`, `ja`, or a longer tag of either (`ja-JP`, `en-GB`).
    pub fn from_code(code: &str) -> Option<Language> {
        let primary = code.split(['-', '_']).next()?.to_ascii_lowercase();
        Language::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// Whether this language's sentences are here to be said: the page's
    /// module has Japanese only once its catalog is loaded
    /// ([`crate::words::catalog_ja::load`]); a native build always has it.
    pub fn speakable(self) -> bool {
        match self {
            Language::English => true,
            Language::Japanese => crate::words::catalog_ja::loaded(),
        }
    }

    /// A `say`'s words in this language: its `say-ja` line in Japanese
    /// when one was written, else the English.
    pub fn pick<'a>(self, en: &'a str, ja: Option<&'a str>) -> &'a str {
        match (self, ja) {
            (Language::Japanese, Some(ja)) => ja,
            _ => en,
        }
    }

    /// A `say` line's filled words in this language (English when no
    /// Japanese was written): the renderer fills a `say-ja` line from the
    /// facts it was said with.
    pub fn said(self, s: &Spoken) -> Cow<'_, str> {
        self.renderer().say(s)
    }

    pub fn renderer(self) -> &'static dyn Renderer {
        match self {
            Language::English => &English,
            Language::Japanese => &Japanese,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_back_and_regional_tags_fall_to_their_language() {
        for l in Language::ALL {
            assert_eq!(Language::from_code(l.code()), Some(l));
        }
        assert_eq!(Language::from_code("ja-JP"), Some(Language::Japanese));
        assert_eq!(Language::from_code("EN_gb"), Some(Language::English));
        assert_eq!(Language::from_code("fr"), None);
        assert_eq!(Language::from_code(""), None);
    }
}
