use super::*;
use proptest::prelude::*;

/// Appends the packed form of `run` to `out`.
fn pack(run: &[i64], out: &mut Vec<u8>) {
    with_packed(run, |bytes| out.extend_from_slice(bytes));
}

#[test]
fn items_close_together_take_a_byte_each_from_the_least() {
    let mut out = Vec::new();
    // The header 0, with 1 for a frame; the least item, -64,
    // zigzag-coded as 127, with 0 for a byte an item (127 << 2 in two
    // bytes); each item less the least.
    pack(&[0, -1, 1, 63, -64], &mut out);
    assert_eq!(out, [1, 127 << 2 & 0x7f | 0x80, 3, 63, 65, 127, 0]);
    // A string's letters, 'H' and 'T', after its length, 3: every
    // item a byte, so no frame (the header's low bit 0).
    out.clear();
    pack(&[4 << 8 | 1, 3, 72, 84, 72], &mut out);
    assert_eq!(out[0] & 1, 0, "no frame");
    assert_eq!(out[2..], [3, 72, 84, 72], "after the header's 2 bytes");
    // '♠' and '♥' after the length 2: from 2 (zigzag-coded 4), two
    // bytes each (the width's code 1).
    out.clear();
    pack(&[4 << 8 | 1, 2, 0x2660, 0x2665], &mut out);
    assert_eq!(out[2..], [4 << 2 | 1, 0, 0, 0x5e, 0x26, 0x63, 0x26]);
    // Items far apart take 8 bytes each.
    out.clear();
    pack(&[0, 64, i64::MAX, i64::MIN], &mut out);
    assert_eq!(out.len(), 1 + MAX_BYTES + 3 * 8);
    let mut back = Vec::new();
    unpack(&out, &mut back);
    assert_eq!(back, [0, 64, i64::MAX, i64::MIN]);
}

#[test]
fn each_width_is_the_least_that_holds_the_span() {
    for (most, width) in [
        (255, 1usize),
        (256, 2),
        (65_535, 2),
        (65_536, 4),
        (1 << 32, 8),
    ] {
        let run = [0, -7, -7 + most];
        let mut out = Vec::new();
        pack(&run, &mut out);
        // The header; the least (-7 as 13) and the width's two bits;
        // two items.
        let code = width.trailing_zeros() as u8;
        assert_eq!(out[..2], [1, 13 << 2 | code], "a span of {most}");
        assert_eq!(out.len(), 2 + 2 * width, "a span of {most}");
        let mut back = Vec::new();
        unpack(&out, &mut back);
        assert_eq!(back, run);
    }
}

#[test]
fn long_runs_pack_alike_in_the_kept_buffer_and_inside_another() {
    let long: Vec<i64> = (0..60).map(|i| i * 97).collect();
    let longer: Vec<i64> = (0..90).map(|i| -i * 1000).collect();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    pack(&long, &mut a);
    pack(&longer, &mut b);
    for _ in 0..2 {
        with_packed(&long, |outer| {
            with_packed(&longer, |inner| assert_eq!(inner, &b[..]));
            assert_eq!(outer, &a[..]);
        });
        with_packed(&longer, |bytes| assert_eq!(bytes, &b[..]));
        with_packed(&long, |bytes| assert_eq!(bytes, &a[..]));
    }
}

#[test]
fn pairs_pack_as_their_halves_and_come_back_whole() {
    let h = flat::header([flat::Shape::Int, flat::Shape::PairSet].into_iter());
    let pair = |x, y| flat::pack(x, y).unwrap();
    let run = [h, 7, 3, pair(0, 1), pair(1, 0), pair(-5, 2)];
    let mut out = Vec::new();
    pack(&run, &mut out);
    let mut bytes = [0; MAX_BYTES];
    let len = put_varying(u128::from(zigzag(h)) << 1 | 1, &mut bytes, 0);
    let header = &bytes[..len];
    assert_eq!(out[..header.len()], *header);
    // The least half, -5, as 9, and 0 for a byte a half; then each
    // half less the least.
    assert_eq!(
        out[header.len()..],
        [9 << 2, 12, 8, 5, 6, 6, 5, 0, 7],
        "a byte a half"
    );
    with_packed(&run, |b| assert_eq!(b, &out[..]));
    let mut back = Vec::new();
    unpack(&out, &mut back);
    assert_eq!(back, run);
}

proptest! {
    /// A string's characters spread from seven bits to eight a word at a
    /// time (`put_word`) are its units one at a time (`word_units`): each
    /// character a byte, the last marked, at any offset in the buffer.
    #[test]
    fn a_word_is_written_as_its_units(
        chars in prop::collection::vec(1u8..128, 0..=9),
        at in 0usize..200,
    ) {
        let w = flat::pack_word(std::str::from_utf8(&chars).unwrap()).unwrap();
        let mut units = Vec::new();
        word_units(w, |u| units.push(u as u8));
        let mut buf = [0xaau8; ON_STACK];
        let end = put_word(w, &mut buf, at);
        prop_assert_eq!(&buf[at..end], &units[..]);
        prop_assert!(buf[..at].iter().all(|b| *b == 0xaa));
    }

    #[test]
    fn lists_and_sets_of_pairs_come_back_as_they_went(
        pairs in prop::collection::vec((any::<i32>(), -3i64..3), 0..12),
        set in any::<bool>(),
        n in any::<i64>(),
    ) {
        let shape = if set { flat::Shape::PairSet } else { flat::Shape::Pairs };
        let h = flat::header([shape, flat::Shape::Int].into_iter());
        let mut run = vec![h, pairs.len() as i64];
        run.extend(pairs.iter().map(|&(x, y)| flat::pack(x.into(), y).unwrap()));
        run.push(n);
        let mut out = Vec::new();
        pack(&run, &mut out);
        with_packed(&run, |b| assert_eq!(b, &out[..]));
        let mut back = Vec::new();
        unpack(&out, &mut back);
        prop_assert_eq!(back, run);
    }

    /// Lists and sets of strings (rows of a board), alone or beside other
    /// arguments, pack each string as its characters, the last marked:
    /// a byte each, and they come back as they went. Two runs pack alike
    /// only when they are the same.
    #[test]
    fn lists_of_strings_pack_a_byte_a_character_and_come_back(
        words in prop::collection::vec(prop::collection::vec(1u8..128, 0..=9), 0..8),
        other in prop::collection::vec(prop::collection::vec(1u8..128, 0..=9), 0..8),
        beside in prop::option::of(-300i64..300),
    ) {
        let run_of = |words: &[Vec<u8>]| {
            let mut shapes = vec![flat::Shape::Words];
            shapes.extend(beside.map(|_| flat::Shape::Int));
            let mut run = vec![flat::header(shapes.into_iter()), words.len() as i64];
            run.extend(words.iter().map(|w| flat::pack_word(std::str::from_utf8(w).unwrap()).unwrap()));
            run.extend(beside);
            run
        };
        let (run, run2) = (run_of(&words), run_of(&other));
        let (mut out, mut out2) = (Vec::new(), Vec::new());
        pack(&run, &mut out);
        pack(&run2, &mut out2);
        let chars: usize = words.iter().map(|w| w.len().max(1)).sum();
        if beside.is_none_or(|n| (0..0x100).contains(&n)) {
            // The header's two bytes, the length and the characters.
            prop_assert_eq!(out.len(), 2 + 1 + chars + usize::from(beside.is_some()));
        }
        prop_assert_eq!(out == out2, run == run2);
        let mut back = Vec::new();
        unpack(&out, &mut back);
        prop_assert_eq!(back, run);
    }

    /// A position of one list or set of pairs (a board's cells), packed
    /// by its own loop: its header, its length and each half a byte where
    /// they all are bytes, else in a frame; back as it went either way.
    #[test]
    fn one_argument_of_pairs_packs_a_byte_a_half_where_it_can(
        pairs in prop::collection::vec((0i64..256, 0i64..256), 0..40),
        far in prop::collection::vec((any::<i32>(), -300i64..300), 1..12),
        set in any::<bool>(),
    ) {
        let shape = if set { flat::Shape::PairSet } else { flat::Shape::Pairs };
        let h = flat::header([shape].into_iter());
        let far: Vec<(i64, i64)> = far.iter().map(|&(x, y)| (x.into(), y)).collect();
        for pairs in [pairs, far] {
            let mut run = vec![h, pairs.len() as i64];
            run.extend(pairs.iter().map(|&(x, y)| flat::pack(x, y).unwrap()));
            let mut out = Vec::new();
            pack(&run, &mut out);
            let mut want = [0; MAX_BYTES];
            let len = put_varying(u128::from(zigzag(h)) << 1, &mut want, 0);
            let mut want = want[..len].to_vec();
            want.push(pairs.len() as u8);
            want.extend(pairs.iter().flat_map(|&(x, y)| [x as u8, y as u8]));
            let byte = |n: i64| (0..0x100).contains(&n);
            let fits = pairs.iter().all(|&(x, y)| byte(x) && byte(y));
            prop_assert_eq!(out == want, fits, "{:?}", pairs);
            let mut back = Vec::new();
            unpack(&out, &mut back);
            prop_assert_eq!(back, run);
        }
    }

    #[test]
    fn a_run_comes_back_as_it_went_and_packs_alike_either_way(
        run in prop::collection::vec(any::<i64>(), 0..40),
        small in prop::collection::vec(-300i64..300, 0..40),
        bytes in prop::collection::vec(0i64..256, 0..200),
    ) {
        // Runs of bytes are packed without a frame, but with one when
        // they are long.
        for mut run in [run, small, bytes] {
            // A flat run: no header of pairs over other items.
            if run.first().is_some_and(|h| flat::has_packed(*h)) {
                run[0] = 0;
            }
            let run = &run;
            let mut out = Vec::new();
            pack(run, &mut out);
            with_packed(run, |b| assert_eq!(b, &out[..]));
            // A lookup compares packed bytes: a run one longer, or
            // with its last item changed, packs otherwise.
            let mut longer = run.clone();
            longer.push(0);
            with_packed(&longer, |b| assert_ne!(b, &out[..]));
            if let Some(last) = longer.len().checked_sub(2) {
                longer.pop();
                longer[last] = longer[last].wrapping_add(1);
                with_packed(&longer, |b| assert_ne!(b, &out[..]));
            }
            let mut back = Vec::new();
            unpack(&out, &mut back);
            prop_assert_eq!(&back, run);
        }
    }
}
