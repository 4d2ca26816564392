//! The commands of a hand on single messages (`hold`, `release`, `drop`,
//! `deliver-next`) and their conditions (`held A->B=N`, `in-flight
//! A->B=N`).

use super::*;
use crate::lang::messages::{kind_named, kind_named_as_etcd, kind_names};

/// The command named `name` (one of the four), its first word consumed.
pub(super) fn parse(p: &mut Words<'_>, name: &str) -> Result<Command, ParseError> {
    Ok(match name {
        "hold" => {
            let (a, b, one_way) = read_link(p, "hold")?;
            p.finish(&link_text("hold", a, b, one_way))?;
            Command::Hold { a, b, one_way }
        }
        "release" => {
            let link = match p.peek() {
                Some(t) if t.opt.is_none() || t.quoted => Some(read_link(p, "release")?),
                _ => None,
            };
            let found = p.options("release", &[("count", Kind::Value("count=N"))])?;
            Command::Release {
                link,
                count: count_of(p, &found)?,
            }
        }
        "drop" => {
            let (from, to) = direction(p, "drop")?;
            let found = p.options(
                "drop",
                &[
                    ("kind", Kind::Value("kind=KIND")),
                    ("id", Kind::Value("id=N")),
                    ("count", Kind::Value("count=N")),
                ],
            )?;
            let kind = get(&found, "kind")
                .map(|f| {
                    p.convert(f, |v| {
                        kind_named(v).ok_or_else(|| {
                            let names = kind_names();
                            // etcd's own name for it (`MsgApp` is `app`)
                            // before a guess.
                            let near = kind_named_as_etcd(v)
                                .or_else(|| crate::lang::suggest::nearest(v, &names));
                            super::refused_name(Named::MessageKind, v, near, &names)
                        })
                    })
                })
                .transpose()?;
            Command::Drop {
                from,
                to,
                kind,
                id: get(&found, "id")
                    .map(|f| p.convert(f, parse_number))
                    .transpose()?,
                count: count_of(p, &found)?,
            }
        }
        _ => {
            let link = match p.peek() {
                None => None,
                Some(_) => Some(direction(p, "deliver-next")?),
            };
            let done = match link {
                Some((a, b)) => format!("deliver-next {a}->{b}"),
                None => "deliver-next".to_string(),
            };
            p.finish(&done)?;
            Command::DeliverNext { link }
        }
    })
}

/// `count=N`, at least 1, among found options.
fn count_of(p: &Words<'_>, found: &[Found<'_>]) -> Result<Option<u64>, ParseError> {
    get(found, "count")
        .map(|f| {
            p.convert(f, |v| match parse_number(v)? {
                0 => Err(ParseErrorKind::TooSmall(Least::Count)),
                n => Ok(n),
            })
        })
        .transpose()
}

fn link_text(cmd: &str, a: NodeId, b: NodeId, one_way: bool) -> String {
    if one_way {
        format!("{cmd} {a}->{b}")
    } else {
        format!("{cmd} {a} {b}")
    }
}

/// `A->B` (one way) or `A B`: the link's words, and no more.
fn read_link(p: &mut Words<'_>, cmd: &str) -> Result<(NodeId, NodeId, bool), ParseError> {
    let (a, b, one_way, col) = link_ends(p, cmd)?;
    same_node_refused(p, (a, b, one_way), col)
}

/// One direction, `A->B`: `A B` is refused.
fn direction(p: &mut Words<'_>, cmd: &str) -> Result<(NodeId, NodeId), ParseError> {
    let col = p.peek().map_or(p.missing_col(), |t| t.col);
    match read_link(p, cmd)? {
        (a, b, true) => Ok((a, b)),
        (a, b, false) => Err(p.err(
            col,
            ParseErrorKind::OneDirection {
                cmd: cmd.to_string(),
                a,
                b,
            },
        )),
    }
}

/// `held A->B=N` and `in-flight A->B=N` (or `>=`, `<=`), the condition's
/// name consumed.
pub(super) fn parse_condition(p: &mut Words<'_>, name: &str) -> Result<Condition, ParseError> {
    let form = || Form::LinkCount(name.to_string());
    let (t, opt) = p.option_word("A->B=N", name, form())?;
    let (link, bound) = match opt.name.strip_suffix(['>', '<']) {
        Some(link) => (link, bound_of(&opt.name)),
        None => (opt.name.as_str(), Bound::Exactly),
    };
    let Some((a_txt, b_txt)) = link.split_once("->") else {
        return Err(form_expected(p, t, form()));
    };
    let from = node_id_of(a_txt).map_err(|m| p.err(t.col, m))?;
    let b_col = t.col + a_txt.chars().count() + 2;
    let to = node_id_of(b_txt).map_err(|m| p.err(b_col, m))?;
    if from == to {
        return Err(p.err(t.col, ParseErrorKind::SameNodeLink { a: from, b: to }));
    }
    if opt.value.is_empty() {
        return Err(p.err(
            opt.value_col,
            ParseErrorKind::Missing {
                what: "a number".to_string(),
                after: format!("\"{}=\"", opt.name),
            },
        ));
    }
    let count = parse_number(&opt.value).map_err(|m| p.err(opt.value_col, m))?;
    Ok(match name {
        "held" => Condition::Held {
            from,
            to,
            bound,
            count,
        },
        _ => Condition::InFlight {
            from,
            to,
            bound,
            count,
        },
    })
}
