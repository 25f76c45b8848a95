//! A string of at most [`WORD_MAX`] ASCII characters packed in one
//! integer: an item of a list or set of short strings in a flat run.

/// The most characters of a string [`pack_word`] packs.
pub const WORD_MAX: usize = 9;

/// The bits of each character of a packed string.
pub const WORD_BITS: usize = 7;

/// The string `s` as one integer, when it has at most [`WORD_MAX`]
/// characters, each ASCII but NUL: seven bits a character, the first
/// highest, zeros after the last, so that packed strings order as the
/// strings do and the empty string is 0.
pub fn pack_word(s: &str) -> Option<i64> {
    let bytes = s.as_bytes();
    let fits = bytes.len() <= WORD_MAX && bytes.iter().all(|b| (1..128).contains(b));
    fits.then(|| (bytes.iter().enumerate()).fold(0, |w, (k, b)| w | i64::from(*b) << word_shift(k)))
}

/// Where character `k` of a packed string is.
pub fn word_shift(k: usize) -> usize {
    WORD_BITS * (WORD_MAX - 1 - k)
}

/// The length of the string packed in `w`: its characters are nonzero,
/// zeros after the last, so its trailing zeros tell.
#[inline]
pub fn word_len(w: i64) -> usize {
    match w {
        0 => 0,
        _ => WORD_MAX - w.trailing_zeros() as usize / WORD_BITS,
    }
}

/// The code points of the string packed in `w`, in order.
pub fn word_chars(w: i64) -> impl Iterator<Item = i64> {
    (0..WORD_MAX)
        .map(move |k| (w >> word_shift(k)) & 127)
        .take_while(|c| *c != 0)
}
