//! Writes the two parts of a module from a plan.
//!
//! The first part is the module, less the deferred functions' bodies: a
//! deferred function it still reaches keeps a stub, which asks the page for
//! the deferred part (the import `$split.load`) unless the global `$loaded` says
//! it is here, then calls the function through its slot of the table `$table`.
//! The deferred part holds the deferred functions, takes everything else
//! from the first part (module `$p`: memory, globals, tables, functions, the
//! first part's own imports among them) and, when instantiated, writes its
//! functions into `$table`. Neither part keeps names or custom sections.

use crate::plan::Plan;
use std::collections::BTreeMap;
use walrus::ir::{UnaryOp, Value};
use walrus::{
    ConstExpr, ElementItems, ElementKind, ExportItem, FunctionBuilder, FunctionId, FunctionKind,
    GlobalKind, ImportKind, ImportedFunction, LocalId, Module, ModuleConfig, RefType, ValType,
};

/// The module the deferred part imports from: the first part's exports.
pub const FIRST: &str = "$p";
/// The first part's exports the loader uses: the deferred table, the
/// "loaded" global, and the import the stubs call.
pub const TABLE: &str = "$table";
pub const LOADED: &str = "$loaded";
pub const LOAD_MODULE: &str = "$split";
pub const LOAD: &str = "load";

/// The two parts' bytes.
pub struct Parts {
    pub first: Vec<u8>,
    pub deferred: Vec<u8>,
}

fn read(bytes: &[u8]) -> anyhow::Result<Module> {
    let mut config = ModuleConfig::new();
    config
        .generate_name_section(false)
        .generate_producers_section(false);
    let mut module = config.parse(bytes)?;
    // Custom sections (rustc's `target_features`): nothing the page reads.
    let customs: Vec<_> = module.customs.iter().map(|(id, _)| id).collect();
    for id in customs {
        module.customs.delete(id);
    }
    Ok(module)
}

/// Short export names for what the deferred part takes (`$0`, `$1`, … in
/// base 36), or an item's own export name when it has one.
struct Names {
    given: BTreeMap<(u8, usize), String>,
    next: usize,
}

impl Names {
    fn name(&mut self, module: &mut Module, key: (u8, usize), item: ExportItem) -> String {
        if let Some(n) = self.given.get(&key) {
            return n.clone();
        }
        let mut n = format!("${}", base36(self.next));
        while module.exports.iter().any(|e| e.name == n) || n == TABLE || n == LOADED {
            self.next += 1;
            n = format!("${}", base36(self.next));
        }
        self.next += 1;
        module.exports.add(&n, item);
        self.given.insert(key, n.clone());
        n
    }
}

fn key(item: &ExportItem) -> (u8, usize) {
    match item {
        ExportItem::Function(f) => (0, f.index()),
        ExportItem::Global(g) => (1, g.index()),
        ExportItem::Table(t) => (2, t.index()),
        ExportItem::Memory(m) => (3, m.index()),
        ExportItem::Tag(t) => (4, t.index()),
    }
}

pub fn base36(mut n: usize) -> String {
    let digits = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(digits[n % 36]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII digits")
}

/// The function of `funcs` (a module's, in order) whose index is `index`.
fn function_at(funcs: &[FunctionId], index: usize) -> FunctionId {
    funcs
        .iter()
        .copied()
        .find(|f| f.index() == index)
        .expect("a function the plan names is in the module")
}

/// Both parts of the module `bytes`, as `plan` splits it.
pub fn split(bytes: &[u8], plan: &Plan) -> anyhow::Result<Parts> {
    let (first, names) = first_part(bytes, plan)?;
    let deferred = deferred_part(bytes, plan, &names)?;
    Ok(Parts { first, deferred })
}

/// The first part, and the names it exports for the deferred part.
fn first_part(bytes: &[u8], plan: &Plan) -> anyhow::Result<(Vec<u8>, Names)> {
    let mut m = read(bytes)?;
    let mut names = Names {
        given: m
            .exports
            .iter()
            .map(|e| (key(&e.item), e.name.clone()))
            .collect(),
        next: 0,
    };
    let funcs: Vec<FunctionId> = m.funcs.iter().map(|f| f.id()).collect();
    let by_index = |i: usize| function_at(&funcs, i);
    for &f in &plan.funcs {
        names.name(&mut m, (0, f), ExportItem::Function(by_index(f)));
    }
    let globals: Vec<_> = m.globals.iter().map(|g| g.id()).collect();
    for g in globals
        .into_iter()
        .filter(|g| plan.globals.contains(&g.index()))
    {
        names.name(&mut m, (1, g.index()), ExportItem::Global(g));
    }
    let tables: Vec<_> = m.tables.iter().map(|t| t.id()).collect();
    for t in tables
        .into_iter()
        .filter(|t| plan.tables.contains(&t.index()))
    {
        names.name(&mut m, (2, t.index()), ExportItem::Table(t));
    }
    let memories: Vec<_> = m.memories.iter().map(|t| t.id()).collect();
    for mem in memories
        .into_iter()
        .filter(|mm| plan.memories.contains(&mm.index()))
    {
        names.name(&mut m, (3, mem.index()), ExportItem::Memory(mem));
    }

    let slots = plan.stubs.len() as u64;
    let table = m
        .tables
        .add_local(false, slots, Some(slots), RefType::FUNCREF);
    m.exports.add(TABLE, table);
    let loaded = m
        .globals
        .add_local(ValType::I32, true, false, ConstExpr::Value(Value::I32(0)));
    m.exports.add(LOADED, loaded);
    let nothing = m.types.add(&[], &[]);
    let (load, _) = m.add_import_func(LOAD_MODULE, LOAD, nothing);

    for (slot, &f) in plan.stubs.iter().enumerate() {
        let id = by_index(f);
        let ty = m.funcs.get(id).ty();
        let (params, results) = {
            let t = m.types.get(ty);
            (t.params().to_vec(), t.results().to_vec())
        };
        let args: Vec<LocalId> = params.iter().map(|&p| m.locals.add(p)).collect();
        let mut stub = FunctionBuilder::new(&mut m.types, &params, &results);
        let mut body = stub.func_body();
        body.global_get(loaded).unop(UnaryOp::I32Eqz).if_else(
            None,
            |then| {
                then.call(load);
            },
            |_| {},
        );
        for &a in &args {
            body.local_get(a);
        }
        body.i32_const(slot as i32).call_indirect(ty, table);
        m.funcs.get_mut(id).kind = FunctionKind::Local(stub.local_func(args));
    }
    // The deferred functions no stub stands for are reached by nothing now.
    walrus::passes::gc::run(&mut m);
    Ok((m.emit_wasm(), names))
}

fn deferred_part(bytes: &[u8], plan: &Plan, names: &Names) -> anyhow::Result<Vec<u8>> {
    let mut m = read(bytes)?;
    // Nothing of the module's own interface: only what the stubs reach.
    let exports: Vec<_> = m.exports.iter().map(|e| e.id()).collect();
    for e in exports {
        m.exports.delete(e);
    }
    m.start = None;
    let segments: Vec<_> = m.elements.iter().map(|e| e.id()).collect();
    for e in segments {
        m.elements.delete(e);
    }
    for t in m.tables.iter_mut() {
        t.elem_segments.clear();
    }
    let data: Vec<_> = m.data.iter().map(|d| d.id()).collect();
    for d in data {
        m.data.delete(d);
    }
    let imports: Vec<_> = m.imports.iter().map(|i| i.id()).collect();
    for i in imports {
        m.imports.delete(i);
    }
    let given = |k: (u8, usize)| names.given.get(&k).cloned().unwrap_or_default();

    // Every function the deferred part does not hold is the first part's;
    // those it does not use are dropped below.
    let funcs: Vec<FunctionId> = m.funcs.iter().map(|f| f.id()).collect();
    for &id in &funcs {
        if plan.moved.contains(&id.index()) {
            continue;
        }
        let ty = m.funcs.get(id).ty();
        let import = m
            .imports
            .add(FIRST, &given((0, id.index())), ImportKind::Function(id));
        m.funcs.get_mut(id).kind = FunctionKind::Import(ImportedFunction { import, ty });
    }
    let globals: Vec<_> = m.globals.iter().map(|g| g.id()).collect();
    for g in globals {
        let import = m
            .imports
            .add(FIRST, &given((1, g.index())), ImportKind::Global(g));
        m.globals.get_mut(g).kind = GlobalKind::Import(import);
    }
    let tables: Vec<_> = m.tables.iter().map(|t| t.id()).collect();
    for t in tables {
        let import = m
            .imports
            .add(FIRST, &given((2, t.index())), ImportKind::Table(t));
        m.tables.get_mut(t).import = Some(import);
    }
    let memories: Vec<_> = m.memories.iter().map(|t| t.id()).collect();
    for mem in memories {
        let import = m
            .imports
            .add(FIRST, &given((3, mem.index())), ImportKind::Memory(mem));
        let memory = m.memories.get_mut(mem);
        memory.import = Some(import);
        memory.data_segments.clear();
    }
    let slots = plan.stubs.len() as u64;
    let table = m
        .tables
        .add_local(false, slots, Some(slots), RefType::FUNCREF);
    let import = m.imports.add(FIRST, TABLE, ImportKind::Table(table));
    m.tables.get_mut(table).import = Some(import);
    let stubs: Vec<FunctionId> = plan.stubs.iter().map(|&f| function_at(&funcs, f)).collect();
    m.elements.add(
        ElementKind::Active {
            table,
            offset: ConstExpr::Value(Value::I32(0)),
        },
        ElementItems::Functions(stubs),
    );
    walrus::passes::gc::run(&mut m);
    // An item the plan missed would be imported under no name.
    if let Some(i) = m.imports.iter().find(|i| i.name.is_empty()) {
        anyhow::bail!(
            "the deferred part uses an item the first part does not export: {:?}",
            i.kind
        );
    }
    Ok(m.emit_wasm())
}
