//! A flat run of integers ([`super::flat`]) packed in bytes, the form the
//! hashed store keeps list positions and positions of three or more
//! integers in.
//!
//! The run's header comes first, zigzag-coded (small magnitudes of either
//! sign become small numbers), shifted left a bit, and written seven bits
//! a byte, low bits first, the top bit of each byte saying that more
//! follow. When every item after it is a byte, 0 to 255, and the run is
//! not long, as in most list positions (heaps, squares, cards, a string's
//! letters), the items follow a byte each, and the header's low bit is
//! 0. Otherwise it is 1, and the items are packed by their frame: the
//! least item, zigzag-coded with two bits below it for the width, 1, 2,
//! 4 or 8 bytes, and written as the header is; then each item less the
//! least, in that many bytes, low first. Either way every item takes the
//! same width, so packing and unpacking are loops without a branch an
//! item, and a run of a dozen words, 8 bytes each, takes a dozen bytes
//! and one or two: one short enough is kept in the key itself, with no
//! allocation. A list or set of pairs packs each pair as its two halves,
//! small numbers on most boards, and a list or set of strings packs each
//! string as its characters (1 to 127), the last with its top bit set
//! (an empty string as 0x80 alone): a byte each, where the string packed
//! in one integer would take eight in a frame.

use super::flat;

/// The most bytes a header, or a least item with its width, takes.
const MAX_BYTES: usize = 10;

/// `n` zigzag-coded: 0, -1, 1, -2, ... as 0, 1, 2, 3, ...
#[inline]
fn zigzag(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)) as u64
}

/// The integer `z` zigzag-codes.
#[inline]
fn unzigzag(z: u64) -> i64 {
    (z >> 1) as i64 ^ -((z & 1) as i64)
}

/// An unsigned integer [`put_varying`] writes: 64 bits where a number
/// fits them (a 128-bit loop cost a lookup a tenth of its packing), else
/// 128.
trait Varying: Copy + PartialOrd + std::ops::ShrAssign<u32> {
    /// The least number that takes more than a byte.
    const BYTE_PAST: Self;
    /// The low byte.
    fn low(self) -> u8;
}

impl Varying for u64 {
    const BYTE_PAST: u64 = 0x80;
    fn low(self) -> u8 {
        self as u8
    }
}

impl Varying for u128 {
    const BYTE_PAST: u128 = 0x80;
    fn low(self) -> u8 {
        self as u8
    }
}

/// Writes `z` seven bits a byte at `buf[at..]`; returns where it ends.
#[inline]
fn put_varying<T: Varying>(mut z: T, buf: &mut [u8], mut at: usize) -> usize {
    while z >= T::BYTE_PAST {
        buf[at] = z.low() | 0x80;
        z >>= 7;
        at += 1;
    }
    buf[at] = z.low();
    at + 1
}

/// [`put_varying`] of a run's header without a frame, at the start of
/// `buf`: in 64-bit arithmetic when it fits, as headers do.
#[inline]
fn put_header(h: i64, buf: &mut [u8]) -> usize {
    let z = zigzag(h);
    match z >> 63 {
        0 => put_varying(z << 1, buf, 0),
        _ => put_varying(u128::from(z) << 1, buf, 0),
    }
}

/// The number written seven bits a byte from `bytes[*at..]`, with `at`
/// moved past it.
#[inline]
fn get_varying(bytes: &[u8], at: &mut usize) -> u128 {
    let (mut z, mut shift) = (0u128, 0);
    while let Some(&b) = bytes.get(*at) {
        *at += 1;
        z |= u128::from(b & 0x7f) << shift;
        shift += 7;
        if b < 0x80 {
            break;
        }
    }
    z
}

/// How the items after a run's header are packed: from `least`, in
/// `width` bytes each.
#[derive(Clone, Copy)]
struct Frame {
    least: i64,
    width: usize,
}

impl Frame {
    /// The frame of items whose least is `least` and greatest `most`.
    fn of(least: i64, most: i64) -> Frame {
        let span = most.wrapping_sub(least) as u64;
        let width = match span {
            0..0x100 => 1,
            0x100..0x1_0000 => 2,
            0x1_0000..0x1_0000_0000 => 4,
            _ => 8,
        };
        Frame { least, width }
    }

    /// The frame of `items`, none if there are none.
    fn of_items(items: impl Iterator<Item = i64>) -> Option<Frame> {
        let (least, most) = items.fold((i64::MAX, i64::MIN), |(l, m), n| (l.min(n), m.max(n)));
        (least <= most).then(|| Frame::of(least, most))
    }

    /// The bytes of the packed form of a header and `count` items.
    fn bytes(self, count: usize) -> usize {
        2 * MAX_BYTES + count * self.width
    }
}

/// Writes `items` in `frame` at `buf[at..]`, each in its width; returns
/// where they end. One loop a width, which the compiler unrolls.
#[inline]
fn put_items(items: &[i64], frame: Frame, buf: &mut [u8], at: usize) -> usize {
    let end = at + items.len() * frame.width;
    let out = &mut buf[at..end];
    let off = |n: i64| n.wrapping_sub(frame.least) as u64;
    match frame.width {
        1 => out
            .iter_mut()
            .zip(items)
            .for_each(|(b, &n)| *b = off(n) as u8),
        2 => (out.chunks_exact_mut(2).zip(items))
            .for_each(|(b, &n)| b.copy_from_slice(&(off(n) as u16).to_le_bytes())),
        4 => (out.chunks_exact_mut(4).zip(items))
            .for_each(|(b, &n)| b.copy_from_slice(&(off(n) as u32).to_le_bytes())),
        _ => (out.chunks_exact_mut(8).zip(items))
            .for_each(|(b, &n)| b.copy_from_slice(&off(n).to_le_bytes())),
    }
    end
}

/// Packs the units `units` (see [`with_units`]) at the start of `buf`
/// (room for `frame.bytes`); returns the bytes written.
#[inline]
fn pack_at(units: &[i64], frame: Option<Frame>, buf: &mut [u8]) -> usize {
    let Some((&h, rest)) = units.split_first() else {
        return 0;
    };
    // The header, with a bit for a frame after it.
    let header = u128::from(zigzag(h)) << 1;
    let Some(frame) = frame else {
        return put_varying(header, buf, 0);
    };
    let at = put_varying(header | 1, buf, 0);
    // The least item and the width in one: two bits for the width.
    let code = frame.width.trailing_zeros() as u128;
    let at = put_varying(u128::from(zigzag(frame.least)) << 2 | code, buf, at);
    put_items(rest, frame, buf, at)
}

/// The frame of the items after the header of `units`.
#[inline]
fn frame_of(units: &[i64]) -> Option<Frame> {
    let rest = units.get(1..).unwrap_or_default();
    Frame::of_items(rest.iter().copied())
}

/// `f` of the integers `run` is packed as: the run itself, or for a run
/// with pairs its [`units`], made on the stack when they are few.
#[inline]
fn with_units<T>(run: &[i64], f: impl FnOnce(&[i64]) -> T) -> T {
    const FEW: usize = 64;
    if !run.first().is_some_and(|h| flat::has_packed(*h)) {
        return f(run);
    }
    if units_most(run) <= FEW {
        let (mut all, mut n) = ([0; FEW], 0);
        units(run, |unit| {
            all[n] = unit;
            n += 1;
        });
        return f(&all[..n]);
    }
    let mut all = Vec::with_capacity(units_most(run));
    units(run, |unit| all.push(unit));
    f(&all)
}

/// The most units a run has: two a pair, and at most
/// [`flat::WORD_MAX`] a string.
#[inline]
fn units_most(run: &[i64]) -> usize {
    match run.first() {
        Some(&h) if flat::has_words(h) => flat::WORD_MAX * run.len(),
        _ => 2 * run.len(),
    }
}

/// The units of the string packed in `w`: its characters, the last with
/// its top bit set, or [`WORD_END`] alone for the empty string.
#[inline]
fn word_units(w: i64, mut f: impl FnMut(i64)) {
    let len = flat::word_len(w);
    if len == 0 {
        return f(WORD_END);
    }
    for k in 0..len - 1 {
        f((w >> flat::word_shift(k)) & 127);
    }
    f((w >> flat::word_shift(len - 1)) & 127 | WORD_END);
}

/// The bit that marks the last character of a string's units.
const WORD_END: i64 = 0x80;

/// Calls `f` with each integer `run` is packed as: its own, but each
/// item of a list or set of pairs as the pair's two halves, which are
/// small where the pair's packing in one integer is not (a board's
/// cells: `(1, 0)` is 2³²).
fn units(run: &[i64], mut f: impl FnMut(i64)) {
    let Some(&h) = run.first().filter(|h| flat::has_packed(**h)) else {
        return run.iter().for_each(|&n| f(n));
    };
    f(h);
    units_after_header(run, f);
}

/// [`units`] of a run with pairs, but its header.
#[inline]
fn units_after_header(run: &[i64], mut f: impl FnMut(i64)) {
    debug_assert!(flat::well_formed(run), "a flat run");
    for (shape, items) in flat::arguments(run) {
        if shape != flat::Shape::Int {
            f(items.len() as i64);
        }
        for &item in items {
            match shape {
                _ if shape.of_pairs() => {
                    let (x, y) = flat::unpack(item);
                    f(x);
                    f(y);
                }
                _ if shape.of_words() => word_units(item, &mut f),
                _ => f(item),
            }
        }
    }
}

/// Calls `f` with each integer of the run packed in `bytes`, in order.
#[inline]
pub fn each(bytes: &[u8], mut f: impl FnMut(i64)) {
    let mut at = 0;
    if bytes.is_empty() {
        return;
    }
    let header = get_varying(bytes, &mut at);
    f(unzigzag((header >> 1) as u64));
    let (least, width) = match header & 1 {
        0 => (0, 1),
        _ => {
            let frame = get_varying(bytes, &mut at);
            (unzigzag((frame >> 2) as u64), 1 << (frame & 3))
        }
    };
    for item in bytes[at..].chunks_exact(width) {
        let mut word = [0u8; 8];
        word[..width].copy_from_slice(item);
        f(least.wrapping_add(u64::from_le_bytes(word) as i64));
    }
}

/// Appends the run packed in `bytes` to `out`.
pub fn unpack(bytes: &[u8], out: &mut Vec<i64>) {
    let start = out.len();
    each(bytes, |n| out.push(n));
    if out.get(start).is_some_and(|h| flat::has_packed(*h)) {
        from_units(out, start);
    }
}

/// Makes the [`units`] of a run at `run[start..]` the run again, in
/// place: each pair's halves packed into one item, and each string's
/// characters (never more items than units, so each is written at or
/// before where it was read).
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
            match shape {
                _ if shape.of_pairs() => {
                    let pair = flat::pack(run[read], run[read + 1]);
                    put(run, pair.expect("the halves of a packed pair"));
                    read += 2;
                }
                _ if shape.of_words() => {
                    let (mut w, mut k) = (0, 0);
                    loop {
                        let c = run[read];
                        read += 1;
                        w |= (c & !WORD_END) << flat::word_shift(k);
                        k += 1;
                        if c & WORD_END != 0 {
                            break;
                        }
                    }
                    put(run, w);
                }
                _ => {
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
    let mut buf = [0u8; ON_STACK];
    match pack_bytes(run, &mut buf) {
        Some(len) => f(&buf[..len]),
        None => with_framed(run, f),
    }
}

/// [`with_packed`] of a run whose items do not all take a byte, or a
/// long one: packed in its frame, on the stack when it fits, else in the
/// kept buffer. Apart, so that the common case does not reach for the
/// buffer.
#[inline(never)]
fn with_framed<T>(run: &[i64], f: impl FnOnce(&[u8]) -> T) -> T {
    with_units(run, |units| {
        let frame = frame_of(units);
        let need = frame.map_or(MAX_BYTES, |frame| frame.bytes(units.len()));
        if need > ON_STACK {
            let mut out = SCRATCH.take();
            out.clear();
            out.resize(need, 0);
            let len = pack_at(units, frame, &mut out);
            let found = f(&out[..len]);
            SCRATCH.set(out);
            return found;
        }
        let mut buf = [0u8; ON_STACK];
        let len = pack_at(units, frame, &mut buf);
        f(&buf[..len])
    })
}

/// Packs `run` in `buf` when each unit after the header is a byte (most
/// runs), in one pass: its header, with its low bit 0 for no frame, and
/// the units as bytes. `None`, with `buf` written over, when one is not,
/// or the run is long.
#[inline]
fn pack_bytes<const N: usize>(run: &[i64], buf: &mut [u8; N]) -> Option<usize> {
    let (&h, rest) = run.split_first()?;
    if units_most(run) + MAX_BYTES > N {
        return None;
    }
    // The header, its low bit 0: no frame, every item a byte.
    let mut at = put_header(h, buf);
    let mut all = 0;
    if !flat::has_packed(h) {
        for (b, &n) in buf[at..].iter_mut().zip(rest) {
            all |= n as u64;
            *b = n as u8;
        }
        return (all < 0x100).then_some(at + rest.len());
    }
    // One list or set of pairs (tokens, a board's cells), the common
    // case: its length, then each pair's halves, in one loop.
    if flat::arity(h) == 1 && flat::shape(h, 0).of_pairs() {
        let (&len, items) = rest.split_first()?;
        buf[at] = len as u8;
        all |= len as u64;
        at += 1;
        for (b, &p) in buf[at..].chunks_exact_mut(2).zip(items) {
            let (x, y) = flat::unpack(p);
            all |= (x | y) as u64;
            b[0] = x as u8;
            b[1] = y as u8;
        }
        return (all < 0x100).then_some(at + 2 * items.len());
    }
    // One list or set of strings (a board's rows): its length, then each
    // string's characters, which are ASCII and so bytes.
    if flat::arity(h) == 1 && flat::shape(h, 0).of_words() {
        let (&len, items) = rest.split_first()?;
        buf[at] = len as u8;
        at += 1;
        for &w in items {
            at = put_word(w, buf, at);
        }
        return (len < 0x100).then_some(at);
    }
    units_after_header(run, |n| {
        all |= n as u64;
        buf[at] = n as u8;
        at += 1;
    });
    (all < 0x100).then_some(at)
}

/// Writes the units of the string packed in `w` ([`word_units`]) at
/// `buf[at..]`, which has room for [`flat::WORD_MAX`]; returns where they
/// end. The characters are spread from seven bits to eight in place
/// (halves, quarters, eighths of a word) rather than one at a time.
#[inline]
fn put_word<const N: usize>(w: i64, buf: &mut [u8; N], at: usize) -> usize {
    const _: () = assert!(flat::WORD_MAX == 9 && flat::WORD_BITS == 7);
    let out = &mut buf[at..at + flat::WORD_MAX];
    let len = flat::word_len(w);
    if len == 0 {
        out[0] = WORD_END as u8;
        return at + 1;
    }
    // The first character is in bits 56 to 62; the other eight, from
    // the last up, seven bits each below it.
    let x = w as u64;
    let low = x & ((1 << 56) - 1);
    let low = (low & 0x0fff_ffff) | (low & 0x00ff_ffff_f000_0000) << 4;
    let low = (low & 0x0000_3fff_0000_3fff) | (low & 0x0fff_c000_0fff_c000) << 2;
    let low = (low & 0x007f_007f_007f_007f) | (low & 0x3f80_3f80_3f80_3f80) << 1;
    out[0] = (x >> 56) as u8 & 127;
    out[1..].copy_from_slice(&u64::to_be_bytes(low));
    out[len - 1] |= WORD_END as u8;
    at + len
}

#[cfg(test)]
mod tests;
