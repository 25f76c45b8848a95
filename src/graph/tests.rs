use super::*;

#[test]
fn small_integer_arguments_are_dense_and_others_hashed() {
    let mut graph = Graph::default();
    let int = |n: i64| Value::Int(n);
    // A one-parameter game: the index is the argument.
    let a = graph.insert(0, &[int(7)]);
    assert_eq!(a.index, 7);
    let neg = graph.insert(0, &[int(-1)]);
    assert!(neg.index >= DENSE_END, "negative arguments are hashed");
    assert_eq!(graph.find(0, &[int(7)]), Some(a));
    assert_eq!(graph.find(0, &[int(-1)]), Some(neg));
    assert_eq!(graph.find(0, &[int(8)]), None);
    // A two-parameter game: the index is the Szudzik number, kept by rows.
    let pairs = [(0, 0), (3, 5), (5, 3), (46_339, 2)];
    let nodes: Vec<NodeId> = pairs
        .iter()
        .map(|(x, y)| graph.insert(1, &[int(*x), int(*y)]))
        .collect();
    for ((x, y), node) in pairs.iter().zip(&nodes) {
        assert!(node.index < DENSE_END);
        assert_eq!(&*graph.args(*node), [int(*x), int(*y)]);
        graph.set_value(*node, (*x + *y) as u64);
    }
    let dense = graph.dense(1).unwrap();
    assert_eq!(dense.at(3, 5), 8);
    assert_eq!(dense.at(5, 3), 8);
    assert_eq!(dense.at(4, 4), ABSENT);
    // Past the square, a pair is dense only in a strip a few columns wide.
    assert_eq!(
        graph.insert(1, &[int(SIDE_MAX), int(STRIP_WIDTH)]).index,
        DENSE_END
    );
    let listed: Vec<NodeId> = graph.nodes(1).map(|(n, _)| n).collect();
    assert_eq!(listed.len(), 5);
    assert_eq!(graph.len(), 7);
    let known = graph.stats().map(|(_, _, known)| known).collect::<Vec<_>>();
    assert_eq!(known, [0, 4]);
}

#[test]
fn scattered_dense_positions_past_the_budget_are_hashed_and_found() {
    let mut graph = Graph::default();
    // One position per page, far apart: each would cost a page.
    let spread: Vec<i64> = (0..3000i64).map(|k| k * 700_001 % (1 << 31)).collect();
    let nodes: Vec<NodeId> = spread
        .iter()
        .map(|n| graph.insert(0, &[Value::Int(*n)]))
        .collect();
    let hashed = nodes.iter().filter(|n| n.index >= DENSE_END).count();
    assert!(hashed > 0, "the dense table stopped growing");
    assert!(graph.bytes(0) < 64 << 20, "{} bytes", graph.bytes(0));
    for (n, node) in spread.iter().zip(&nodes) {
        assert_eq!(graph.find(0, &[Value::Int(*n)]), Some(*node));
        assert_eq!(graph.find_ints(0, &[*n]), Some(*node));
        assert_eq!(&*graph.args(*node), [Value::Int(*n)]);
    }
    assert_eq!(graph.len(), 3000);
}

#[test]
fn list_positions_of_one_form_are_dense_however_they_are_made() {
    let mut graph = Graph::default();
    let list = |a: i64, b: i64| Value::list(vec![Value::Int(a), Value::Int(b)]);
    let first = graph.insert(0, &[list(3, 4)]);
    assert!(
        first.index < DENSE_END,
        "the first gives the table its form"
    );
    let mut run = Vec::new();
    assert!(flat::encode(&[list(5, 1)], &mut run));
    let by_run = graph.insert_flat(0, &run);
    assert!(by_run.index < DENSE_END);
    for (args, node) in [(list(3, 4), first), (list(5, 1), by_run)] {
        assert_eq!(graph.find(0, std::slice::from_ref(&args)), Some(node));
        assert!(flat::encode(std::slice::from_ref(&args), &mut run));
        assert_eq!(graph.find_flat(0, &run), Some(node));
        assert_eq!(&*graph.args(node), [args]);
        let mut out = Vec::new();
        assert!(graph.flat_args(node, &mut out));
        assert_eq!(out, run);
        assert!(!graph.int_args(node, &mut out), "not integer arguments");
    }
    // Another form, and integers, of the same count: hashed.
    let tuple = Value::Tuple(vec![Value::Int(3), Value::Int(4)].into());
    let other = graph.insert(0, std::slice::from_ref(&tuple));
    let ints = graph.insert_ints(0, &[3, 4]);
    assert!(other.index >= DENSE_END && ints.index >= DENSE_END);
    assert_eq!(graph.find(0, &[tuple]), Some(other));
    assert_eq!(graph.find_ints(0, &[3, 4]), Some(ints));
    assert_eq!(graph.find(0, &[list(4, 3)]), None);
    let dense = graph.dense(0).unwrap();
    assert_eq!(
        (dense.arity(), dense.free(), dense.is_formed()),
        (0, 2, true)
    );
    assert_eq!(graph.len(), 4);
}

#[test]
fn three_or_more_integers_are_one_flat_key_however_they_are_made() {
    let mut graph = Graph::default();
    let values = |args: &[i64]| args.iter().map(|n| Value::Int(*n)).collect::<Vec<_>>();
    let by_values = graph.insert(0, &values(&[1, -2, 3]));
    let by_ints = graph.insert_ints(0, &[4, 5, 6]);
    let long: Vec<i64> = (0..11).map(|k| k * 1_000_000_007).collect();
    let by_ints_long = graph.insert_ints(0, &long);
    for (args, node) in [
        (&[1, -2, 3][..], by_values),
        (&[4, 5, 6], by_ints),
        (&long, by_ints_long),
    ] {
        assert_eq!(graph.find(0, &values(args)), Some(node));
        assert_eq!(graph.find_ints(0, args), Some(node));
        let mut out = Vec::new();
        assert!(graph.int_args(node, &mut out));
        assert_eq!(out, args);
        assert_eq!(&*graph.args(node), values(args));
    }
    assert_eq!(graph.find_ints(0, &[1, -2, 4]), None);
    // The empty position is 0, as `Value`'s equality says.
    let empty = Value::Pos(crate::value::Position::empty());
    assert_eq!(graph.find(0, &[Value::Int(4), Value::Int(5), empty]), None);
    let zero = graph.insert_ints(0, &[4, 5, 0]);
    let empty = Value::Pos(crate::value::Position::empty());
    assert_eq!(
        graph.find(0, &[Value::Int(4), Value::Int(5), empty]),
        Some(zero)
    );
    // More integers than a flat run holds are keyed by their values,
    // however they are made.
    let many: Vec<i64> = (0..flat::ARITY_MAX as i64 + 3).collect();
    let by_ints_many = graph.insert_ints(0, &many);
    assert_eq!(graph.find(0, &values(&many)), Some(by_ints_many));
    assert_eq!(graph.find_ints(0, &many), Some(by_ints_many));
    let fewer: Vec<i64> = (1..flat::ARITY_MAX as i64 + 3).collect();
    let by_values_many = graph.insert(0, &values(&fewer));
    assert_eq!(graph.find_ints(0, &fewer), Some(by_values_many));
    // A key of other values stays apart.
    let other = graph.insert(0, &[Value::Int(1), Value::Bool(true), Value::Int(3)]);
    assert_eq!(
        graph.find(0, &[Value::Int(1), Value::Bool(true), Value::Int(3)]),
        Some(other)
    );
    assert_eq!(graph.len(), 7);
}

#[test]
fn a_games_first_position_of_integers_is_dense_and_found_again() {
    // Interned before the game had a table: it was once kept as a run of
    // integers, and made again, dense, by the next sweep.
    for args in [&[1][..], &[2, 3]] {
        let mut g = Graph::default();
        let node = g.insert_ints(4, args);
        assert!(node.index < DENSE_END, "{args:?} dense");
        assert_eq!(g.find_ints(4, args), Some(node));
        assert_eq!(g.len(), 1);
    }
}

#[test]
fn an_empty_list_of_pairs_written_by_compiled_rules_is_the_empty_list() {
    let mut graph = Graph::default();
    let empty = graph.insert(0, &[Value::list(Vec::new())]);
    // Compiled rules write the shape they expect: a list of pairs.
    let written = [flat::header([flat::Shape::Pairs].into_iter()), 0];
    assert_eq!(graph.find_flat(0, &written), Some(empty));
    let pair = Value::Tuple(vec![Value::Int(-1), Value::Int(2)].into());
    let set = Value::Set(std::rc::Rc::new([pair.clone()].into_iter().collect()));
    let mut run = Vec::new();
    assert!(flat::encode(std::slice::from_ref(&set), &mut run));
    let node = graph.insert_flat(0, &run);
    assert_eq!(graph.find(0, std::slice::from_ref(&set)), Some(node));
    assert_eq!(&*graph.args(node), [set]);
    let none = [flat::header([flat::Shape::PairSet].into_iter()), 0];
    let made = graph.insert_flat(0, &none);
    assert_eq!(graph.find(0, &[Value::Set(Default::default())]), Some(made));
    assert_eq!(&*graph.args(made), [Value::Set(Default::default())]);
}

#[test]
fn triples_with_one_long_argument_and_two_short_ones_are_dense() {
    let mut graph = Graph::default();
    let long = [SIDE3_MAX, SIDE3_MAX + 1, 100_000, 200_000];
    let mut nodes = Vec::new();
    for l in long {
        for (s, t) in [(0, 0), (1, 7), (7, 1), (STRIP3_WIDTH - 1, STRIP3_WIDTH - 1)] {
            for args in [[l, s, t], [s, l, t], [s, t, l]] {
                let node = graph.insert_ints(0, &args);
                assert!(node.index < DENSE_END, "{args:?} hashed");
                nodes.push((args, node));
            }
        }
    }
    // A cube's triple in the same table, and triples outside any strip.
    nodes.push(([5, 900, 1023], graph.insert_ints(0, &[5, 900, 1023])));
    for args in [
        [LONG3_MAX, 0, 0],
        [SIDE3_MAX, STRIP3_WIDTH, 0],
        [0, -1, SIDE3_MAX],
    ] {
        assert!(graph.insert_ints(0, &args).index >= DENSE_END, "{args:?}");
    }
    for (k, (_, node)) in nodes.iter().enumerate() {
        graph.set_value(*node, k as u64);
    }
    let mut out = Vec::new();
    for (k, (args, node)) in nodes.iter().enumerate() {
        assert_eq!(graph.find_ints(0, args), Some(*node));
        assert_eq!(graph.int_value(0, args), k as u64, "{args:?}");
        assert!(graph.int_args(*node, &mut out) && out == args);
        let values: Vec<Value> = args.iter().map(|n| Value::Int(*n)).collect();
        assert_eq!(&*graph.args(*node), values);
    }
    // A strip's row holds its long arguments from the cube's edge, 4
    // bytes each: a game of a heap and the last two moves' sizes, to 10^5.
    for n in 0..100_000 {
        assert!(graph.insert_ints(1, &[n, 3, 2]).index < DENSE_END);
    }
    assert!(graph.bytes(1) < 100_000 * 8, "{} bytes", graph.bytes(1));
}

/// A triple of a strip is found or made in place, with its slot: a value
/// written there is the one the graph reads, and one too large for a
/// slot has no code (it is set through the graph).
#[test]
#[allow(unsafe_code)] // the slot written as the machine code's recursion writes it
fn a_strip_triple_is_made_in_place_with_its_slot() {
    let mut graph = Graph::default();
    // The row exists once a triple of it is: the strip's first position.
    let first = graph.insert_ints(0, &[SIDE3_MAX, 1, 2]);
    let args = [SIDE3_MAX + 1, 1, 2];
    assert_eq!(graph.intern_in_strip(0, &args, false), Some(None));
    let (node, slot) = graph.intern_in_strip(0, &args, true).unwrap().unwrap();
    assert_ne!(node, first);
    assert_eq!(graph.int_value(0, &args), UNKNOWN);
    for value in [IN_PROGRESS, 7, UNKNOWN, 3] {
        let code = Dense::slot_code(value).expect("a slot holds it");
        // SAFETY: the slot just given, with no position made since.
        unsafe { *slot = code };
        assert_eq!(graph.int_value(0, &args), value);
    }
    let again = graph.intern_in_strip(0, &args, true).unwrap().unwrap();
    assert_eq!(again, (node, slot), "found, not made again");
    assert_eq!(Dense::slot_code(u64::from(u32::MAX)), None);
    assert_eq!(Dense::slot_code(ABSENT), None);
    // Neither a cube's triple nor a pair is in a strip.
    assert_eq!(graph.intern_in_strip(0, &[1, 2, 3], true), None);
    assert_eq!(graph.intern_in_strip(0, &[SIDE3_MAX, 1], true), None);
}

#[test]
fn a_claimed_hashed_position_is_marked_in_progress_once() {
    let mut graph = Graph::default();
    graph.insert_ints(0, &[1]);
    let big = 1_000_000_000_000_000;
    assert_eq!(graph.claim_hashed_ints(0, &[3], true), None, "dense");
    assert_eq!(
        graph.claim_hashed_ints(0, &[big], false),
        Some(None),
        "no room"
    );
    assert_eq!(graph.reached(), 1);
    // Made, reported as it was (no value), and marked.
    let Some(Some((node, UNKNOWN))) = graph.claim_hashed_ints(0, &[big], true) else {
        panic!("a new position");
    };
    assert_eq!(graph.reached(), 2);
    assert_eq!(graph.value(node), IN_PROGRESS);
    assert_eq!(graph.find_ints(0, &[big]), Some(node));
    // Claimed again while in progress: found as it is, no position made.
    assert_eq!(
        graph.claim_hashed_ints(0, &[big], true),
        Some(Some((node, IN_PROGRESS)))
    );
    graph.set_hashed_value(node, 5);
    assert_eq!(
        graph.claim_hashed_ints(0, &[big], true),
        Some(Some((node, 5)))
    );
    assert_eq!(graph.value(node), 5);
    // A position left without a value is claimed again.
    graph.set_value(node, UNKNOWN);
    assert_eq!(
        graph.claim_hashed_ints(0, &[big], false),
        Some(Some((node, UNKNOWN)))
    );
    assert_eq!(graph.value(node), IN_PROGRESS);
    // Two integers, and a negative one (numbered apart), alike.
    let pair = graph
        .claim_hashed_ints(0, &[big, -4], true)
        .unwrap()
        .unwrap();
    assert_eq!(
        (graph.find_ints(0, &[big, -4]), pair.1),
        (Some(pair.0), UNKNOWN)
    );
    let negative = graph.claim_hashed_ints(0, &[-9], true).unwrap().unwrap();
    assert_eq!(
        (graph.find_ints(0, &[-9]), negative.1),
        (Some(negative.0), UNKNOWN)
    );
    assert_eq!(graph.reached(), 4);
}
