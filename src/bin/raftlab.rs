//! The native `raftlab` command. Its code lives in the library's `cli`
//! module so integration tests can call it too.

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    std::process::exit(raftlab::cli::main());
}
