//! The Japanese term table, kept: `docs/glossary-ja.md` lists each term's
//! Japanese and the variants rejected for it (its third column, each in
//! backticks), for the terms and for the style. This test reads the tables
//! and looks for every rejected variant in the four places Japanese is
//! written: the lessons, `www/i18n-ja.js`, the Japanese renderer
//! (`text_ja.rs`, `catalog_ja.rs`, `narration-ja.txt`) and the glossary's
//! own lines (outside backticks, where the rejected words are quoted). It
//! also holds every Japanese text of the lessons, the page and the
//! narration to the glossary's spacing and colon rules: no space between a
//! Japanese character and a Latin letter, a digit or a placeholder, and no
//! Latin colon after Japanese.

use std::path::Path;

/// A rejected variant, the row's own words (where the variant, inside one,
/// is not the variant: クラスタ inside クラスター) and the row's name.
#[derive(Debug)]
struct Rejected {
    variant: String,
    own: Vec<String>,
    row: String,
}

/// A file's lines, by its name as the repository has it.
struct Source {
    name: String,
    lines: Vec<String>,
}

fn is_japanese(c: char) -> bool {
    matches!(c,
        '\u{3000}'..='\u{303f}' // 、。「」
        | '\u{3040}'..='\u{309f}' // hiragana
        | '\u{30a0}'..='\u{30ff}' // katakana, ー
        | '\u{4e00}'..='\u{9fff}' // kanji
        | '\u{ff00}'..='\u{ffef}') // ：（）［］／
}

/// What may not touch Japanese across a space: a Latin letter, a digit, a
/// placeholder's brace, a percent.
fn is_latin(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '{' | '}' | '%')
}

/// `text` without its backtick spans (the glossary quotes rejected words
/// in them).
fn outside_backticks(text: &str) -> String {
    text.split('`').step_by(2).collect::<Vec<_>>().join(" ")
}

/// The rows of the glossary's tables that reject something.
fn rejected(glossary: &str) -> Vec<Rejected> {
    let mut out = Vec::new();
    for line in glossary.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // | English | 日本語 | rejected | Note |
        if !line.starts_with('|') || cells.len() < 5 || cells[1].starts_with("---") {
            continue;
        }
        let own: Vec<String> = cells[2]
            .split(|c: char| !is_japanese(c) || matches!(c, '、' | '。' | '「' | '」' | '：'))
            .filter(|w| !w.is_empty())
            .map(String::from)
            .collect();
        for (i, variant) in cells[3].split('`').enumerate() {
            if i % 2 == 1 && !variant.is_empty() {
                out.push(Rejected {
                    variant: variant.to_string(),
                    own: own.clone(),
                    row: cells[1].to_string(),
                });
            }
        }
    }
    out
}

/// Where `r` is written in `line` as itself, not inside one of its row's
/// own words.
fn written(line: &str, r: &Rejected) -> bool {
    line.match_indices(&r.variant).any(|(at, v)| {
        !r.own.iter().any(|w| {
            line.match_indices(w.as_str())
                .any(|(q, _)| q <= at && at + v.len() <= q + w.len())
        })
    })
}

/// Every rejected variant written in `sources`: "file:line: `variant`
/// (row): the line".
fn rejections(rows: &[Rejected], sources: &[Source]) -> Vec<String> {
    let mut out = Vec::new();
    for s in sources {
        for (n, line) in s.lines.iter().enumerate() {
            // A variant with a placeholder is a `say-ja` line's: the
            // renderer's templates fill {leader} with a bare number.
            let rows = rows
                .iter()
                .filter(|r| !r.variant.contains('{') || s.name.ends_with(".scenario"));
            for r in rows.filter(|r| written(line, r)) {
                out.push(format!(
                    "{}:{}: `{}` ({}): {}",
                    s.name,
                    n + 1,
                    r.variant,
                    r.row,
                    line.trim()
                ));
            }
        }
    }
    out
}

/// The Japanese texts of a line, as a reader reads them: a lesson's
/// `title-ja`, `summary-ja` and `say-ja`; a narration template; the page's
/// quoted words.
fn japanese_texts(name: &str, line: &str) -> Vec<String> {
    if name.ends_with(".scenario") {
        let line = line.trim();
        for head in ["# title-ja:", "# summary-ja:", "say-ja "] {
            if let Some(rest) = line.strip_prefix(head) {
                return vec![rest.trim().trim_matches('"').to_string()];
            }
        }
        return Vec::new();
    }
    if name.ends_with(".txt") {
        if line.starts_with('#') {
            return Vec::new();
        }
        return line
            .split_once(": ")
            .map(|(_, t)| vec![t.replace("\\s", " ")])
            .unwrap_or_default();
    }
    // i18n-ja.js: "key": "value", each value that has Japanese.
    line.split('"')
        .skip(1)
        .step_by(2)
        .filter(|t| t.chars().any(is_japanese))
        .map(String::from)
        .collect()
}

/// Spacing and colons: "file:line: why: the text".
fn style_problems(sources: &[Source]) -> Vec<String> {
    let mut out = Vec::new();
    for s in sources
        .iter()
        .filter(|s| !s.name.ends_with(".rs") && !s.name.ends_with(".md"))
    {
        for (n, line) in s.lines.iter().enumerate() {
            for text in japanese_texts(&s.name, line) {
                // HTML tags and code are not running text.
                let text = strip_code(&text);
                let cs: Vec<char> = text.chars().collect();
                for i in 0..cs.len() {
                    let before = i.checked_sub(1).map(|j| cs[j]);
                    let after = cs.get(i + 1).copied();
                    let why = match (before, cs[i], after) {
                        (Some(a), ' ', Some(b))
                            if (is_japanese(a) && is_latin(b))
                                || (is_latin(a) && is_japanese(b)) =>
                        {
                            Some("a space between Japanese and Latin")
                        }
                        (Some(a), ':', _) if is_japanese(a) => Some("a Latin colon after Japanese"),
                        (Some('}'), ':', Some(' ')) if text.chars().any(is_japanese) => {
                            Some("a Latin colon in Japanese text")
                        }
                        _ => None,
                    };
                    if let Some(why) = why {
                        let at: String = cs[i.saturating_sub(8)..(i + 8).min(cs.len())]
                            .iter()
                            .collect();
                        out.push(format!("{}:{}: {why}: …{at}…", s.name, n + 1));
                    }
                }
            }
        }
    }
    out
}

/// `text` with `<code>…</code>` and HTML tags left out.
fn strip_code(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("<code>") {
        out.push_str(&rest[..at]);
        out.push('x');
        rest = rest[at..].split_once("</code>").map_or("", |(_, r)| r);
    }
    out.push_str(rest);
    let mut plain = String::new();
    let mut in_tag = false;
    for c in out.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => plain.push(c),
            _ => {}
        }
    }
    plain
}

fn read(root: &Path, name: &str) -> Source {
    let text = std::fs::read_to_string(root.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let lines = if name.ends_with(".md") {
        text.lines().map(outside_backticks).collect()
    } else {
        text.lines().map(String::from).collect()
    };
    Source {
        name: name.to_string(),
        lines,
    }
}

fn sources() -> Vec<Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(root.join("lessons"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".scenario"))
        .map(|n| format!("lessons/{n}"))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "{names:?}");
    names.extend(
        [
            "www/i18n-ja.js",
            "src/words/text_ja.rs",
            "src/words/catalog_ja.rs",
            "src/words/narration-ja.txt",
            "docs/glossary-ja.md",
        ]
        .map(String::from),
    );
    names.iter().map(|n| read(root, n)).collect()
}

fn glossary_rows() -> Vec<Rejected> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rows = rejected(&std::fs::read_to_string(root.join("docs/glossary-ja.md")).unwrap());
    assert!(rows.len() >= 30, "{rows:?}");
    rows
}

#[test]
fn no_rejected_variant_is_written_anywhere_japanese_is() {
    let found = rejections(&glossary_rows(), &sources());
    assert!(
        found.is_empty(),
        "{} rejected variants:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn japanese_text_keeps_the_spacing_and_the_colon_of_the_glossary() {
    let found = style_problems(&sources());
    assert!(
        found.is_empty(),
        "{} problems:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn a_rejected_variant_put_back_is_found_with_its_file_and_line() {
    let rows = glossary_rows();
    let mut sources = sources();
    let lesson = sources
        .iter_mut()
        .find(|s| s.name.ends_with("03-isolated-leader-steps-down.scenario"))
        .unwrap();
    lesson
        .lines
        .push("say-ja \"まもなくリーダーは退きます。\"".to_string());
    let line = lesson.lines.len();
    let page = sources
        .iter_mut()
        .find(|s| s.name == "www/i18n-ja.js")
        .unwrap();
    page.lines
        .insert(0, "  \"x\": \"スタンバイ、クラスタ、閾値\",".to_string());
    let found = rejections(&rows, &sources);
    assert_eq!(found.len(), 4, "{found:#?}");
    assert!(
        found[0].starts_with(&format!(
            "lessons/03-isolated-leader-steps-down.scenario:{line}: `退き`"
        )),
        "{found:#?}"
    );
    for (f, v) in found[1..].iter().zip(["スタンバイ", "閾値", "クラスタ"]) {
        assert!(
            f.starts_with(&format!("www/i18n-ja.js:1: `{v}`")),
            "{found:#?}"
        );
    }
    // Inside the row's own word it is not the variant.
    let mut sources = vec![Source {
        name: "www/i18n-ja.js".into(),
        lines: vec!["  \"x\": \"クラスターの下\",".into()],
    }];
    assert!(rejections(&rows, &sources).is_empty());
    // In the glossary, a variant quoted in backticks is not written.
    sources[0] = Source {
        name: "docs/glossary-ja.md".into(),
        lines: vec![outside_backticks("Not `スタンバイ`: 待機ノード")],
    };
    assert!(rejections(&rows, &sources).is_empty());
}

#[test]
fn a_space_or_a_colon_against_the_rules_is_found() {
    let text = |name: &str, line: &str| Source {
        name: name.into(),
        lines: vec![line.into()],
    };
    let found = style_problems(&[
        text(
            "lessons/x.scenario",
            "say-ja \"ノード {leader} が任期{term}のリーダーです: ok\"",
        ),
        text("src/words/narration-ja.txt", "x: エラー {code}: {detail}"),
        text(
            "www/i18n-ja.js",
            "  \"x\": \"<code>member add 4</code> で追加 · 1 / 2\",",
        ),
    ]);
    assert_eq!(found.len(), 6, "{found:#?}");
    assert!(
        found[0].starts_with("lessons/x.scenario:1: a space"),
        "{found:#?}"
    );
    assert!(
        found[2].starts_with("lessons/x.scenario:1: a Latin colon after Japanese"),
        "{found:#?}"
    );
    assert!(
        found[4].starts_with("src/words/narration-ja.txt:1: a Latin colon in Japanese text"),
        "{found:#?}"
    );
    assert!(
        found[5].starts_with("www/i18n-ja.js:1: a space"),
        "{found:#?}"
    );
    // Written as the glossary says, nothing.
    let ok = style_problems(&[
        text(
            "lessons/x.scenario",
            "say-ja \"{leader}が任期{term}のリーダーです。「member add 4」：etcd 3.4\"",
        ),
        text(
            "www/i18n-ja.js",
            "  \"x\": \"リーダー · 任期{n}（<code>etcdctl member list</code>）\",",
        ),
    ]);
    assert!(ok.is_empty(), "{ok:#?}");
}
