use super::*;

#[test]
fn booleans_among_the_first_arguments_are_marked_in_the_header() {
    let (int, b) = (Value::Int, Value::Bool);
    let mut run = Vec::new();
    // One integer and a boolean: a flat run, unlike two integers.
    let args = [int(5), b(true)];
    assert!(encode(&args, &mut run));
    assert_eq!(run[1..], [5, 1]);
    assert_eq!(
        (arity(run[0]), is_bool(run[0], 1), is_bool(run[0], 0)),
        (2, true, false)
    );
    assert!(!plain(run[0]) && only_ints(&run).is_none() && well_formed(&run));
    assert_eq!(decode(&run), args);
    // `g(5, 1)` is another position than `g(5, true)`.
    let mut ones = Vec::new();
    assert!(!encode(&[int(5), int(1)], &mut ones));
    assert!(encode(&[int(5), int(1), int(0)], &mut ones));
    assert!(encode(&[int(5), b(true), b(false)], &mut run));
    assert_ne!(run, ones);
    assert_eq!(decode(&run), [int(5), b(true), b(false)]);
    // Beside a list; and a boolean past the fourth argument makes none.
    let list = Value::list(vec![int(2), int(0)]);
    assert!(encode(&[b(false), list.clone()], &mut run));
    assert_eq!(decode(&run), [b(false), list]);
    let five = [int(0), int(1), int(2), int(3), b(true)];
    assert!(!encode(&five, &mut run));
    assert!(encode(&[int(0), int(1), int(2), b(true)], &mut run));
    assert_eq!(arity(run[0]), 4);
}

#[test]
fn runs_hold_integers_lists_and_tuples_and_give_them_back() {
    let int = Value::Int;
    let args = vec![
        int(-4),
        Value::list(vec![int(3), int(1)]),
        Value::Tuple(vec![int(7)].into()),
        Value::list(Vec::new()),
    ];
    let mut run = Vec::new();
    assert!(encode(&args, &mut run));
    assert_eq!(run[1..], [-4, 2, 3, 1, 1, 7, 0]);
    assert_eq!(arity(run[0]), 4);
    assert_eq!(decode(&run), args);
    let each = [Value::list(vec![int(3), int(1)])];
    assert!(encode(&each, &mut run));
    assert_eq!(run, [1 | (1 << 8), 2, 3, 1], "the doc's example");
    // One or two integers alone, and lists of anything else, are not
    // flat; three integers are, as `ints` makes them.
    assert!(!encode(&[int(1), int(2)], &mut run));
    assert!(encode(&[int(1), int(-2), int(3)], &mut run));
    let mut packed = Vec::new();
    assert!(ints(&[1, -2, 3], &mut packed));
    assert_eq!((&run, only_ints(&run)), (&packed, Some(&[1, -2, 3][..])));
    assert!(encode(&[int(4), Value::list(vec![int(3)])], &mut run));
    assert_eq!(only_ints(&run), None);
    let nested = Value::list(vec![Value::list(vec![int(1)])]);
    assert!(!encode(&[nested], &mut run));
    assert_ne!(
        {
            encode(&[Value::Tuple(vec![int(1)].into())], &mut run);
            run.clone()
        },
        {
            let mut other = Vec::new();
            encode(&[Value::list(vec![int(1)])], &mut other);
            other
        },
        "a tuple is not the list of its items"
    );
    // A set holds its items in increasing order, and is neither the
    // list nor the tuple of them.
    let set = Value::Set(std::rc::Rc::new(
        [int(9), int(-1), int(4)].into_iter().collect(),
    ));
    assert!(encode(std::slice::from_ref(&set), &mut run));
    assert_eq!(run, [1 | (3 << 8), 3, -1, 4, 9]);
    assert_eq!(decode(&run), [set]);
    let empty = Value::Set(Default::default());
    assert!(encode(&[int(2), empty.clone()], &mut run));
    assert_eq!(decode(&run), [int(2), empty]);
}

#[test]
fn pairs_pack_in_their_order_and_lists_of_them_give_them_back() {
    let pairs = [
        (-5, 7),
        (-1, i32::MAX as i64),
        (0, i32::MIN as i64),
        (0, -1),
        (0, 0),
        (3, -2),
    ];
    let packed: Vec<i64> = pairs.iter().map(|&(x, y)| pack(x, y).unwrap()).collect();
    assert!(packed.is_sorted(), "packing keeps the order of pairs");
    for (&(x, y), &p) in pairs.iter().zip(&packed) {
        assert_eq!(unpack(p), (x, y));
    }
    assert_eq!(pack(1 << 31, 0), None);
    assert_eq!(pack(0, -(1 << 31) - 1), None);
    let pair = |x, y| Value::Tuple(vec![Value::Int(x), Value::Int(y)].into());
    let list = Value::list(vec![pair(2, -3), pair(0, 1)]);
    let set = Value::Set(std::rc::Rc::new(
        [pair(2, 0), pair(1, 9)].into_iter().collect(),
    ));
    let mut run = Vec::new();
    assert!(encode(
        &[Value::Int(4), list.clone(), set.clone()],
        &mut run
    ));
    assert_eq!(
        (shape(run[0], 1), shape(run[0], 2)),
        (Shape::Pairs, Shape::PairSet)
    );
    assert_eq!(run[2..5], [2, pack(2, -3).unwrap(), pack(0, 1).unwrap()]);
    assert_eq!(run[6..], [pack(1, 9).unwrap(), pack(2, 0).unwrap()]);
    assert_eq!(decode(&run), [Value::Int(4), list, set]);
    // A tuple of them is one too, and gives back a tuple.
    let tuple = Value::Tuple(vec![pair(1, 2), pair(-1, 0)].into());
    assert!(encode(std::slice::from_ref(&tuple), &mut run));
    assert_eq!(shape(run[0], 0), Shape::PairTuple);
    assert_eq!(run[1..], [2, pack(1, 2).unwrap(), pack(-1, 0).unwrap()]);
    assert_eq!(decode(&run), [tuple]);
    let one = |shape: Shape| header([shape].into_iter());
    assert_eq!(
        canonical(&[one(Shape::PairTuple), 0]),
        Some(one(Shape::Tuple))
    );
    // Not pairs: a pair too wide, a triple, a mix.
    let wide = Value::list(vec![pair(1 << 40, 0)]);
    let triple = Value::list(vec![Value::Tuple(vec![Value::Int(1); 3].into())]);
    let mixed = Value::list(vec![pair(1, 2), Value::Int(3)]);
    for v in [wide, triple, mixed] {
        assert!(!encode(std::slice::from_ref(&v), &mut run), "{v:?}");
    }
}

#[test]
fn an_empty_list_of_pairs_is_looked_up_as_the_empty_list() {
    let mut run = Vec::new();
    assert!(encode(&[Value::Int(1), Value::list(Vec::new())], &mut run));
    assert_eq!(canonical(&run), None);
    let written = [header([Shape::Int, Shape::Pairs].into_iter()), 1, 0];
    assert_eq!(canonical(&written), Some(run[0]));
    let set = [header([Shape::PairSet, Shape::Pairs].into_iter()), 0, 1, 7];
    assert_eq!(
        canonical(&set),
        Some(header([Shape::Set, Shape::Pairs].into_iter())),
        "a list that holds a pair stays one of pairs"
    );
    assert!(has_packed(set[0]) && !has_packed(run[0]));
    // One argument of pairs: empty, and not.
    let one = |shape: Shape| header([shape].into_iter());
    assert_eq!(canonical(&[one(Shape::Pairs), 0]), Some(one(Shape::List)));
    assert_eq!(canonical(&[one(Shape::PairSet), 0]), Some(one(Shape::Set)));
    let cell = pack(0, 1).unwrap();
    assert_eq!(canonical(&[one(Shape::PairSet), 1, cell]), None);
    let strings = header([Shape::Str; ARITY_MAX].into_iter());
    assert!(!has_packed(strings), "a string is no collection of pairs");
}

#[test]
fn a_header_tells_its_lists_of_strings_from_every_other_shape() {
    let all = [
        Shape::Int,
        Shape::List,
        Shape::Tuple,
        Shape::Set,
        Shape::Str,
        Shape::Pairs,
        Shape::PairSet,
        Shape::Words,
        Shape::WordSet,
        Shape::Bools,
        Shape::PairTuple,
        Shape::BoolTuple,
    ];
    for at in 0..ARITY_MAX {
        for shape in all {
            for other in all {
                let mut shapes = vec![other; ARITY_MAX];
                shapes[at] = shape;
                let h = header(shapes.into_iter());
                let want = shape.of_words() || other.of_words();
                assert_eq!(has_words(h), want, "{shape:?} at {at} among {other:?}");
                let packed = |s: Shape| s.without_pairs() != s;
                let want = packed(shape) || packed(other);
                assert_eq!(has_packed(h), want, "{shape:?} at {at} among {other:?}");
            }
        }
    }
}

#[test]
fn a_list_of_booleans_holds_them_as_0_and_1_and_gives_them_back() {
    let coins = Value::list(vec![Value::Bool(true), Value::Bool(false)]);
    let mut run = Vec::new();
    assert!(encode(&[Value::Int(3), coins.clone()], &mut run));
    assert_eq!(
        run,
        [header([Shape::Int, Shape::Bools].into_iter()), 3, 2, 1, 0]
    );
    assert_eq!(decode(&run), [Value::Int(3), coins]);
    assert!(has_packed(run[0]) && !has_words(run[0]));
    // Not a list of integers 1 and 0, nor a mixed list; a tuple of them
    // is one of its own.
    let ints = Value::list(vec![Value::Int(1), Value::Int(0)]);
    let mut other = Vec::new();
    assert!(encode(&[Value::Int(3), ints], &mut other));
    assert_ne!(run, other);
    let mixed = Value::list(vec![Value::Bool(true), Value::Int(1)]);
    assert!(!encode(std::slice::from_ref(&mixed), &mut other));
    let tuple = Value::Tuple(vec![Value::Bool(true), Value::Bool(false)].into());
    assert!(encode(std::slice::from_ref(&tuple), &mut other));
    assert_eq!(other, [header([Shape::BoolTuple].into_iter()), 2, 1, 0]);
    assert_eq!(decode(&other), [tuple]);
    // An empty one, as compiled rules write it, is the empty list.
    let one = |shape: Shape| header([shape].into_iter());
    assert_eq!(canonical(&[one(Shape::Bools), 0]), Some(one(Shape::List)));
    assert_eq!(canonical(&[one(Shape::Bools), 1, 1]), None);
    assert_eq!(
        canonical(&[one(Shape::BoolTuple), 0]),
        Some(one(Shape::Tuple))
    );
    // The last field of a header holds it too.
    let mut many = vec![Value::Int(0); ARITY_MAX - 1];
    many.push(Value::list(vec![Value::Bool(false)]));
    assert!(encode(&many, &mut run));
    assert_eq!(shape(run[0], ARITY_MAX - 1), Shape::Bools);
    assert_eq!(decode(&run), many);
}

#[test]
fn a_string_is_its_code_points_and_no_list_of_them() {
    let word = Value::str("Hé!");
    let mut run = Vec::new();
    assert!(encode(std::slice::from_ref(&word), &mut run));
    assert_eq!(run, [1 | (4 << 8), 3, 72, 233, 33]);
    assert_eq!(decode(&run), [word]);
    let codes = Value::list(vec![Value::Int(72), Value::Int(233), Value::Int(33)]);
    let mut other = Vec::new();
    assert!(encode(&[codes], &mut other));
    assert_ne!(run, other);
    // The last argument a header holds keeps its shape.
    let mut many = vec![Value::Int(0); ARITY_MAX - 1];
    many.push(Value::str(""));
    assert!(encode(&many, &mut run));
    assert_eq!(shape(run[0], ARITY_MAX - 1), Shape::Str);
    assert_eq!(decode(&run), many);
}

#[test]
fn lists_and_sets_of_short_strings_hold_a_string_an_item() {
    let words = |ws: &[&str]| ws.iter().map(|w| Value::str(w)).collect::<Vec<_>>();
    let rows = Value::list(words(&["..#", "", "ABCDEFGHI"]));
    let mut run = Vec::new();
    assert!(encode(std::slice::from_ref(&rows), &mut run));
    assert_eq!(shape(run[0], 0), Shape::Words);
    assert_eq!(run[1], 3, "one item a string");
    assert_eq!(run[3], 0, "the empty string");
    assert_eq!(decode(&run), [rows]);
    let set = Value::Set(std::rc::Rc::new(
        words(&["pear", "fig", "figs", "apple"])
            .into_iter()
            .collect(),
    ));
    assert!(encode(std::slice::from_ref(&set), &mut run));
    assert_eq!(shape(run[0], 0), Shape::WordSet);
    assert!(
        run[2..].is_sorted(),
        "packed in the strings' order: {run:?}"
    );
    assert_eq!(decode(&run), [set]);
    assert!(has_packed(run[0]));
    // Ten characters, a character past ASCII or NUL: no item.
    for long in ["ABCDEFGHIJ", "é", "a\0"] {
        assert!(
            !encode(&[Value::list(words(&["ok", long]))], &mut run),
            "{long:?}"
        );
    }
    assert_eq!(pack_word(""), Some(0));
    assert_eq!(
        word_chars(pack_word("Cram").unwrap()).collect::<Vec<_>>(),
        [67, 114, 97, 109]
    );
    // Empty, a list of strings is the empty list.
    let one = |shape: Shape| header([shape].into_iter());
    assert_eq!(canonical(&[one(Shape::Words), 0]), Some(one(Shape::List)));
    assert_eq!(canonical(&[one(Shape::WordSet), 0]), Some(one(Shape::Set)));
    // Every shape of an argument keeps its place, the last one too.
    let mut many = vec![Value::Int(1); ARITY_MAX - 1];
    many.push(Value::list(words(&["x"])));
    assert!(encode(&many, &mut run));
    assert_eq!(shape(run[0], ARITY_MAX - 1), Shape::Words);
    assert_eq!(decode(&run), many);
}
