//! A function's name as the deferred list keeps it: Rust's symbol, read back
//! as a path, without the crates' disambiguators.

use walrus::{FunctionId, Module};

/// `raftlab::sim::world::World::step` for `_RNvMs…` (a v0 symbol), the
/// export's own name for wasm-bindgen's shims, "" for a function with none.
///
/// The disambiguators (`raftlab[ffd13255c10b0ab6]`) are left out: they
/// change with the compiler's version and flags, the path does not.
pub fn stable_name(module: &Module, f: FunctionId) -> String {
    let Some(raw) = module.funcs.get(f).name.as_deref() else {
        return String::new();
    };
    without_disambiguators(&rustc_demangle::demangle(raw).to_string())
}

/// `name` without each `[hex]` that follows a crate's name (eight or more
/// lowercase hexadecimal digits: no type of Rust's is written so).
pub fn without_disambiguators(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let hex = after
            .bytes()
            .take_while(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
            .count();
        if hex >= 8 && after.as_bytes().get(hex) == Some(&b']') {
            out.push_str(&rest[..open]);
            rest = &after[hex + 1..];
        } else {
            out.push_str(&rest[..=open]);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disambiguators_go_and_slices_stay() {
        assert_eq!(
            without_disambiguators(
                "<alloc[3ca501edff3f0c7c]::vec::Vec<[u8; 4]> as core[c5930c85a12de822]::clone::Clone>::clone"
            ),
            "<alloc::vec::Vec<[u8; 4]> as core::clone::Clone>::clone"
        );
        assert_eq!(without_disambiguators("a[]b[x1]"), "a[]b[x1]");
        assert_eq!(without_disambiguators("&[f32]"), "&[f32]");
        assert_eq!(without_disambiguators("&[deadbeef;"), "&[deadbeef;");
    }
}
