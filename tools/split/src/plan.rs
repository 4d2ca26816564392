//! Which functions each part holds, and what the deferred part takes from
//! the first.
//!
//! Items are named by their index in the module as read (functions, globals,
//! tables, memories each counted on their own): the two parts are written
//! from two readings of the same bytes, where the same item has the same
//! index.

use std::collections::BTreeSet;
use walrus::ir::{dfs_in_order, Visitor};
use walrus::{
    ConstExpr, ElementItems, ExportItem, FunctionId, FunctionKind, GlobalId, MemoryId, Module,
    TableId,
};

/// What one function's body refers to.
#[derive(Default)]
struct Uses {
    funcs: Vec<usize>,
    globals: Vec<usize>,
    tables: Vec<usize>,
    memories: Vec<usize>,
}

impl<'a> Visitor<'a> for Uses {
    fn visit_function_id(&mut self, f: &FunctionId) {
        self.funcs.push(f.index());
    }
    fn visit_global_id(&mut self, g: &GlobalId) {
        self.globals.push(g.index());
    }
    fn visit_table_id(&mut self, t: &TableId) {
        self.tables.push(t.index());
    }
    fn visit_memory_id(&mut self, m: &MemoryId) {
        self.memories.push(m.index());
    }
}

/// The split of a module, by index.
#[derive(Debug, PartialEq, Eq)]
pub struct Plan {
    /// The deferred functions the first part still reaches (called, exported
    /// or held in a table): each keeps a stub there, which calls through its
    /// slot (its place in this list) of the deferred part's table.
    pub stubs: Vec<usize>,
    /// Every deferred function the deferred part holds: those reached from
    /// the stubs.
    pub moved: BTreeSet<usize>,
    /// What the deferred part takes from the first part: functions (the
    /// first part's own and its imports), globals, tables and memories.
    pub funcs: BTreeSet<usize>,
    pub globals: BTreeSet<usize>,
    pub tables: BTreeSet<usize>,
    pub memories: BTreeSet<usize>,
}

/// The plan that moves out the functions of `module` for which `deferred`
/// holds (by index; an imported function always stays).
///
/// A function stays in the first part when the first part reaches it, from
/// its exports, start, and tables, without passing through a deferred
/// function. The deferred part reaches first-part functions too; those
/// become roots of the first part (exported to the deferred part), which
/// may reach more deferred functions: repeated until nothing changes.
pub fn plan(module: &Module, deferred: &dyn Fn(usize) -> bool) -> Plan {
    let count = module
        .funcs
        .iter()
        .map(|f| f.id().index() + 1)
        .max()
        .unwrap_or(0);
    let mut uses: Vec<Uses> = (0..count).map(|_| Uses::default()).collect();
    let mut local = vec![false; count];
    for f in module.funcs.iter() {
        if let FunctionKind::Local(body) = &f.kind {
            local[f.id().index()] = true;
            dfs_in_order(&mut uses[f.id().index()], body, body.entry_block());
        }
    }
    let is_deferred = |f: usize| local[f] && deferred(f);

    let mut roots: Vec<usize> = Vec::new();
    for e in module.exports.iter() {
        if let ExportItem::Function(f) = e.item {
            roots.push(f.index());
        }
    }
    roots.extend(module.start.map(|f| f.index()));
    for segment in module.elements.iter() {
        match &segment.items {
            ElementItems::Functions(fs) => roots.extend(fs.iter().map(|f| f.index())),
            ElementItems::Expressions(_, exprs) => {
                for e in exprs {
                    if let ConstExpr::RefFunc(f) = e {
                        roots.push(f.index());
                    }
                }
            }
        }
    }

    let mut taken: BTreeSet<usize> = BTreeSet::new();
    loop {
        // The first part, from its roots: a deferred function reached is a
        // stub, whose body is not followed.
        let mut seen = vec![false; count];
        let mut stubs = BTreeSet::new();
        let mut stack: Vec<usize> = roots.iter().chain(&taken).copied().collect();
        while let Some(f) = stack.pop() {
            if std::mem::replace(&mut seen[f], true) {
                continue;
            }
            if is_deferred(f) {
                stubs.insert(f);
            } else {
                stack.extend(&uses[f].funcs);
            }
        }
        // The deferred part, from the stubs.
        let mut plan = Plan {
            stubs: stubs.iter().copied().collect(),
            moved: BTreeSet::new(),
            funcs: BTreeSet::new(),
            globals: BTreeSet::new(),
            tables: BTreeSet::new(),
            memories: BTreeSet::new(),
        };
        let mut stack: Vec<usize> = plan.stubs.clone();
        while let Some(f) = stack.pop() {
            if !plan.moved.insert(f) {
                continue;
            }
            let u = &uses[f];
            plan.globals.extend(&u.globals);
            plan.tables.extend(&u.tables);
            plan.memories.extend(&u.memories);
            for &g in &u.funcs {
                if is_deferred(g) {
                    stack.push(g);
                } else {
                    plan.funcs.insert(g);
                }
            }
        }
        if plan.funcs.is_subset(&taken) {
            return plan;
        }
        taken.extend(&plan.funcs);
    }
}
