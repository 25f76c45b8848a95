//! Which memoized values a redefinition invalidates. A game's values
//! depend on its own rules and on everything those rules reach: the games
//! they apply, the functions they call (and what those reach in turn), the
//! top-level `let`s they read at run time, the games whose positions or game
//! values those `let`s hold, and the games whose positions or game values
//! appear in the arguments of the game's own nodes (recorded by the graph as
//! nodes are interned). [`affected`] follows these references backwards from
//! what a unit of source redefines, so that the session drops the values of
//! exactly the games that may now be wrong, and keeps every other.

use crate::defs::{Defs, Global};
use crate::graph::Graph;
use crate::ir::{ClauseIr, FnIr, GameIr, Ir, IrKind, LetId, PatIr, TargetIr, TermIr};
use crate::syntax::ast::Program;
pub use crate::value::games_in;
use crate::value::{GameId, Value};
use rustc_hash::{FxHashMap, FxHashSet};

/// The globals one definition refers to.
pub type Refs = FxHashSet<Global>;

/// What a game's rules refer to: binder domains, guards and targets.
pub fn game_refs(game: &GameIr) -> Refs {
    let mut refs = Refs::default();
    for rule in &game.moves {
        for (pattern, domain) in &rule.binders {
            pat(pattern, &mut refs);
            ir(domain, &mut refs);
        }
        if let Some(guard) = &rule.guard {
            ir(guard, &mut refs);
        }
        match &rule.target {
            TargetIr::Terms(terms) => {
                for term in terms {
                    match term {
                        TermIr::Node(id, args, _) => {
                            refs.insert(Global::Game(*id));
                            args.iter().for_each(|a| ir(a, &mut refs));
                        }
                        TermIr::Heap(k) => ir(k, &mut refs),
                    }
                }
            }
            TargetIr::Dynamic(e) => ir(e, &mut refs),
        }
    }
    refs
}

/// What a function's body refers to.
pub fn fn_refs(f: &FnIr) -> Refs {
    let mut refs = Refs::default();
    ir(&f.body, &mut refs);
    refs
}

/// The games a `let`'s current value holds positions or game values of.
pub fn let_refs(value: Option<&Value>) -> Refs {
    let mut refs = Refs::default();
    if let Some(v) = value {
        games_in(v, &mut |g| {
            refs.insert(Global::Game(g));
        });
    }
    refs
}

fn ir(e: &Ir, refs: &mut Refs) {
    let all = |items: &[Ir], refs: &mut Refs| items.iter().for_each(|x| ir(x, refs));
    match &e.kind {
        IrKind::Const(v) => games_in(v, &mut |g| {
            refs.insert(Global::Game(g));
        }),
        IrKind::Local(_) => {}
        IrKind::Global(id) => {
            refs.insert(Global::Let(*id));
        }
        IrKind::Tuple(items) | IrKind::List(items) | IrKind::Set(items) => all(items, refs),
        IrKind::Comprehension { elem, clauses, .. } => {
            for clause in clauses {
                match clause {
                    ClauseIr::For(pattern, domain) => {
                        pat(pattern, refs);
                        ir(domain, refs);
                    }
                    ClauseIr::If(cond) => ir(cond, refs),
                }
            }
            ir(elem, refs);
        }
        IrKind::Unary(_, x) => ir(x, refs),
        IrKind::Binary(_, l, r) | IrKind::Index(l, r) => {
            ir(l, refs);
            ir(r, refs);
        }
        IrKind::If(c, a, b) => {
            ir(c, refs);
            ir(a, refs);
            ir(b, refs);
        }
        IrKind::Let(pattern, value, body) => {
            pat(pattern, refs);
            ir(value, refs);
            ir(body, refs);
        }
        IrKind::Chain(operands, _) => all(operands, refs),
        IrKind::CallFn(id, args) => {
            refs.insert(Global::Fn(*id));
            all(args, refs);
        }
        IrKind::CallBuiltin(_, args) => all(args, refs),
        IrKind::Apply(id, args) => {
            refs.insert(Global::Game(*id));
            all(args, refs);
        }
        IrKind::CallValue(callee, args, _) => {
            ir(callee, refs);
            all(args, refs);
        }
        IrKind::TableOf(id, args, axes) => {
            refs.insert(Global::Game(*id));
            args.iter().flatten().for_each(|a| ir(a, refs));
            all(axes, refs);
        }
        IrKind::Slice(x, lo, hi) => {
            ir(x, refs);
            for bound in [lo, hi].into_iter().flatten() {
                ir(bound, refs);
            }
        }
    }
}

fn pat(p: &PatIr, refs: &mut Refs) {
    match p {
        PatIr::Slot(_) => {}
        PatIr::Global(id) => {
            refs.insert(Global::Let(*id));
        }
        PatIr::Tuple(parts, _) => parts.iter().for_each(|p| pat(p, refs)),
    }
}

/// The `let`s that `pattern` binds which hold a value already: running a
/// `let` statement that binds it changes what rules reading them see. (For
/// a statement runner to invalidate with [`affected`] after binding, which
/// covers a rule evaluated between a unit's loading and its `let` running.)
pub fn rebound_lets(defs: &Defs, pattern: &PatIr) -> Vec<Global> {
    let mut lets = Refs::default();
    pat(pattern, &mut lets);
    let mut ids: Vec<LetId> = lets
        .into_iter()
        .filter_map(|g| match g {
            Global::Let(id) if defs.lets[id as usize].value.is_some() => Some(id),
            _ => None,
        })
        .collect();
    ids.sort_unstable();
    ids.into_iter().map(Global::Let).collect()
}

/// The existing globals that `program` defines again: its games, functions
/// and every name its top-level `let`s bind (through tuple patterns too).
/// A name may change kind (a `let` becoming a game): the old global counts.
pub fn redefined(program: &Program, defs: &Defs) -> Vec<Global> {
    let mut out = Vec::new();
    for stmt in &program.stmts {
        let names = stmt.defined_names().into_iter();
        out.extend(names.filter_map(|n| defs.lookup(&n.node)));
    }
    out
}

/// The games whose memoized values must go when the globals in `changed`
/// (games, functions and `let`s about to be redefined) change: the changed
/// games themselves and every game that reaches a changed global through
/// the references above, transitively. Sorted, without repeats.
pub fn affected(defs: &Defs, graph: &Graph, changed: &[Global]) -> Vec<GameId> {
    // Who refers to each global: the reference graph, reversed.
    let mut users: FxHashMap<Global, Vec<Global>> = FxHashMap::default();
    let mut add = |user: Global, refs: Refs| {
        for r in refs {
            users.entry(r).or_default().push(user);
        }
    };
    for (id, game) in defs.games.iter().enumerate() {
        let id = id as GameId;
        let mut refs = game.as_deref().map(game_refs).unwrap_or_default();
        refs.extend(graph.arg_games(id).map(Global::Game));
        // A game made for fixed arguments (`crate::runtime::instances`)
        // depends on the game it was made from, named as that one.
        if let Some(g) = game
            && let Some(Global::Game(of)) = defs.lookup(&g.name)
            && of != id
        {
            refs.insert(Global::Game(of));
        }
        add(Global::Game(id), refs);
    }
    for (id, f) in defs.fns.iter().enumerate() {
        if let Some(f) = f {
            add(Global::Fn(id as u32), fn_refs(f));
        }
    }
    for (id, slot) in defs.lets.iter().enumerate() {
        add(Global::Let(id as u32), let_refs(slot.value.as_ref()));
    }
    let mut reached: FxHashSet<Global> = changed.iter().copied().collect();
    let mut work: Vec<Global> = reached.iter().copied().collect();
    while let Some(g) = work.pop() {
        for user in users.get(&g).into_iter().flatten() {
            if reached.insert(*user) {
                work.push(*user);
            }
        }
    }
    let mut games: Vec<GameId> = reached
        .into_iter()
        .filter_map(|g| match g {
            Global::Game(id) => Some(id),
            _ => None,
        })
        .collect();
    games.sort_unstable();
    games
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{Session, loaded};
    use crate::span::Span;

    /// The names of the games `affected` returns when `names` change.
    fn affected_by(session: &Session, names: &[&str]) -> Vec<String> {
        let defs = &session.machine.defs;
        let changed: Vec<Global> = names.iter().map(|n| defs.lookup(n).unwrap()).collect();
        affected(defs, &session.machine.graph, &changed)
            .into_iter()
            .map(|g| defs.game_name(g).to_string())
            .collect()
    }

    fn ran(src: &str) -> Session {
        let mut session = Session::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
        let outcome = session.run("test.game", src);
        assert_eq!(outcome.error, None, "{src}");
        session
    }

    #[test]
    fn rules_refer_to_games_fns_and_lets_wherever_they_appear() {
        let (session, _) = loaded(
            "let S = {1}\nlet (A, B) = (1, 2)\nfn f(n) = n\nfn unused(n) = n\ngame g(n) {\n move m(k in S) if f(k) > 0 -> g(n - k)\n}\ngame h(n) {\n move a -> [x for x in [g] if A > 0][0](n)\n move b -> *n + 0\n}\ngame k(n) {\n move m -> 0\n}\n",
        );
        let defs = &session.machine.defs;
        let g = |name: &str| defs.lookup(name).unwrap();
        let of_g = game_refs(defs.game(0).unwrap());
        let want: Refs = [g("S"), g("f"), g("g")].into_iter().collect();
        assert_eq!(of_g, want);
        let of_h = game_refs(defs.game(1).unwrap());
        let want: Refs = [g("g"), g("A")].into_iter().collect();
        assert_eq!(of_h, want);
        assert!(game_refs(defs.game(2).unwrap()).is_empty());
    }

    #[test]
    fn games_in_finds_nodes_and_game_values_at_any_depth() {
        let (mut session, _) =
            loaded("game g(n) {\n move m -> 0\n}\ngame h(n) {\n move m -> 0\n}\n");
        let m = &mut session.machine;
        let node = m.intern(0, &[Value::Int(1)], Span::default()).unwrap();
        let pos = Value::Pos(crate::value::Position::node(node));
        let nested = Value::list(vec![
            Value::Int(3),
            Value::Tuple([Value::Set(std::rc::Rc::new([pos].into_iter().collect()))].into()),
            Value::Game(1),
        ]);
        let mut found = Vec::new();
        games_in(&nested, &mut |g| found.push(g));
        assert_eq!(found, [0, 1]);
        let mut none = Vec::new();
        games_in(
            &Value::list(vec![Value::Int(1), Value::str("x")]),
            &mut |g| none.push(g),
        );
        assert!(none.is_empty());
    }

    #[test]
    fn a_changed_game_affects_its_users_through_games_and_fns_only() {
        let (session, _) = loaded(
            "game g(n) {\n move m if n > 0 -> g(n - 1)\n}\nfn f(n) = g(n)\nfn ok(n) = n > 0\ngame viafn(n) {\n move m -> f(n)\n}\ngame direct(n) {\n move m -> g(n) + *1\n}\ngame twice(n) {\n move m -> viafn(n)\n}\ngame guarded(n) {\n move m if ok(n) -> guarded(n - 1)\n}\ngame k(n) {\n move m if n > 0 -> k(n - 1)\n}\n",
        );
        assert_eq!(
            affected_by(&session, &["g"]),
            ["g", "viafn", "direct", "twice"]
        );
        assert_eq!(affected_by(&session, &["f"]), ["viafn", "twice"]);
        assert_eq!(affected_by(&session, &["ok"]), ["guarded"]);
        assert_eq!(affected_by(&session, &["k"]), ["k"]);
    }

    #[test]
    fn a_let_links_its_readers_to_the_games_in_its_value() {
        let session = ran(
            "game g(n) {\n move m if n > 0 -> g(n - 1)\n}\ngame other(n) {\n move m -> 0\n}\nlet P = g(3)\nlet G = (1, [other])\nlet K = 2\ngame reads_p(n) {\n move m -> P\n}\ngame reads_g(n) {\n move m -> G[1][0](n)\n}\ngame reads_k(n) {\n move m(k in 1..=K) if n >= k -> reads_k(n - k)\n}\n",
        );
        assert_eq!(affected_by(&session, &["g"]), ["g", "reads_p"]);
        assert_eq!(affected_by(&session, &["other"]), ["other", "reads_g"]);
        assert_eq!(affected_by(&session, &["K"]), ["reads_k"]);
        assert_eq!(affected_by(&session, &["P"]), ["reads_p"]);
    }

    #[test]
    fn rebound_lets_are_those_of_the_pattern_with_a_value() {
        let mut session = ran("let (A, B) = (1, 2)\n");
        let stmts = session
            .load("more", "let (A, (C, B)) = (3, (4, 5))\n")
            .unwrap();
        let crate::ir::StmtIr::Let { pattern, .. } = &stmts[0] else {
            panic!("a let lowers to a let");
        };
        let defs = &session.machine.defs;
        let want = [defs.lookup("A").unwrap(), defs.lookup("B").unwrap()];
        assert_eq!(rebound_lets(defs, pattern), want, "C has no value yet");
    }

    #[test]
    fn positions_in_node_arguments_link_the_games() {
        let mut session = ran(
            "game g(n) {\n move m if n > 0 -> g(n - 1)\n}\ngame wrap(p) {\n move m -> p\n}\ngame outer(n) {\n move m -> wrap(n)\n}\n",
        );
        assert_eq!(affected_by(&session, &["g"]), ["g"], "no wrap(g(..)) yet");
        session.run("more", "value(wrap(g(2)))\n");
        assert_eq!(affected_by(&session, &["g"]), ["g", "wrap", "outer"]);
    }
}
