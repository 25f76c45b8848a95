//! A constant collection of integers tested with `in` (`k in PRIMES`, a
//! set of hundreds of primes): a bit per integer of its span, so that a
//! test costs a load and a shift rather than a look at every item; or,
//! where the span is wide beside the items (pairs packed in integers, `(v,
//! w) in EDGES`), the items sorted, looked up by halves.

/// The fewest items worth bits: a shorter list is looked through.
pub const MEMBERS_MIN: usize = 4;

/// The integers of a constant collection, as bits or sorted.
#[derive(Debug, PartialEq)]
pub struct Members {
    /// The least item: bit `i` is for `lo + i`.
    lo: i64,
    span: i64,
    bits: Box<[u64]>,
    /// The items in increasing order, each once, where they are not bits
    /// (then empty).
    sorted: Box<[i64]>,
}

impl Members {
    /// The bits of `items`, when there are at least [`MEMBERS_MIN`] of
    /// them and their span is small beside their number (at most 64
    /// bits an item, or 65,536 bits in all); of a wider span, the items
    /// sorted.
    pub fn of(items: &[i64]) -> Option<Members> {
        if items.len() < MEMBERS_MIN {
            return None;
        }
        let (lo, hi) = (*items.iter().min()?, *items.iter().max()?);
        let span = hi.checked_sub(lo).and_then(|d| d.checked_add(1));
        let most = (64 * items.len() as i64).max(1 << 16);
        let Some(span) = span.filter(|s| *s <= most) else {
            let mut sorted = items.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            return Some(Members {
                lo,
                span: 0,
                bits: Box::new([]),
                sorted: sorted.into(),
            });
        };
        let mut bits = vec![0u64; (span as usize).div_ceil(64)];
        for &x in items {
            let at = (x - lo) as usize;
            bits[at / 64] |= 1 << (at % 64);
        }
        Some(Members {
            lo,
            span,
            bits: bits.into(),
            sorted: Box::new([]),
        })
    }

    /// Whether `x` is one of the items.
    pub fn has(&self, x: i64) -> bool {
        if !self.sorted.is_empty() {
            return self.sorted.binary_search(&x).is_ok();
        }
        match x.checked_sub(self.lo) {
            Some(at) if (0..self.span).contains(&at) => {
                self.bits[at as usize / 64] >> (at % 64) & 1 == 1
            }
            _ => false,
        }
    }

    /// The least item, the span and the bits, for machine code.
    pub fn bits(&self) -> (i64, i64, &[u64]) {
        (self.lo, self.span, &self.bits)
    }

    /// The items in increasing order, where they are not bits.
    pub fn sorted(&self) -> Option<&[i64]> {
        (!self.sorted.is_empty()).then_some(&self.sorted[..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bits_hold_the_items_and_nothing_else() {
        let items = [-3, 5, 64, 127, 128, 2];
        let set = Members::of(&items).unwrap();
        for x in -70..200 {
            assert_eq!(set.has(x), items.contains(&x), "{x}");
        }
        assert!(!set.has(i64::MIN) && !set.has(i64::MAX));
        // Near the top of the integers, a difference that wraps is no item.
        let high = [i64::MAX - 6, i64::MAX - 4, i64::MAX - 1, i64::MAX];
        let set = Members::of(&high).unwrap();
        assert!(set.has(i64::MAX) && set.has(i64::MAX - 6) && !set.has(i64::MAX - 5));
        assert!((i64::MIN..i64::MIN + 8).all(|x| !set.has(x)));
        // Too few items are looked through; too wide a span is sorted.
        assert_eq!(Members::of(&[1, 2, 3]), None);
        for items in [
            &[0, 1, 2, 1 << 40, 2][..],
            &[i64::MIN, 0, 1, i64::MAX],
            &[5 << 40, -(3 << 41), 7, 7, 1 << 50, -1],
        ] {
            let set = Members::of(items).unwrap();
            assert!(
                set.sorted()
                    .is_some_and(|s| s.windows(2).all(|w| w[0] < w[1]))
            );
            for x in items
                .iter()
                .flat_map(|x| [*x, x.wrapping_add(1), x.wrapping_sub(1)])
            {
                assert_eq!(set.has(x), items.contains(&x), "{x}");
            }
        }
    }
}
