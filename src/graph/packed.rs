//! A flat run of integers ([`super::flat`]) packed in bytes, the form the
//! hashed store keeps list positions and positions of three or more
//! integers in. Each integer is zigzag-coded (small magnitudes of either
//! sign become small numbers) and written seven bits a byte, low bits
//! first, the top bit of each byte saying that more follow. The items of
//! most list positions are small (heaps, squares, cards), so a run of a
//! dozen words, 8 bytes each, takes a dozen bytes, and one short enough
//! is kept in the key itself, with no allocation. A list or set of pairs
//! packs each pair as its two halves, small numbers on most boards.

use super::flat;

/// The most bytes one integer takes.
const MAX_BYTES: usize = 10;

/// `n` zigzag-coded: 0, -1, 1, -2, ... as 0, 1, 2, 3, ...
#[inline]
fn zigzag(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)) as u64
}

/// Calls `put` with each byte of the packed form of `n`.
#[inline]
fn bytes_of(n: i64, mut put: impl FnMut(u8)) {
    let mut z = zigzag(n);
    while z >= 0x80 {
        put(z as u8 | 0x80);
        z >>= 7;
    }
    put(z as u8);
}

/// Appends the packed form of `run` to `out`.
pub fn pack(run: &[i64], out: &mut Vec<u8>) {
    // Most items take one or two bytes.
    out.reserve(2 * run.len());
    units(run, |n| bytes_of(n, |b| out.push(b)));
}

/// Calls `f` with each integer `run` is packed as: its own, but each
/// item of a list or set of pairs as the pair's two halves, which are
/// small where the pair's packing in one integer is not (a board's
/// cells: `(1, 0)` is 2³²).
fn units(run: &[i64], mut f: impl FnMut(i64)) {
    let Some(&h) = run.first().filter(|h| flat::has_pairs(**h)) else {
        return run.iter().for_each(|&n| f(n));
    };
    debug_assert!(flat::well_formed(run), "a flat run");
    f(h);
    for (shape, items) in flat::arguments(run) {
        if shape != flat::Shape::Int {
            f(items.len() as i64);
        }
        for &item in items {
            match shape.of_pairs() {
                true => {
                    let (x, y) = flat::unpack(item);
                    f(x);
                    f(y);
                }
                false => f(item),
            }
        }
    }
}

/// Calls `f` with each integer of the run packed in `bytes`, in order.
#[inline]
pub fn each(bytes: &[u8], mut f: impl FnMut(i64)) {
    let unzig = |z: u64| (z >> 1) as i64 ^ -((z & 1) as i64);
    let mut at = 0;
    while let Some(&b) = bytes.get(at) {
        at += 1;
        if b < 0x80 {
            f(unzig(b.into()));
            continue;
        }
        let (mut z, mut shift) = (u64::from(b & 0x7f), 7);
        while let Some(&b) = bytes.get(at) {
            at += 1;
            z |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b < 0x80 {
                break;
            }
        }
        f(unzig(z));
    }
}

/// Appends the run packed in `bytes` to `out`.
pub fn unpack(bytes: &[u8], out: &mut Vec<i64>) {
    let start = out.len();
    each(bytes, |n| out.push(n));
    if out.get(start).is_some_and(|h| flat::has_pairs(*h)) {
        from_units(out, start);
    }
}

/// Makes the [`units`] of a run at `run[start..]` the run again, in
/// place: each pair's halves packed into one item (never more items than
/// units, so each is written at or before where it was read).
fn from_units(run: &mut Vec<i64>, start: usize) {
    let h = run[start];
    let (mut read, mut write) = (start + 1, start + 1);
    let mut put = |run: &mut Vec<i64>, v: i64| {
        run[write] = v;
        write += 1;
    };
    for i in 0..flat::arity(h) {
        let shape = flat::shape(h, i);
        let items = match shape {
            flat::Shape::Int => 0,
            _ => run[read] as usize,
        };
        put(run, run[read]);
        read += 1;
        for _ in 0..items {
            match shape.of_pairs() {
                true => {
                    let pair = flat::pack(run[read], run[read + 1]);
                    put(run, pair.expect("the halves of a packed pair"));
                    read += 2;
                }
                false => {
                    put(run, run[read]);
                    read += 1;
                }
            }
        }
    }
    run.truncate(write);
}

/// The bytes [`with_packed`] packs on the stack; longer runs, in a
/// buffer kept for the next ([`SCRATCH`]).
const ON_STACK: usize = 256;

thread_local! {
    /// The buffer [`with_packed`] packs long runs in, kept between calls:
    /// a set of 50 divisors is looked up once an option, and allocating
    /// and growing a buffer each time cost more than the lookup. A call
    /// made while another holds it takes a new one.
    static SCRATCH: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// `f` of the packed form of `run`, made on the stack when it is short
/// (a lookup makes one per option).
pub fn with_packed<T>(run: &[i64], f: impl FnOnce(&[u8]) -> T) -> T {
    // A pair takes two integers' bytes.
    let pairs = run.first().is_some_and(|h| flat::has_pairs(*h));
    if run.len() * MAX_BYTES * (1 + usize::from(pairs)) > ON_STACK {
        let mut out = SCRATCH.take();
        out.clear();
        pack(run, &mut out);
        let found = f(&out);
        SCRATCH.set(out);
        return found;
    }
    let mut buf = [0u8; ON_STACK];
    let mut len = 0;
    if pairs {
        units(run, |n| {
            bytes_of(n, |b| {
                buf[len] = b;
                len += 1;
            });
        });
        return f(&buf[..len]);
    }
    // The header as it comes; then, when the rest take a byte each, as
    // most items do, all at once (a loop the compiler vectorises).
    let (first, rest) = run
        .split_first()
        .map_or((None, run), |(h, r)| (Some(*h), r));
    if let Some(h) = first {
        bytes_of(h, |b| {
            buf[len] = b;
            len += 1;
        });
    }
    let mut all = 0;
    for (b, &n) in buf[len..].iter_mut().zip(rest) {
        let z = zigzag(n);
        all |= z;
        *b = z as u8;
    }
    if all < 0x80 {
        return f(&buf[..len + rest.len()]);
    }
    for &n in rest {
        bytes_of(n, |b| {
            buf[len] = b;
            len += 1;
        });
    }
    f(&buf[..len])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn small_integers_take_a_byte_each() {
        let mut out = Vec::new();
        pack(&[0, -1, 1, 63, -64], &mut out);
        assert_eq!(out, [0, 1, 2, 126, 127]);
        out.clear();
        pack(&[64, i64::MAX, i64::MIN], &mut out);
        assert_eq!(out.len(), 2 + 2 * MAX_BYTES);
        let mut back = Vec::new();
        unpack(&out, &mut back);
        assert_eq!(back, [64, i64::MAX, i64::MIN]);
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
        let mut header = Vec::new();
        bytes_of(h, |b| header.push(b));
        assert_eq!(out[..header.len()], header);
        assert_eq!(
            out[header.len()..],
            [14, 6, 0, 2, 2, 0, 9, 4],
            "a byte a half"
        );
        with_packed(&run, |b| assert_eq!(b, &out[..]));
        let mut back = Vec::new();
        unpack(&out, &mut back);
        assert_eq!(back, run);
    }

    proptest! {
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

        #[test]
        fn a_run_comes_back_as_it_went_and_packs_alike_either_way(
            run in prop::collection::vec(any::<i64>(), 0..40),
            small in prop::collection::vec(-300i64..300, 0..40),
        ) {
            for mut run in [run, small] {
                // A flat run: no header of pairs over other items.
                if run.first().is_some_and(|h| flat::has_pairs(*h)) {
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
}
