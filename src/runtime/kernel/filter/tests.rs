//! The filter's unit tests: values kept in any window, listed while
//! sparse, and asked of other positions.

use super::super::expr::Num;
use super::*;
use crate::syntax::ast::BinOp;

/// `k % 3 == 1` as a filter of slot 0.
fn filter() -> Filter {
    let rem = Num::Bin(BinOp::Rem, Box::new(Num::Slot(0)), Box::new(Num::Const(3)));
    Filter::new(&[Cond::Cmp(BinOp::Eq, rem, Num::Const(1))], 0, 1).expect("asks nothing")
}

fn kept(f: &Filter, window: (i64, i64)) -> Vec<i64> {
    let mut out = Vec::new();
    f.each(window, |k| {
        out.push(k);
        Ok(())
    })
    .unwrap();
    out
}

#[test]
fn the_values_where_it_holds_are_found_in_any_window() {
    let defs = Defs::default();
    let f = filter();
    for (lo, hi) in [
        (0, 10),
        (5, 200),
        (63, 65),
        (0, 1000),
        (64, 128),
        (7, 7),
        (900, 901),
    ] {
        assert_eq!(f.fill((lo, hi), &defs, None), Ok(hi));
        let want: Vec<i64> = (lo..hi).filter(|k| k % 3 == 1).collect();
        assert_eq!(kept(&f, (lo, hi)), want, "{lo}..{hi}");
    }
    assert!(Filter::covers((0, FILTER_END)));
    assert!(!Filter::covers((-1, 5)));
    assert!(!Filter::covers((0, FILTER_END + 1)));
    assert_eq!(f.fill((10, 5), &defs, None), Ok(5), "an empty window");
}

/// `k % m == r` as a filter of slot 0.
fn every(m: i64, r: i64) -> Filter {
    let rem = Num::Bin(BinOp::Rem, Box::new(Num::Slot(0)), Box::new(Num::Const(m)));
    Filter::new(&[Cond::Cmp(BinOp::Eq, rem, Num::Const(r))], 0, 1).expect("asks nothing")
}

/// A window that grows from the same start, as `k in 1..=n` does at
/// each position, or from inside the values evaluated, is listed
/// while the values that hold are sparse: the list holds exactly
/// them, in order, a long window is run over by it, and each value is
/// evaluated once however often a window is filled. A window apart
/// from the run is not listed but still found; a list whose values
/// hold often stops growing, and its windows are found by the words.
#[test]
fn windows_growing_from_one_start_are_listed_while_sparse() {
    let defs = Defs::default();
    let f = every(64, 5);
    for (lo, hi) in [
        (1, 2),
        (1, 8),
        (1, 8),
        (1, 70),
        (1, 71),
        (1, 300),
        (150, 3000),
        (1, 5000),
    ] {
        assert_eq!(f.fill((lo, hi), &defs, None), Ok(hi));
        let want: Vec<i64> = (lo..hi).filter(|k| k % 64 == 5).collect();
        assert_eq!(kept(&f, (lo, hi)), want, "{lo}..{hi}");
    }
    assert_eq!(f.evaluated(), 4999, "each value once");
    assert_eq!(f.list_from((1, 5000)), Some(0));
    assert_eq!(
        f.list_from((300, 5000)),
        Some(5),
        "the first at or past 300: 325"
    );
    assert_eq!(f.list_from((0, 10)), None, "0 is not listed");
    assert_eq!(f.list_from((1, 5001)), None, "5000 is not evaluated");
    // Apart from the run: found by the words.
    assert_eq!(f.fill((6000, 6400), &defs, None), Ok(6400));
    assert_eq!(f.list_from((6000, 6400)), None);
    let want: Vec<i64> = (6000..6400).filter(|k| k % 64 == 5).collect();
    assert_eq!(kept(&f, (6000, 6400)), want);
    // Values that hold one in three: listed only at first.
    let dense = every(3, 1);
    for hi in [100, 1000, 4000] {
        assert_eq!(dense.fill((1, hi), &defs, None), Ok(hi));
        let want: Vec<i64> = (1..hi).filter(|k| k % 3 == 1).collect();
        assert_eq!(kept(&dense, (1, hi)), want, "1..{hi}");
    }
    assert_eq!(dense.list_from((1, 100)), Some(0));
    assert_eq!(dense.list_from((1, 1000)), None, "too many to list");
    assert_eq!(dense.evaluated(), 3999);
}

/// `value(g(k + 1)) == 0` as a filter of slot 0, in a frame of one.
fn asking() -> Filter {
    let k1 = Num::Bin(BinOp::Add, Box::new(Num::Slot(0)), Box::new(Num::Const(1)));
    let asked = Num::Value(7, vec![k1]);
    Filter::new(&[Cond::Cmp(BinOp::Eq, asked, Num::Const(0))], 0, 1).expect("of k alone")
}

/// The values a conjunct asks are read before it is evaluated; the
/// values are kept up to the first whose position has no value yet,
/// and from there once it has one. With no reader nothing is kept.
#[test]
fn values_are_kept_up_to_the_first_position_asked_without_a_value() {
    let defs = Defs::default();
    let f = asking();
    // g(m) is lost where m % 3 == 0; known below `known`.
    let values = |known: i64| {
        move |game: GameId, args: &[i64]| {
            assert_eq!(game, 7);
            let m = args[0];
            (m < known).then_some(i64::from(m % 3 != 0))
        }
    };
    assert_eq!(f.fill((0, 50), &defs, None), Ok(0));
    assert_eq!(f.fill((0, 50), &defs, Some(&values(20))), Ok(19));
    assert_eq!(kept(&f, (0, 19)), vec![2, 5, 8, 11, 14, 17]);
    assert_eq!(f.evaluated(), 19);
    assert_eq!(f.fill((0, 50), &defs, Some(&values(100))), Ok(50));
    let want: Vec<i64> = (0..50).filter(|k| (k + 1) % 3 == 0).collect();
    assert_eq!(kept(&f, (0, 50)), want);
    // Kept values are not asked again.
    assert_eq!(f.fill((0, 50), &defs, Some(&|_, _| None)), Ok(50));
    assert_eq!(f.evaluated(), 50);
}

/// A conjunct that asks a position of more than the binder is no
/// filter; an asked value in arithmetic is.
#[test]
fn only_values_asked_of_the_binder_alone_are_lifted() {
    let of = |args: Vec<Num>| {
        let asked = Num::Bin(
            BinOp::Mul,
            Box::new(Num::Value(3, args)),
            Box::new(Num::Const(2)),
        );
        Filter::new(&[Cond::Cmp(BinOp::Lt, asked, Num::Slot(0))], 0, 2)
    };
    assert!(of(vec![Num::Slot(0)]).is_some());
    assert!(of(vec![Num::Slot(1)]).is_none());
    assert!(of(vec![Num::Slot(0), Num::Slot(1)]).is_none());
    // Asked after an `and`, the value is not lifted.
    let asked = Num::Value(3, vec![Num::Slot(0)]);
    let after = Cond::And(
        Box::new(Cond::Cmp(BinOp::Lt, Num::Slot(0), Num::Const(5))),
        Box::new(Cond::Cmp(BinOp::Eq, asked, Num::Const(0))),
    );
    assert!(Filter::new(&[after], 0, 1).is_none());
}

/// A conjunct of the binder alone that asks another game's positions
/// (`value(sub(k)) == 0`) is kept once per game and value too, in the
/// machine code, which alone asks: a position's value does not change
/// once it has one. One that asks a position of the binder and the
/// position's own parameter, or a list position, is tested per option;
/// a value asked after an `and` is tested per option, the conjuncts
/// before it kept. The tables are the interpreter's.
#[test]
fn conjuncts_that_ask_values_of_the_binder_alone_are_kept_once_per_value() {
    for (guard, kept) in [
        ("ask(k) == 0", 300),
        ("ask(2 * k + 1) != ask(k)", 300),
        ("ask(k) > 0 and k % 2 == 1", 300),
        ("k % 2 == 1 and ask(k) > 0", 300),
        ("ask(k + n) == 0", 0),
        ("ask(n - k) == 0", 0),
        ("listed(k) == 0", 0),
    ] {
        let source = format!(
            "game sub(n) {{ move t(k in {{1, 3, 4}}) if k <= n -> sub(n - k) }}\n\
             game pos(s) {{ move t(i in 0..len(s)) if s[i] > 0 -> pos([s[i] - 1]) }}\n\
             fn ask(m) = value(sub(m))\nfn listed(m) = value(pos([m]))\n\
             game g(n) {{\n move t(k in 1..=n) if {guard} -> g(n - k)\n}}\n\
             table(g, 0..=300)\n"
        );
        let mut tables = Vec::new();
        for native in [true, false] {
            let out = crate::SharedBuffer::default();
            let mut session =
                crate::session::Session::new(Box::new(out.clone()), Box::new(std::io::sink()));
            session.machine.use_native = native;
            session.machine.use_kernels = native;
            session.machine.native_after = 0;
            assert_eq!(session.run("test.game", &source).exit_code(), 0, "{source}");
            tables.push(out.0.borrow().clone());
            if !native {
                continue;
            }
            let Some(crate::defs::Global::Game(g)) = session.machine.defs.lookup("g") else {
                panic!("g is a game");
            };
            // A list position asked (`listed`) is not compiled at all.
            let kernel = session.machine.kernel(g);
            assert!(kernel.is_some() || kept == 0, "{guard} compiles");
            assert_eq!(kernel.map_or(0, |k| k.filtered()), kept, "{guard}");
        }
        assert_eq!(tables[0], tables[1], "{guard}");
        assert!(tables[0].len() > 300, "{guard}: a table printed");
    }
}
