//! The form of a game's list or tuple positions that the dense table can
//! hold: a flat run ([`super::flat`]) whose header and lengths are fixed
//! and whose one to four integers are free, such as `g([a, b])` or
//! `g((x, y))`. The free integers index the table as one to four
//! integer arguments would, so a pair held in a list costs what two
//! parameters cost.

use super::flat;

/// The run every position of the table has, but for its free integers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// The run with its free integers as 0.
    run: Box<[i64]>,
    /// Where the free integers are in the run, in order.
    free: Box<[usize]>,
    code: u64,
}

/// A number that names a form exactly: its header (at most four
/// arguments) and the lengths of its lists and tuples (each at most
/// four), with the top bit set. The machine code compares it with the
/// one of a target it makes, to read the table only when the forms are
/// the same.
pub fn code(header: i64, lens: &[usize]) -> u64 {
    let lens = lens
        .iter()
        .enumerate()
        .fold(0u64, |c, (i, len)| c | (*len as u64) << (3 * i));
    // The header's arity, booleans and four shapes take its low 24 bits.
    1 << 63 | (header as u64 & 0xff_ffff) | lens << 24
}

/// The most free integers a form has (a dense index takes four), and
/// the most arguments.
pub const FREE_MAX: usize = 4;

impl Form {
    /// The form of `run`, when it holds a list, a tuple or a boolean and
    /// one to four integers in all (the integer arguments, booleans as 0
    /// or 1, and the items).
    pub fn of(run: &[i64]) -> Option<Form> {
        let h = *run.first()?;
        if flat::plain(h) {
            // Integers only: those have dense indices of their own.
            return None;
        }
        let n = flat::arity(h);
        if n > FREE_MAX {
            return None;
        }
        let mut free = Vec::new();
        let mut lens = Vec::new();
        let mut at = 1;
        for i in 0..n {
            match flat::shape(h, i) {
                flat::Shape::Int => {
                    free.push(at);
                    at += 1;
                }
                // A set's length varies as it is played, and a string's
                // items are code points, no index of a table: no form.
                // Nor is a packed pair.
                flat::Shape::Set
                | flat::Shape::Str
                | flat::Shape::Pairs
                | flat::Shape::PairSet
                | flat::Shape::PairTuple
                | flat::Shape::Words
                | flat::Shape::WordSet => {
                    return None;
                }
                _ => {
                    let len = usize::try_from(*run.get(at)?).ok()?;
                    free.extend(at + 1..at + 1 + len);
                    lens.push(len);
                    at += 1 + len;
                }
            }
            if free.len() > FREE_MAX {
                return None;
            }
        }
        if free.is_empty() || at != run.len() {
            return None;
        }
        let mut template = run.to_vec();
        for &f in &free {
            template[f] = 0;
        }
        Some(Form {
            run: template.into(),
            free: free.into(),
            code: code(h, &lens),
        })
    }

    /// The form's [`code`].
    pub fn code(&self) -> u64 {
        self.code
    }

    /// The number of free integers.
    pub fn arity(&self) -> usize {
        self.free.len()
    }

    /// The free integers of `run`, into `out`, when it has this form.
    #[inline]
    pub fn ints(&self, run: &[i64], out: &mut [i64; FREE_MAX]) -> bool {
        if run.len() != self.run.len() {
            return false;
        }
        let mut k = 0;
        for (i, (x, t)) in run.iter().zip(self.run.iter()).enumerate() {
            if self.free.get(k) == Some(&i) {
                out[k] = *x;
                k += 1;
            } else if x != t {
                return false;
            }
        }
        true
    }

    /// The run of the position whose free integers are `ints`, into `out`.
    pub fn fill(&self, ints: &[i64], out: &mut Vec<i64>) {
        out.clear();
        out.extend_from_slice(&self.run);
        for (f, x) in self.free.iter().zip(ints) {
            out[*f] = *x;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    fn run(args: &[Value]) -> Vec<i64> {
        let mut out = Vec::new();
        assert!(flat::encode(args, &mut out));
        out
    }

    fn list(items: &[i64]) -> Value {
        Value::list(items.iter().map(|n| Value::Int(*n)).collect())
    }

    #[test]
    fn a_form_frees_the_integers_and_fixes_the_rest() {
        let pair = run(&[list(&[3, 4])]);
        let form = Form::of(&pair).unwrap();
        assert_eq!(form.arity(), 2);
        let mut ints = [0; FREE_MAX];
        assert!(form.ints(&run(&[list(&[7, 0])]), &mut ints));
        assert_eq!(ints[..2], [7, 0]);
        let mut out = Vec::new();
        form.fill(&[3, 4], &mut out);
        assert_eq!(out, pair);
        // Another length, a tuple instead of a list: another form.
        assert!(!form.ints(&run(&[list(&[1, 2, 3])]), &mut ints));
        let tuple = Value::Tuple(vec![Value::Int(3), Value::Int(4)].into());
        assert!(!form.ints(&run(&[tuple]), &mut ints));
        // An integer beside a list: both free.
        let mixed = Form::of(&run(&[Value::Int(9), list(&[5])])).unwrap();
        assert_eq!(mixed.arity(), 2);
        assert!(mixed.ints(&run(&[Value::Int(1), list(&[2])]), &mut ints));
        assert_eq!(ints[..2], [1, 2]);
    }

    #[test]
    fn runs_without_a_list_or_with_too_many_integers_have_no_form() {
        let ints: Vec<Value> = (1..=4).map(Value::Int).collect();
        assert_eq!(Form::of(&run(&ints)), None);
        assert_eq!(Form::of(&run(&[list(&[1, 2, 3, 4, 5])])), None);
        assert_eq!(Form::of(&run(&[list(&[])])), None, "nothing free");
        assert!(Form::of(&run(&[list(&[1, 2, 3])])).is_some());
        assert_eq!(
            Form::of(&run(&[list(&[1, 2, 3, 4])])).map(|f| f.arity()),
            Some(4)
        );
        let empties = [list(&[]), list(&[]), list(&[]), list(&[]), list(&[1])];
        assert_eq!(Form::of(&run(&empties)), None, "five arguments");
    }

    #[test]
    fn codes_tell_forms_apart() {
        let tuple = |items: &[i64]| Value::Tuple(items.iter().map(|n| Value::Int(*n)).collect());
        let forms = [
            vec![list(&[1, 2])],
            vec![tuple(&[1, 2])],
            vec![list(&[1, 2, 3])],
            vec![list(&[1]), Value::Int(2)],
            vec![Value::Int(2), list(&[1])],
            vec![list(&[]), list(&[1, 2])],
            vec![list(&[1, 2]), list(&[])],
            vec![Value::Int(1), Value::Int(2), list(&[3])],
            vec![Value::Int(1), Value::Int(2), tuple(&[3])],
            vec![Value::Int(1), Value::Int(2), Value::Int(3), list(&[4])],
            vec![Value::Int(1), Value::Int(2), Value::Int(3), tuple(&[4])],
            vec![list(&[1, 2, 3, 4])],
            vec![tuple(&[1, 2, 3, 4])],
        ];
        let codes: Vec<u64> = forms
            .iter()
            .map(|f| Form::of(&run(f)).unwrap().code())
            .collect();
        for (i, a) in codes.iter().enumerate() {
            assert!(codes[i + 1..].iter().all(|b| a != b), "{:?}", forms[i]);
        }
    }
}
