//! The report `--explain` and the REPL's `:explain` print: each game
//! defined, how its rules run, and the constructs on slower paths.

use super::{game_hinted, game_numbered};
use crate::defs::Defs;
use crate::diag::Sources;
use crate::ir::GameIr;
use crate::runtime::CompiledQuery;
use crate::runtime::kernel::Hints;
use crate::value::GameId;

/// Why a compiled game's position runs in the interpreter.
const LEFT: &str = ": arguments of other shapes than the compiled rules were made for (a \
                    list where they take a string or booleans, integers where they take \
                    booleans, a collection of other items), or what only the interpreter does (integers past \
                    64 bits, an error to report, a sum of positions without values yet)\n";

/// The report of every game defined (or only of `only`), as text, with
/// locations and the source of each slow construct from `sources`.
/// `interpreted` counts, for each game, the positions its compiled rules
/// left to the interpreter so far (see
/// [`crate::runtime::Machine::interpreted`]); `hints`, the shapes of a
/// position met that typed its parameters where the rules alone did not.
pub fn render<'q>(
    defs: &Defs,
    sources: &Sources,
    only: Option<&str>,
    (interpreted, hints): (&[u64], &[Hints]),
    queries: impl IntoIterator<Item = &'q CompiledQuery>,
) -> Result<String, String> {
    let mut out = games(defs, sources, only, (interpreted, hints))?;
    // Queries are told with the whole report, not with one game's.
    if only.is_none() {
        out += &compiled_queries(defs, sources, queries);
    }
    match out.is_empty() {
        true => Err("no game is defined yet".into()),
        false => Ok(out),
    }
}

/// The games' part of [`render`]: empty when no game is defined (and
/// `only` is `None`).
fn games(
    defs: &Defs,
    sources: &Sources,
    only: Option<&str>,
    (interpreted, hints): (&[u64], &[Hints]),
) -> Result<String, String> {
    // Games made for fixed arguments (`crate::runtime::instances`) are
    // told with the game they were made from, and their counts added to
    // its own.
    let own = |id: GameId, g: &GameIr| defs.lookup(&g.name) == Some(crate::defs::Global::Game(id));
    let mut counts = interpreted.to_vec();
    for (id, g) in defs.games.iter().enumerate() {
        if let (Some(g), Some(&n)) = (g, interpreted.get(id))
            && !own(id as GameId, g)
            && let Some(crate::defs::Global::Game(of)) = defs.lookup(&g.name)
            && let Some(count) = counts.get_mut(of as usize)
        {
            *count += n;
        }
    }
    let interpreted = &counts;
    let mut games: Vec<(GameId, &GameIr)> = defs
        .games
        .iter()
        .enumerate()
        .filter_map(|(id, g)| Some((id as GameId, g.as_deref()?)))
        .filter(|(id, g)| own(*id, g) && only.is_none_or(|name| *g.name == *name))
        .collect();
    games.sort_by_key(|(id, _)| *id);
    match (games.is_empty(), only) {
        (true, Some(name)) => return Err(format!("no game is named `{name}`")),
        (true, None) => return Ok(String::new()),
        _ => {}
    }
    let mut out = String::new();
    for (id, rules) in games {
        // A game made for fixed arguments tells how they run: the first.
        let made = (defs.games.iter().enumerate()).find_map(|(made, g)| {
            let g = g.as_deref()?;
            (made as GameId != id
                && std::rc::Rc::ptr_eq(&g.def, &rules.def)
                && !own(made as GameId, g))
            .then_some((made as GameId, g))
        });
        let report = match made {
            Some((made, g)) => game_numbered(g, made, defs, hints),
            None => game_hinted(rules, defs, hints),
        };
        let params: Vec<&str> = rules.def.params.iter().map(|p| &*p.node).collect();
        let how = match (report.compiled, report.native) {
            (true, true) => "compiled to machine code",
            (true, false) => "compiled",
            _ => "interpreted",
        };
        out += &format!("{}({}): {how}\n", rules.name, params.join(", "));
        out += &fixed(id, &params, defs);
        match interpreted.get(id as usize) {
            Some(1) if report.compiled => {
                out += "  at run time, 1 position ran in the interpreter instead";
                out += LEFT;
            }
            Some(&n) if report.compiled && n > 1 => {
                out += &format!("  at run time, {n} positions ran in the interpreter instead");
                out += LEFT;
            }
            _ => {}
        }
        // A tuple read item by item: its items, as the rules read them.
        let items: Vec<String> = match (report.split, params.as_slice()) {
            (Some(n), [p]) => {
                out += &format!(
                    "  its state {p} read item by item: run as {n} integers, {p}[0] to {p}[{}]\n",
                    n - 1
                );
                (0..n).map(|i| format!("{p}[{i}]")).collect()
            }
            (Some(n), _) => {
                out += &format!("  its tuples read item by item: run as {n} integers\n");
                params.iter().map(|p| p.to_string()).collect()
            }
            _ => params.iter().map(|p| p.to_string()).collect(),
        };
        if let (Some(l), [x, y]) = (report.levels, items.as_slice()) {
            let (p, q) = l.weights;
            let weight = |k: i64, v: &str| match k {
                1 => v.to_string(),
                k => format!("{k} * {v}"),
            };
            out += &format!(
                "  a board: every move lowers {} + {}, and stays in {x} = {}..={}, \
                 {y} = {}..={}; swept in that order, each square once\n",
                weight(p, x),
                weight(q, y),
                l.rows.0,
                l.rows.1,
                l.cols.0,
                l.cols.1
            );
        }
        if let (Some(s), [_, _]) = (report.strip, params.as_slice()) {
            let (long, short) = (params[s.long], params[1 - s.long]);
            let own = match (s.down, s.keeps) {
                (true, true) => " (or the position's own or any below it, down to those)",
                (true, false) => " (or any below the position's own, down to those)",
                (false, true) => " (or the position's own)",
                (false, false) => "",
            };
            let cols = match (s.flag, s.cols) {
                (true, (0, 0)) => "is false".to_string(),
                (true, (1, 1)) => "is true".to_string(),
                (true, _) => "is true or false".to_string(),
                (false, (lo, hi)) => format!("is in {lo}..={hi}"),
            };
            out += &match s.kept() {
                true => format!(
                    "  a strip: every option keeps {short}; swept row by row of {long} in \
                     the {short} asked, each position once\n"
                ),
                false => format!(
                    "  a strip: every option's {short} {cols}{own}; \
                     swept row by row of {long}, each position once\n"
                ),
            };
        }
        if let (Some((long, [(a0, a1), (b0, b1)])), [_, _, _]) = (report.strip3, params.as_slice())
        {
            let [i, j] = crate::runtime::kernel::strip3::shorts(long);
            out += &format!(
                "  strips: from {a} = {b} = 0, every option's {a} is in {a0}..={a1} and its {b} \
                 in {b0}..={b1}; past the cube (a {side} side), swept row by row of {n}, each \
                 position once\n",
                a = params[i],
                b = params[j],
                n = params[long],
                side = crate::graph::SIDE3_MAX,
            );
        }
        for m in &report.moves {
            out += &format!(
                "  move {} ({}): {}\n",
                m.name,
                sources.location(m.span),
                m.how
            );
            let mut said = None;
            for s in &m.slow {
                let text = excerpt(sources, s.span);
                out += &format!("    {} `{text}`: {}\n", sources.location(s.span), s.what);
                if said != Some(&s.instead) {
                    out += &format!("      instead: {}\n", s.instead);
                }
                said = Some(&s.instead);
            }
        }
    }
    Ok(out)
}

/// The line telling the parameters of game `id` that positions are
/// kept apart by (those every move passes on unchanged), if there are
/// any (see [`crate::runtime::instances`]).
fn fixed(id: GameId, params: &[&str], defs: &Defs) -> String {
    let at = crate::runtime::normalize::instance::fixed(defs, id).unwrap_or_default();
    let names: Vec<String> = at.iter().map(|i| format!("`{}`", params[*i])).collect();
    let Some((last, init)) = names.split_last() else {
        return String::new();
    };
    let (names, is_given, as_constants) = match init {
        [] => (last.clone(), "it is given", "it as a constant"),
        _ => (
            format!("{} and {last}", init.join(", ")),
            "they are given",
            "them as constants",
        ),
    };
    format!(
        "  every move passes {names} on unchanged: for each value other than an \
         integer {is_given} (a list, set, tuple, string or boolean), the rules are made \
         again with {as_constants}, and compiled as a game of the other \
         parameters\n"
    )
}

/// The lines telling the top-level queries answered by machine code, in
/// the order they ran: where each is, how many elements its loops make,
/// and the boards swept before it.
fn compiled_queries<'q>(
    defs: &Defs,
    sources: &Sources,
    queries: impl IntoIterator<Item = &'q CompiledQuery>,
) -> String {
    let mut out = String::new();
    for q in queries {
        if out.is_empty() {
            out += "queries answered by machine code (each element made in a compiled loop, \
                    the values it asks read from the tables):\n";
        }
        let elements = match q.iterations {
            1 => "1 element".to_string(),
            n => format!("{} elements", crate::progress::thousands(n)),
        };
        out += &format!(
            "  {} `{}`: {elements}\n",
            sources.location(q.span),
            excerpt(sources, q.span)
        );
        for (game, ends) in &q.swept {
            let Some(g) = defs.game(*game) else { continue };
            let params: Vec<&str> = g.def.params.iter().map(|p| &*p.node).collect();
            out += &swept(&g.name, &params, ends);
        }
    }
    out
}

/// A rectangle or box a query swept first: `g(x, y) for x in 0..9, y in
/// 0..9`, or for a tuple `g(p) for the items of p in 0..9, 0..9, 0..9`.
fn swept(name: &str, params: &[&str], ends: &[crate::runtime::kernel::query::Ends]) -> String {
    let ranges: Vec<String> = ends.iter().map(|(lo, hi)| format!("{lo}..{hi}")).collect();
    let how = match ends.len() {
        2 => "as a table is",
        _ => "row by row of its cube",
    };
    if let [p] = params {
        return format!(
            "    swept first, {how}: {name}({p}) for the items of {p} in {}\n",
            ranges.join(", ")
        );
    }
    let each: Vec<String> = (params.iter().zip(&ranges))
        .map(|(p, r)| format!("{p} in {r}"))
        .collect();
    format!(
        "    swept first, {how}: {name}({}) for {}\n",
        params.join(", "),
        each.join(", ")
    )
}

/// The source of `span` on one line, cut to 48 characters.
fn excerpt(sources: &Sources, span: crate::span::Span) -> String {
    let text = &sources.text(span.file)[span.start as usize..span.end as usize];
    let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match text.chars().count() > 48 {
        true => text.chars().take(45).collect::<String>() + "...",
        false => text,
    }
}
