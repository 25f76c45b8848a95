use super::*;

#[test]
fn rows_keep_their_slots_as_they_grow_and_reuse_what_they_leave() {
    let mut rows = Rows::default();
    assert_eq!(rows.get(3), &[] as &[u32]);
    assert_eq!(rows.grow_shared(2, 4), 4);
    assert_eq!(
        (rows.len(), rows.get(0).len(), rows.get(2).len()),
        (3, 0, 4)
    );
    rows.get_mut(2).copy_from_slice(&[1, 2, 3, 4]);
    assert_eq!(rows.grow_shared(0, 4), 4);
    rows.get_mut(0)[3] = 9;
    // Row 2 moves; row 5 takes the carve it left.
    assert_eq!(rows.grow_shared(2, 8), 4);
    assert_eq!(rows.get(2)[..4], [1, 2, 3, 4]);
    assert!(rows.get(2)[4..].iter().all(|s| *s == SLOT_ABSENT));
    rows.grow_shared(5, 4);
    assert!(rows.get(5).iter().all(|s| *s == SLOT_ABSENT));
    assert_eq!(rows.get(0), &[SLOT_ABSENT, SLOT_ABSENT, SLOT_ABSENT, 9]);
    assert_eq!(rows.grow_shared(2, 8), 0);
    // A long row has a block of its own, and keeps its slots too.
    rows.grow_shared(2, SHARED_MOST * 2);
    assert_eq!(rows.get(2)[..4], [1, 2, 3, 4]);
    rows.get_mut(2)[SHARED_MOST] = 7;
    rows.grow_shared(2, SHARED_MOST * 4);
    assert_eq!(rows.get(2)[SHARED_MOST], 7);
    for p in 0..rows.len() {
        let ptr = rows.get(p).as_ptr() as usize;
        assert!(rows.get(p).is_empty() || ptr == rows.addrs[p]);
        assert_eq!(rows.get(p).len(), rows.lens[p] as usize);
    }
}

#[test]
fn rows_that_all_grow_give_back_the_blocks_they_leave() {
    let mut rows = Rows::default();
    let n = 50_000;
    rows.push(n, 4, SLOT_ABSENT, false);
    for len in [8, 16] {
        for p in 0..n {
            rows.grow_shared(p, len);
            rows.get_mut(p)[len - 1] = p as u32;
        }
    }
    for p in 0..n {
        assert_eq!(rows.get(p)[15], p as u32);
    }
    // The slots of rows of 16, and at most a block or two left over
    // beside each length's last (against 28 slots a row kept).
    assert!(rows.held <= n * 16 + 6 * BLOCK, "{}", rows.held);
    let live: usize = rows.blocks.iter().map(|b| b.len()).sum();
    assert_eq!(live, rows.held);
}

#[test]
fn rows_pushed_a_block_at_a_time_lie_apart_at_their_addresses() {
    let mut rows = Rows::default();
    rows.push(10, 4, SLOT_ABSENT, false);
    // A carve of four left by a row that grew: the next row takes it.
    let left = (rows.at[3].block, rows.at[3].start);
    rows.grow_shared(3, 8);
    rows.push(50_000, 4, SLOT_ABSENT, false);
    let mark = |p: usize, i: usize| (p * 16 + i) as u32;
    for p in 0..rows.len() {
        for (i, slot) in rows.get_mut(p).iter_mut().enumerate() {
            *slot = mark(p, i);
        }
    }
    let mut live = vec![0; rows.blocks.len()];
    for p in 0..rows.len() {
        let slots = rows.get(p);
        assert!(
            slots.iter().enumerate().all(|(i, s)| *s == mark(p, i)),
            "row {p}"
        );
        assert_eq!(slots.as_ptr() as usize, rows.addrs[p]);
        assert_eq!(slots.len(), rows.lens[p] as usize);
        live[rows.at[p].block as usize] += 1;
    }
    assert_eq!(live, rows.live);
    assert_eq!(
        (rows.at[10].block, rows.at[10].start),
        left,
        "the carve left"
    );
}

#[test]
fn many_short_rows_share_blocks() {
    let mut rows = Rows::default();
    for p in 0..100_000 {
        rows.grow_shared(p, 4);
        rows.get_mut(p)[p % 4] = p as u32;
    }
    for p in 0..100_000 {
        assert_eq!(rows.get(p)[p % 4], p as u32);
    }
    // Full blocks, and the smaller ones the first rows took.
    assert!(rows.blocks.len() <= 100_000 * 4 / BLOCK + 16);
    // 16 bytes of slots and 20 of place, address and length a row,
    // and the vectors' room to grow: against 68 for a `Vec` each.
    assert!(rows.bytes() < 100_000 * 48);
}

/// Where row `p` is as the machine code finds it from `Rows::apart`,
/// the row addresses and lengths, and `Rows::run_view`, and its length.
fn as_machine_code_reads(rows: &Rows, p: usize) -> (usize, usize) {
    if p < rows.apart() {
        return (rows.addrs[p], rows.lens[p] as usize);
    }
    let (pages, shift, count) = rows.run_view();
    let run = rows.run.as_ref().expect("a run");
    assert_eq!(pages, run.addrs.as_ptr() as usize);
    let d = p - rows.apart();
    assert!((d as u64) < count, "row {p} past the run");
    let slot = d << shift;
    let block = run.addrs[slot / BLOCK];
    (block + (slot % BLOCK) * size_of::<u32>(), 1 << shift)
}

#[test]
fn rows_pushed_many_at_once_are_a_run_that_reads_as_rows_do() {
    let mut rows = Rows::default();
    // Few rows: each of its own, even where a run may start.
    rows.push(10, 4, SLOT_ABSENT, true);
    assert!(rows.run.is_none());
    // Many: a run, over three blocks, its rows holding `fill`.
    let n = BLOCK + BLOCK / 4;
    rows.push(10 + n, 2, 7, true);
    assert_eq!((rows.apart(), rows.len()), (10, 10 + n));
    assert!(rows.run.as_ref().is_some_and(|r| r.blocks.len() == 3));
    assert!((10..10 + n).all(|p| rows.get(p) == [7, 7]));
    // More of its length, and rows without slots, join it.
    rows.push(20 + n, 2, 5, true);
    rows.push(30 + n, 0, SLOT_ABSENT, false);
    assert_eq!((rows.apart(), rows.len()), (10, 30 + n));
    assert_eq!(rows.get(15 + n), [5, 5]);
    assert_eq!(rows.get(25 + n), [SLOT_ABSENT; 2]);
    for p in 0..rows.len() {
        rows.get_mut(p)[1] = p as u32;
    }
    // Each row where the machine code would read it, apart from the
    // others.
    let mut seen = std::collections::HashSet::new();
    for p in 0..rows.len() {
        let (addr, len) = as_machine_code_reads(&rows, p);
        assert_eq!(
            (addr, len),
            (rows.get(p).as_ptr() as usize, rows.row_len(p))
        );
        assert_eq!(rows.get(p)[1], p as u32);
        assert!(seen.insert(addr), "row {p} shares its slots");
    }
    // A column of a range of rows across the run's start and a block's
    // end.
    let span = 5..BLOCK / 2 + 20;
    rows.span_mut(span.clone(), 0..=0, |slots| slots[0] = 1);
    assert!((0..rows.len()).all(|p| (rows.get(p)[0] == 1) == span.contains(&p)));
    // Growing a row past the end makes the rows up to it in the run.
    assert_eq!(rows.grow(40 + n, 2, true), 22);
    assert_eq!((rows.apart(), rows.len()), (10, 41 + n));
    // The slots of the run's rows only, with its blocks' few addresses.
    assert!(rows.bytes() < (10 * 16 + 3 * BLOCK) * 4 + 1024);
}

#[test]
fn a_row_of_a_run_that_grows_ends_it_and_every_row_stays_where_it_was() {
    let mut rows = Rows::default();
    let n = 3 * BLOCK / 2;
    rows.push(n, 4, SLOT_ABSENT, true);
    for p in 0..n {
        rows.get_mut(p).copy_from_slice(&[p as u32, 1, 2, 3]);
    }
    let before: Vec<usize> = (0..n).map(|p| rows.get(p).as_ptr() as usize).collect();
    assert_eq!(rows.grow(7, 8, true), 4);
    assert!(rows.run.is_none());
    assert_eq!(rows.apart(), n);
    assert_eq!(rows.get(7)[..4], [7, 1, 2, 3]);
    assert_eq!(rows.get(7).len(), 8);
    for p in (0..n).filter(|p| *p != 7) {
        assert_eq!(rows.get(p), [p as u32, 1, 2, 3]);
        assert_eq!(rows.get(p).as_ptr() as usize, before[p], "row {p} moved");
        assert_eq!(as_machine_code_reads(&rows, p), (before[p], 4));
    }
    // A row of another length after it, with no run now: its own.
    rows.push(n + 5000, 8, SLOT_ABSENT, false);
    assert_eq!(rows.apart(), n + 5000);
    // Longer rows pushed after a run end it, and start one of their own.
    let mut rows = Rows::default();
    rows.push(2000, 2, 3, true);
    rows.push(4000, 4, 9, true);
    assert_eq!(rows.apart(), 2000);
    assert!(rows.run.as_ref().is_some_and(|r| r.width() == 4));
    assert!((0..2000).all(|p| rows.get(p) == [3, 3]));
    assert!((2000..4000).all(|p| rows.get(p) == [9; 4]));
    // Shorter ones join it, their other slots absent; none made, none
    // ends it.
    assert_eq!(rows.push(4100, 2, 5, true), 400);
    assert_eq!(rows.push(4100, 16, 5, true), 0);
    assert_eq!(rows.apart(), 2000);
    assert!((4000..4100).all(|p| rows.get(p) == [5, 5, SLOT_ABSENT, SLOT_ABSENT]));
}
