use super::*;

#[test]
fn claiming_makes_the_absent_slots_unknown_and_counts_them() {
    let mut dense = Dense {
        arity: 1,
        ..Dense::default()
    };
    dense.set(70_001, 5);
    dense.count = 1;
    // Across a page boundary, past a slot with a value.
    assert_eq!(dense.claim(65_530, 70_010, usize::MAX), (70_010, 4479));
    assert_eq!(
        (dense.count, dense.get(70_001), dense.get(65_535)),
        (4480, 5, UNKNOWN)
    );
    assert_eq!((dense.get(65_529), dense.get(70_010)), (ABSENT, ABSENT));
    // At most `most` made: it stops at the first slot past them.
    assert_eq!(dense.claim(0, 100, 10), (10, 10));
    assert_eq!(
        (dense.get(9), dense.get(10), dense.count),
        (UNKNOWN, ABSENT, 4490)
    );
    let view = dense.view();
    assert_eq!(view.count, 2, "two pages");
}

/// [`Dense::unvalued_below`] of `z`, a slot at a time.
fn gap_below(dense: &Dense, z: u32) -> u32 {
    let mut b = z;
    while b > 0 && matches!(dense.get(b - 1), UNKNOWN | ABSENT) {
        b -= 1;
    }
    b
}

#[test]
fn the_unvalued_run_below_a_slot_passes_over_pages_and_stops_at_a_value() {
    let mut dense = Dense {
        arity: 1,
        ..Dense::default()
    };
    // No pages at all; then a value in page 0, slots claimed across
    // pages 1 and 2, a page 3 without slots, and one in progress.
    assert_eq!(dense.unvalued_below(300_000), 0);
    dense.set(1_000, 3);
    dense.claim(65_000, 140_000, usize::MAX);
    dense.set(150_000, IN_PROGRESS);
    dense.set(66_000, 0);
    dense.set(262_200, 1);
    for z in [
        0, 1, 999, 1_000, 1_001, 1_002, 65_536, 66_000, 66_001, 66_002, 131_072, 140_001, 150_000,
        150_001, 196_608, 262_144, 262_200, 262_201, 262_202, 300_000,
    ] {
        assert_eq!(dense.unvalued_below(z), gap_below(&dense, z), "below {z}");
    }
    assert_eq!(dense.unvalued_below(140_000), 66_001);
    assert_eq!(dense.unvalued_below(66_000), 1_001);
}

#[test]
fn taking_a_position_makes_it_unknown_once_of_one_arity() {
    let mut dense = Dense::default();
    let (a, b) = (300, 7);
    let z = dense2(a, b).unwrap();
    assert!(dense.take(2, z, &[a, b]));
    let w = dense2(7, 300).unwrap();
    assert!(dense.take(2, w, &[]), "placed by unpairing");
    assert_eq!(
        (dense.get(z), dense.get(w), dense.count),
        (UNKNOWN, UNKNOWN, 2)
    );
    assert_eq!((dense.at(300, 7), dense.at(7, 300)), (UNKNOWN, UNKNOWN));
    assert!(!dense.take(1, 5, &[]), "a table holds one arity");
    // Set and read back through either place.
    dense.set(z, 4);
    assert_eq!(dense.get_ints(z, &[a, b]), 4);
    assert_eq!(dense.get_ints(w, &[7, 300]), UNKNOWN);
}

#[test]
fn a_triple_is_placed_by_its_arguments_or_its_index() {
    let mut dense = Dense::default();
    let (a, b, c) = (40, 3, 17);
    let z = dense3(a, b, c).unwrap();
    assert!(dense.take(3, z, &[a, b, c]));
    let w = dense3(3, 40, 17).unwrap();
    assert!(dense.take(3, w, &[]), "placed by untripling");
    dense.set(z, 6);
    assert_eq!((dense.get(z), dense.get_ints(z, &[a, b, c])), (6, 6));
    assert_eq!(dense.get_ints(w, &[3, 40, 17]), UNKNOWN);
    assert!(!dense.take(2, 5, &[]), "a table holds one arity");
    let mut both = vec![(w, UNKNOWN), (z, 6)];
    both.sort_unstable();
    assert_eq!(dense.slots().collect::<Vec<_>>(), both);
}

#[test]
fn a_dense_slot_holds_any_value_and_every_mark() {
    for arity in [1, 2] {
        let mut dense = Dense {
            arity,
            ..Dense::default()
        };
        let z = if arity == 1 {
            70_000
        } else {
            dense2(5, 9).unwrap()
        };
        assert_eq!(dense.get(z), ABSENT);
        let large = u64::from(Dense::PLAIN);
        for value in [
            0,
            7,
            large - 1,
            large,
            1 << 40,
            UNKNOWN,
            IN_PROGRESS,
            ABSENT,
            3,
        ] {
            dense.set(z, value);
            assert_eq!(dense.get(z), value, "arity {arity}");
        }
        assert!(
            dense.spilled.is_empty(),
            "a spilled value is dropped once replaced"
        );
        dense.set(z, 1 << 40);
        assert_eq!(dense.slots().collect::<Vec<_>>(), [(z, 1 << 40)]);
        dense.forget_values();
        assert_eq!((dense.get(z), dense.spilled.len()), (UNKNOWN, 0));
    }
}

#[test]
fn where_a_sweep_begins_agrees_with_a_slot_by_slot_scan() {
    let mut dense = Dense {
        arity: 1,
        ..Dense::default()
    };
    // Runs of values, of unknown and absent slots, in blocks and across
    // pages, with positions in progress here and there.
    dense.claim(0, 140_000, usize::MAX);
    for z in (0..140_000).filter(|z| z % 7 == 3 || (z / 1000) % 3 == 0) {
        dense.set(z, u64::from(z % 5));
    }
    for z in [5_000, 70_003, 131_100] {
        dense.set(z, IN_PROGRESS);
    }
    dense.claim(200_000, 200_010, usize::MAX);
    let slow = |dense: &Dense, z: u32, gap: u32| {
        let mut bottom = gap;
        for j in (gap.saturating_sub(z - gap)..gap).rev() {
            match dense.get(j) {
                IN_PROGRESS => return bottom,
                UNKNOWN | ABSENT => bottom = j,
                _ => {}
            }
        }
        bottom
    };
    for z in (0..210_000)
        .step_by(997)
        .chain([70_010, 131_200, 140_000, 200_005])
    {
        let gap = dense.unvalued_below(z);
        assert_eq!(gap, gap_below(&dense, z), "the gap below {z}");
        for below in [gap, gap.saturating_sub(100), gap / 2] {
            assert_eq!(
                dense.sweep_bottom(z, below),
                slow(&dense, z, below),
                "from {z}, the gap at {below}"
            );
        }
    }
}

#[test]
fn claiming_a_rectangle_counts_what_it_makes_by_either_path() {
    let mut dense = Dense::default();
    // Columns 1..=3 of rows 0..=99; then columns 0..=3 of rows 50..=149,
    // half of them held already.
    assert_eq!(
        dense.claim_rect((0, 99), (1, 3), (usize::MAX, false)),
        Some(300)
    );
    assert_eq!(
        dense.claim_rect((50, 149), (0, 3), (usize::MAX, false)),
        Some(250)
    );
    let z = |a: i64, b: i64| dense2(a, b).unwrap();
    assert_eq!(
        (dense.get(z(10, 0)), dense.get(z(60, 0))),
        (ABSENT, UNKNOWN)
    );
    // Rows 0..=199, columns 0..=4: 450 absent (columns 0 and 4 of the
    // first rows, column 4 of the next, 50 new rows), more than 449 but
    // fewer than the rectangle's 1,000 slots, so they are counted first.
    assert_eq!(dense.claim_rect((0, 199), (0, 4), (449, false)), None);
    assert_eq!((dense.count, dense.get(z(10, 0))), (550, ABSENT));
    assert_eq!(dense.claim_rect((0, 199), (0, 4), (450, false)), Some(450));
    assert_eq!(dense.count, 1000);
    let unknown = (0..200).all(|a| (0..5).all(|b| dense.get(z(a, b)) == UNKNOWN));
    assert!(unknown && dense.get(z(0, 5)) == ABSENT && dense.get(z(200, 0)) == ABSENT);
}

#[test]
fn a_cube_claimed_by_rows_makes_its_triples_unknown() {
    let mut dense = Dense::default();
    let z = dense3(1, 2, 0).unwrap();
    assert!(dense.take(3, z, &[1, 2, 0]));
    dense.set(z, 4);
    // Rows (b, c) of Szudzik number 0..9 (b, c below 3), columns a in 0..5.
    assert_eq!(dense.claim_cube((0, 8), (0, 4), usize::MAX), Some(44));
    assert_eq!(dense.count, 45);
    for (a, b, c) in [(0, 0, 0), (4, 2, 2), (3, 0, 2), (0, 2, 1)] {
        let z = dense3(a, b, c).unwrap();
        assert_eq!(dense.get_ints(z, &[a, b, c]), UNKNOWN, "({a}, {b}, {c})");
    }
    assert_eq!(dense.get(dense3(1, 2, 0).unwrap()), 4);
    assert_eq!(dense.get(dense3(5, 0, 0).unwrap()), ABSENT);
    assert_eq!(dense.get(dense3(0, 3, 0).unwrap()), ABSENT);
    // No more than `most`, and never a table of pairs.
    assert_eq!(dense.claim_cube((0, 15), (0, 9), 10), None);
    let mut pairs = Dense::default();
    assert!(pairs.take(2, dense2(1, 1).unwrap(), &[1, 1]));
    assert_eq!(pairs.claim_cube((0, 3), (0, 3), usize::MAX), None);
}
