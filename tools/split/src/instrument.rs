//! The module that finds what a first visit runs: each function, as it
//! starts, tells the page its number (the import `$profile.ran`).

use crate::names::stable_name;
use walrus::ir::Value;
use walrus::{FunctionId, ModuleConfig, ValType};

/// The import each instrumented function calls with its number.
pub const MODULE: &str = "$profile";
pub const RAN: &str = "ran";

/// The instrumented module, and each function's name by its number.
pub fn instrument(bytes: &[u8]) -> anyhow::Result<(Vec<u8>, Vec<String>)> {
    let mut m = ModuleConfig::new().parse(bytes)?;
    let one_number = m.types.add(&[ValType::I32], &[]);
    let (ran, _) = m.add_import_func(MODULE, RAN, one_number);
    let funcs: Vec<FunctionId> = m
        .funcs
        .iter_local()
        .map(|(id, _)| id)
        .filter(|&id| id != ran)
        .collect();
    let mut names = Vec::with_capacity(funcs.len());
    for (number, &id) in funcs.iter().enumerate() {
        names.push(stable_name(&m, id));
        let body = m.funcs.get_mut(id).kind.unwrap_local_mut();
        let entry = body.entry_block();
        body.builder_mut()
            .instr_seq(entry)
            .const_at(0, Value::I32(number as i32))
            .call_at(1, ran);
    }
    Ok((m.emit_wasm(), names))
}
