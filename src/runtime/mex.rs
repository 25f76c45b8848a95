//! The minimum excludant: the smallest nim-value that no option has. One
//! implementation, used by the compiled rules and by the search alike, so
//! a position's value is found the same way whichever path made its
//! options.

/// How far the marks grow to hold large values seen (4 MiB of them).
const LARGE_MARKS: usize = 1 << 20;

/// The values of a position's options, marked one by one, and their mex.
/// The marks are stamped, so starting the next position costs nothing.
#[derive(Default)]
pub struct Mex {
    marks: Vec<u32>,
    stamp: u32,
    /// Values too large for `marks` when they were seen.
    large: Vec<u64>,
    /// How many options were marked since [`Mex::start`].
    count: usize,
}

impl Mex {
    /// Forgets the marks of the previous position.
    pub fn start(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.fill(0);
            self.stamp = 1;
        }
        self.large.clear();
        self.count = 0;
        if self.marks.is_empty() {
            self.marks.resize(1024, 0);
        }
    }

    /// One option, of value `v`.
    #[inline(always)]
    pub fn mark(&mut self, v: u64) {
        self.count += 1;
        match self.marks.get_mut(v as usize) {
            Some(m) => *m = self.stamp,
            None => self.mark_large(v),
        }
    }

    /// Marks the xor of each pair of slots `a[i]` and `b[i]` for `i` from
    /// `from` on (each read from the end where `A_BACK` or `B_BACK`),
    /// and of `heaps`, as long as both slots hold values (below
    /// `plain`): the fast loop of a sum of two positions (Kayles' `g(a) +
    /// g(n - k - a)`), its loop apart in [`xors`], with no call in it (a
    /// value past the marks leaves it, is kept, and the loop goes on).
    /// Returns how many it marked, and whether it stopped at a pair it
    /// did not mark (the next, for the caller to evaluate).
    #[inline(always)]
    pub fn mark_xors<const A_BACK: bool, const B_BACK: bool>(
        &mut self,
        (a, b): (&[u32], &[u32]),
        from: usize,
        how: (u64, u32),
    ) -> (usize, bool) {
        let len = a.len().min(b.len());
        let (a, b) = (&a[..len], &b[..len]);
        let (marks, stamp) = (&mut self.marks[..], self.stamp);
        let mut i = from.min(len);
        let stopped = loop {
            // The pairs from `i` on, each slice forwards or backwards.
            let xs = if A_BACK { &a[..len - i] } else { &a[i..] };
            let ys = if B_BACK { &b[..len - i] } else { &b[i..] };
            let (n, stop) = xors::<A_BACK, B_BACK>(marks, stamp, how, (xs, ys));
            i += n;
            match stop {
                Stop::Large(v) => self.large.push(v),
                Stop::Slow => break true,
                Stop::End => break false,
            }
        };
        self.count += i - from;
        (i - from, stopped)
    }

    /// A value past the marks: rare, and kept out of the option loops so
    /// that their registers stay live across the call.
    #[cold]
    #[inline(never)]
    fn mark_large(&mut self, v: u64) {
        self.large.push(v);
    }

    /// Starts `n` positions for compiled rules, which mark values below
    /// the marks' number themselves and find their mex: the marks, their
    /// number, and the first of the `n` stamps, one per position in turn.
    /// Afterwards the marks are those of the last one.
    pub fn stamps(&mut self, n: u32) -> (*mut u32, usize, u32) {
        self.start();
        if self.stamp.checked_add(n).is_none() {
            self.marks.fill(0);
            self.stamp = 1;
        }
        let first = self.stamp;
        self.stamp += n - 1;
        (self.marks.as_mut_ptr(), self.marks.len(), first)
    }

    /// The values marked since [`Mex::start`] that are at most `most`,
    /// pushed on `out`.
    pub fn marked(&self, most: usize, out: &mut Vec<u64>) {
        let below = (most + 1).min(self.marks.len());
        let marked = (0..below).filter(|v| self.marks[*v] == self.stamp);
        out.extend(marked.map(|v| v as u64));
        out.extend(self.large.iter().filter(|v| **v <= most as u64));
    }

    /// How many options were marked since [`Mex::start`].
    pub fn count(&self) -> usize {
        self.count
    }

    /// Doubles the marks, up to what they grow to for large values seen:
    /// whether they grew.
    pub fn grow(&mut self) -> bool {
        let len = self.marks.len();
        if len >= LARGE_MARKS {
            return false;
        }
        self.marks.resize((2 * len).clamp(1024, LARGE_MARKS), 0);
        true
    }

    /// The smallest value not marked since [`Mex::start`].
    pub fn mex(&mut self) -> u64 {
        // The mex is at most the number of options: values above it
        // matter only once the marks reach that far. The marks also grow
        // to hold the large values seen, within reason: the machine code
        // leaves a position with a value past them to the slower run that
        // gets here, and a game whose values keep growing (`k == 1 or k %
        // 3 == 0`, values about n / 3) would be left there ever after.
        let seen = self
            .large
            .iter()
            .copied()
            .filter(|v| *v < LARGE_MARKS as u64)
            .max();
        let want = (self.count + 1).max(seen.map_or(0, |v| v as usize + 1));
        if self.marks.len() < want {
            let len = want.max(2 * self.marks.len()).min(LARGE_MARKS.max(want));
            self.marks.resize(len, 0);
            let len = self.marks.len() as u64;
            for v in self.large.iter().filter(|v| **v < len) {
                self.marks[*v as usize] = self.stamp;
            }
        }
        (0..self.marks.len())
            .find(|&v| self.marks[v] != self.stamp)
            .expect("at most `count` of the `count + 1` marks are set") as u64
    }
}

/// Why [`xors`] stopped.
enum Stop {
    /// At the end of the pairs.
    End,
    /// At a pair whose slots do not both hold values: not marked.
    Slow,
    /// Past a value too large for the marks: counted, to be kept.
    Large(u64),
}

/// Marks the xor of each pair `a[k]`, `b[k]` (read from the end where
/// `A_BACK` or `B_BACK`) and of `heaps` in `marks` with `stamp`, up
/// to the first pair not both below `plain` or the first value past the
/// marks: how many it marked (that one included), and why it stopped.
/// Apart, with no call in its loop, so that the loop's values stay in
/// registers.
#[inline(never)]
fn xors<const A_BACK: bool, const B_BACK: bool>(
    marks: &mut [u32],
    stamp: u32,
    (heaps, plain): (u64, u32),
    (a, b): (&[u32], &[u32]),
) -> (usize, Stop) {
    let len = a.len().min(b.len());
    let (a, b) = (&a[..len], &b[..len]);
    for k in 0..len {
        let x = if A_BACK { a[len - 1 - k] } else { a[k] };
        let y = if B_BACK { b[len - 1 - k] } else { b[k] };
        if x.max(y) >= plain {
            return (k, Stop::Slow);
        }
        let v = u64::from(x ^ y) ^ heaps;
        match marks.get_mut(v as usize) {
            Some(m) => *m = stamp,
            None => return (k + 1, Stop::Large(v)),
        }
    }
    (len, Stop::End)
}

#[cfg(test)]
mod tests {
    use super::Mex;

    fn mex_of(m: &mut Mex, values: &[u64]) -> u64 {
        m.start();
        values.iter().for_each(|v| m.mark(*v));
        m.mex()
    }

    #[test]
    fn mex_is_the_smallest_missing_value() {
        let mut m = Mex::default();
        assert_eq!(mex_of(&mut m, &[0, 1, 3]), 2);
        assert_eq!(mex_of(&mut m, &[]), 0);
        assert_eq!(mex_of(&mut m, &[1, 2]), 0);
        // Marks of an earlier position do not leak into the next.
        assert_eq!(mex_of(&mut m, &[0, 1, 2, 9]), 3);
        assert_eq!(mex_of(&mut m, &[0]), 1);
        assert_eq!(m.count(), 1);
    }

    #[test]
    fn xors_of_pairs_are_marked_until_a_pair_without_values() {
        let mut m = Mex::default();
        m.start();
        let (a, b) = ([0u32, 1, 2, 7, 4], [1u32, 1, 0, u32::MAX, 4]);
        let plain = u32::MAX - 3;
        // 0 ^ 1, 1 ^ 1, 2 ^ 0, each ^ 4; then (7, MAX) is left to the caller.
        assert_eq!(
            m.mark_xors::<false, false>((&a, &b), 0, (4, plain)),
            (3, true)
        );
        assert_eq!(m.count(), 3);
        assert_eq!(
            m.mark_xors::<false, false>((&a, &b), 4, (0, plain)),
            (1, false)
        );
        // Marked: 5, 4, 6 and 0 (4 ^ 4): the mex is 1.
        assert_eq!(m.mex(), 1);
        // A value past the marks is kept with the large ones, and the
        // pairs after it are marked too.
        m.start();
        let (a, b) = ([5000u32, 3], [1u32, 3]);
        assert_eq!(
            m.mark_xors::<false, false>((&a, &b), 0, (0, plain)),
            (2, false)
        );
        let mut out = Vec::new();
        m.marked(6000, &mut out);
        assert_eq!((out, m.mex()), (vec![0, 5001], 1));
    }

    /// Read from either end, the pairs are those of the slices reversed:
    /// the same values marked, and the same pair left to the caller.
    #[test]
    fn xors_read_from_the_end_pair_the_slices_reversed() {
        let plain = u32::MAX - 3;
        let (a, b) = ([0u32, 1, 2, 3, 9, 5], [7u32, 6, u32::MAX, 4, 2, 1]);
        let (ra, rb): (Vec<u32>, Vec<u32>) = (
            a.iter().rev().copied().collect(),
            b.iter().rev().copied().collect(),
        );
        let run = |m: &mut Mex, back: (bool, bool), from: usize| match back {
            (false, false) => m.mark_xors::<false, false>((&a, &b), from, (0, plain)),
            (false, true) => m.mark_xors::<false, true>((&a, &b), from, (0, plain)),
            (true, false) => m.mark_xors::<true, false>((&a, &b), from, (0, plain)),
            (true, true) => m.mark_xors::<true, true>((&a, &b), from, (0, plain)),
        };
        for back in [(false, false), (false, true), (true, false), (true, true)] {
            let xs: &[u32] = if back.0 { &ra } else { &a };
            let ys: &[u32] = if back.1 { &rb } else { &b };
            let (mut m, mut want) = (Mex::default(), Mex::default());
            m.start();
            want.start();
            let mut at = 0;
            loop {
                let (n, stopped) = run(&mut m, back, at);
                for k in at..at + n {
                    want.mark(u64::from(xs[k] ^ ys[k]));
                }
                at += n;
                if !stopped {
                    break;
                }
                assert!(xs[at].max(ys[at]) >= plain, "{back:?} stopped at {at}");
                at += 1;
            }
            assert_eq!(at, 6, "{back:?}");
            assert_eq!((m.count(), m.mex()), (want.count(), want.mex()), "{back:?}");
        }
    }

    #[test]
    fn the_marks_grow_to_hold_large_values_seen_within_reason() {
        let mut m = Mex::default();
        assert_eq!(mex_of(&mut m, &[0, 5000]), 1);
        assert!(m.marks.len() > 5000, "machine code reads marks to 5000 now");
        assert_eq!(mex_of(&mut m, &[5000, 0, 1]), 2, "5000 marked, not 2");
        assert_eq!(mex_of(&mut m, &[0, 1 << 40]), 1);
        assert!(m.marks.len() <= super::LARGE_MARKS, "not to 2^40");
    }

    #[test]
    fn large_values_count_once_the_marks_reach_them() {
        let mut m = Mex::default();
        let values: Vec<u64> = (0..=2000).chain([1 << 40]).collect();
        assert_eq!(mex_of(&mut m, &values), 2001);
        let mut values: Vec<u64> = (0..1500).collect();
        values.extend([1501, 1500]);
        assert_eq!(
            mex_of(&mut m, &values),
            1502,
            "1500 came after the marks grew"
        );
    }
}
