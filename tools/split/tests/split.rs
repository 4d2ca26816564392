//! The splitter on a small module: which functions go, what stays as a stub,
//! what the deferred part takes from the first, and that both parts are
//! valid modules that fit together.

use raftlab_split::{plan::plan, read_list, split_by_list};
use std::collections::BTreeSet;
use walrus::ir::Value;
use walrus::{
    ConstExpr, ElementItems, ElementKind, ExportItem, FunctionBuilder, FunctionId, Module,
    ModuleConfig, RefType, ValType,
};

/// `main` (exported) calls `kept`, `late`, and what the table holds:
/// `pointed`. `late` calls `later` and `kept`; `later` calls `latest` and
/// bumps the global `count`; `unused` is reached by nothing.
struct Sample {
    bytes: Vec<u8>,
    /// Each function's name and index in the module as read back.
    index: Vec<(String, usize)>,
}

fn sample() -> Sample {
    let mut m = Module::default();
    let memory = m.memories.add_local(false, false, 1, None, None);
    m.exports.add("memory", memory);
    let count = m
        .globals
        .add_local(ValType::I32, true, false, ConstExpr::Value(Value::I32(0)));
    let add = |m: &mut Module, name: &'static str, calls: &[FunctionId], bump: bool| {
        let mut f = FunctionBuilder::new(&mut m.types, &[ValType::I32], &[ValType::I32]);
        f.name(name.to_owned());
        let arg = m.locals.add(ValType::I32);
        let mut body = f.func_body();
        body.local_get(arg);
        for &c in calls {
            body.call(c);
        }
        if bump {
            body.global_get(count)
                .i32_const(1)
                .binop(walrus::ir::BinaryOp::I32Add)
                .global_set(count);
        }
        f.finish(vec![arg], &mut m.funcs)
    };
    let latest = add(&mut m, "latest", &[], false);
    let later = add(&mut m, "later", &[latest], true);
    let kept = add(&mut m, "kept", &[], false);
    let late = add(&mut m, "late", &[later, kept], false);
    let pointed = add(&mut m, "pointed", &[], false);
    add(&mut m, "unused", &[], false);
    // `main` also calls what the table holds.
    let table = m.tables.add_local(false, 1, Some(1), RefType::FUNCREF);
    let ty = m.types.add(&[ValType::I32], &[ValType::I32]);
    let mut f = FunctionBuilder::new(&mut m.types, &[ValType::I32], &[ValType::I32]);
    f.name("main".to_owned());
    let arg = m.locals.add(ValType::I32);
    f.func_body()
        .local_get(arg)
        .call(kept)
        .call(late)
        .i32_const(0)
        .call_indirect(ty, table);
    let main = f.finish(vec![arg], &mut m.funcs);
    m.exports.add("main", main);
    m.elements.add(
        ElementKind::Active {
            table,
            offset: ConstExpr::Value(Value::I32(0)),
        },
        ElementItems::Functions(vec![pointed]),
    );
    m.customs.add(walrus::RawCustomSection {
        name: "target_features".to_owned(),
        data: vec![0],
    });
    let bytes = m.emit_wasm();
    let read = ModuleConfig::new().parse(&bytes).unwrap();
    let index = read
        .funcs
        .iter()
        .map(|f| (f.name.clone().unwrap_or_default(), f.id().index()))
        .collect();
    Sample { bytes, index }
}

impl Sample {
    fn of(&self, name: &str) -> usize {
        self.index
            .iter()
            .find(|(n, _)| *n == name)
            .expect("a sample function")
            .1
    }
    fn set(&self, names: &[&str]) -> BTreeSet<usize> {
        names.iter().map(|n| self.of(n)).collect()
    }
}

fn list(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| n.to_string()).collect()
}

fn local_names(bytes: &[u8]) -> BTreeSet<String> {
    let m = ModuleConfig::new().parse(bytes).expect("a valid module");
    m.funcs
        .iter_local()
        .map(|(id, _)| m.funcs.get(id).name.clone().unwrap_or_default())
        .collect()
}

#[test]
fn the_plan_keeps_stubs_for_what_the_first_part_reaches() {
    let s = sample();
    let module = ModuleConfig::new().parse(&s.bytes).unwrap();
    let deferred = s.set(&["late", "later", "latest", "pointed", "unused"]);
    let p = plan(&module, &|i| deferred.contains(&i));
    // `late` is called by `main`, `pointed` held in the table: their stubs
    // stay. `later` and `latest` only `late` reaches: they just go.
    assert_eq!(
        p.stubs.iter().copied().collect::<BTreeSet<_>>(),
        s.set(&["late", "pointed"])
    );
    assert_eq!(p.moved, s.set(&["late", "later", "latest", "pointed"]));
    // The deferred part calls `kept` and bumps `count` of the first part.
    assert_eq!(p.funcs, s.set(&["kept"]));
    assert_eq!(p.globals.len(), 1);
    assert!(p.memories.is_empty() && p.tables.is_empty());
}

#[test]
fn a_deferred_function_reached_only_from_what_the_deferred_part_takes_gets_a_stub() {
    // `kept` deferred too: `main` reaches it directly, so it is a stub; and
    // the deferred part's `late` calls it through that stub's slot.
    let s = sample();
    let module = ModuleConfig::new().parse(&s.bytes).unwrap();
    let deferred = s.set(&["late", "kept"]);
    let p = plan(&module, &|i| deferred.contains(&i));
    assert_eq!(
        p.stubs.iter().copied().collect::<BTreeSet<_>>(),
        s.set(&["late", "kept"])
    );
    assert_eq!(p.funcs, s.set(&["later"]));
}

#[test]
fn the_parts_hold_what_the_plan_says_and_fit_together() {
    let s = sample();
    let (parts, p) = split_by_list(
        &s.bytes,
        &list(&["late", "later", "latest", "pointed", "unused"]),
    )
    .unwrap();
    assert_eq!(p.stubs.len(), 2);

    let first = ModuleConfig::new().parse(&parts.first).unwrap();
    // `main`, `kept`, and the stubs of `late` and `pointed`: four functions,
    // no names kept.
    assert_eq!(first.funcs.iter_local().count(), 4);
    assert!(first.funcs.iter().all(|f| f.name.is_none()));
    // The sample holds a custom section, as rustc's `target_features`;
    // neither part does.
    assert!(ModuleConfig::new()
        .parse(&s.bytes)
        .unwrap()
        .customs
        .iter()
        .next()
        .is_some());
    assert!(first.customs.iter().next().is_none());
    let exports: BTreeSet<&str> = first.exports.iter().map(|e| e.name.as_str()).collect();
    for name in ["main", "memory", "$table", "$loaded"] {
        assert!(exports.contains(name), "{name} among {exports:?}");
    }
    let load: Vec<_> = first
        .imports
        .iter()
        .map(|i| (i.module.as_str(), i.name.as_str()))
        .collect();
    assert_eq!(load, [("$split", "load")]);

    let deferred = ModuleConfig::new().parse(&parts.deferred).unwrap();
    assert_eq!(deferred.funcs.iter_local().count(), 4);
    assert!(deferred.exports.iter().next().is_none());
    assert!(deferred.data.iter().next().is_none());
    assert!(deferred.customs.iter().next().is_none());
    // Every import is the first part's export of the same kind.
    for import in deferred.imports.iter() {
        assert_eq!(import.module, "$p");
        let export = first
            .exports
            .iter()
            .find(|e| e.name == import.name)
            .unwrap_or_else(|| panic!("{} is not exported by the first part", import.name));
        let same_kind = matches!(
            (&import.kind, &export.item),
            (walrus::ImportKind::Function(_), ExportItem::Function(_))
                | (walrus::ImportKind::Global(_), ExportItem::Global(_))
                | (walrus::ImportKind::Table(_), ExportItem::Table(_))
                | (walrus::ImportKind::Memory(_), ExportItem::Memory(_))
        );
        assert!(same_kind, "{} is imported as another kind", import.name);
    }
    // One segment writes the two stubbed functions into `$table`.
    let segments: Vec<_> = deferred.elements.iter().collect();
    assert_eq!(segments.len(), 1);
    match (&segments[0].kind, &segments[0].items) {
        (ElementKind::Active { table, .. }, ElementItems::Functions(fs)) => {
            assert_eq!(fs.len(), 2);
            let import = deferred
                .tables
                .get(*table)
                .import
                .expect("an imported table");
            assert_eq!(deferred.imports.get(import).name, "$table");
        }
        other => panic!("not one active segment of functions: {other:?}"),
    }
}

#[test]
fn a_function_the_list_does_not_name_stays_whole() {
    let s = sample();
    let (parts, p) = split_by_list(&s.bytes, &list(&["nothing::of::this"])).unwrap();
    assert!(p.stubs.is_empty() && p.moved.is_empty());
    assert_eq!(local_names(&s.bytes).len(), 7);
    // All but `unused`, which nothing reaches.
    assert_eq!(
        ModuleConfig::new()
            .parse(&parts.first)
            .unwrap()
            .funcs
            .iter_local()
            .count(),
        6
    );
    assert_eq!(
        ModuleConfig::new()
            .parse(&parts.deferred)
            .unwrap()
            .funcs
            .iter_local()
            .count(),
        0
    );
}

#[test]
fn the_list_reads_names_and_skips_comments() {
    let names = read_list("# a comment\n\nlate\n  \nraftlab::sim::World::step\n");
    assert_eq!(names, list(&["late", "raftlab::sim::World::step"]));
}

#[test]
fn a_profile_defers_what_did_not_run_unless_a_namesake_did() {
    let names: Vec<String> = ["a", "b", "b", "c", ""]
        .iter()
        .map(|n| n.to_string())
        .collect();
    let ran = [true, false, true, false, false];
    assert_eq!(raftlab_split::deferred_list(&names, &ran), ["c"]);
}

#[test]
fn instrumenting_numbers_every_function_and_calls_the_page() {
    let s = sample();
    let (bytes, names) = raftlab_split::instrument::instrument(&s.bytes).unwrap();
    assert_eq!(names.len(), 7);
    // Numbered in the module's order.
    let mut in_order = s.index.clone();
    in_order.sort_by_key(|(_, i)| *i);
    assert_eq!(
        names,
        in_order.into_iter().map(|(n, _)| n).collect::<Vec<_>>()
    );
    let m = ModuleConfig::new().parse(&bytes).unwrap();
    let ran = m
        .imports
        .iter()
        .find(|i| i.module == "$profile" && i.name == "ran")
        .expect("the import");
    let walrus::ImportKind::Function(ran) = ran.kind else {
        panic!("not a function")
    };
    for (_, f) in m.funcs.iter_local() {
        let entry = f.block(f.entry_block());
        match (&entry.instrs[0].0, &entry.instrs[1].0) {
            (walrus::ir::Instr::Const(_), walrus::ir::Instr::Call(c)) => assert_eq!(c.func, ran),
            other => panic!("a function that does not start by saying its number: {other:?}"),
        }
    }
}
