//! Calls of the functions that normalised rules still call: those that
//! call themselves, past the levels unrolled (see
//! [`crate::runtime::normalize::callees`]). Each is compiled in a frame of
//! its own, where every slot is an integer of any size, once for each way
//! it is used: as an integer, or as a condition (then as 1 or 0). A call
//! evaluates its arguments, fills the callee's frame and runs its body,
//! in the kernel's run and, through a helper, in the machine code.
//!
//! A function whose body does not compile (it takes or returns a list,
//! say) stays [`Num::Bail`] where it is called, as before. A recursion
//! deeper than [`DEPTH_MAX`], or than the session's `--max-depth`, also
//! bails: the interpreter then evaluates the position, and reports its
//! own limit if it is reached. So no value is ever computed here that
//! calls nested deeper than the interpreter allows.

use super::expr::{self, Cond, Num};
use super::seq::Types;
use super::{Eval, Stop};
use crate::defs::Defs;
use crate::ir::{FnId, Ir};
use crate::runtime::normalize::INLINE_DEPTH;
use crate::runtime::normalize::callees::Callee;
use std::cell::{Cell, OnceCell, RefCell};
use std::rc::{Rc, Weak};

/// The deepest the compiled rules' calls nest before they bail.
const DEPTH_MAX: u32 = 10_000;
/// Deep calls run on stack segments allocated as needed (as the
/// interpreter's do).
const RED_ZONE: usize = 64 << 10;
const SEGMENT: usize = 1 << 20;
/// Room in a function's frame past its slots, for the lists its body
/// makes.
const FRAME_ROOM: usize = 16;
/// The entries of a function's memo, a power of two.
pub const MEMO_ENTRIES: usize = 4096;

thread_local! {
    /// How deep the compiled rules' calls nest now.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// The functions a game's rules (or a query) call, each compiled on
/// first need. It owns the compiled functions: calls refer to them
/// weakly, so that a function calling itself is no cycle.
#[derive(Debug, Default)]
pub struct Calls {
    entries: Vec<Entry>,
    /// The deepest its calls nest, in the interpreter's frames: the
    /// lesser of [`DEPTH_MAX`] and the session's `--max-depth`, less the
    /// calls the rules may have inlined around them.
    limit: u32,
}

#[derive(Debug)]
struct Entry {
    callee: Callee,
    /// The function compiled as an integer (0) and as a condition (1):
    /// `None` until first needed, then the function, or `None` when its
    /// body does not compile so.
    made: [RefCell<Option<Option<Rc<Func>>>>; 2],
}

/// A compiled function.
#[derive(Debug)]
pub struct Func {
    arity: usize,
    slots: usize,
    /// The deepest calls nest (see [`Calls::limit`]).
    limit: u32,
    /// The frames of the interpreter's one call of it stands for: its
    /// own, and those of the calls inlined in its body.
    weight: u32,
    /// Set once compiled; a call met while compiling it (a recursion)
    /// refers to it before.
    body: OnceCell<Num>,
    /// The machine code's memo of its results, made when first needed
    /// (see `native/emit/memo.rs`).
    memo: OnceCell<Box<[Cell<i64>]>>,
}

impl Func {
    pub fn arity(&self) -> usize {
        self.arity
    }

    /// How deep calls of it may nest, counted from the rules' level in
    /// the interpreter's frames.
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// The memo of its results: [`MEMO_ENTRIES`] entries of four
    /// integers each, all 0 at first; the machine code reads and writes
    /// it, and nothing else does.
    pub fn memo(&self) -> *mut i64 {
        let memo = (self.memo).get_or_init(|| super::native::zeroed(4 * MEMO_ENTRIES));
        memo.as_ptr().cast::<i64>().cast_mut()
    }

    /// The interpreter's frames a call of it stands for.
    pub fn weight(&self) -> u32 {
        self.weight
    }

    /// The slots of its frame.
    pub fn slots(&self) -> usize {
        self.slots.max(self.arity)
    }

    /// Its body, once compiled.
    pub fn body(&self) -> Option<&Num> {
        self.body.get()
    }

    /// An empty frame with room for the function's slots.
    pub fn frame(&self) -> Vec<i64> {
        Vec::with_capacity(self.slots() + FRAME_ROOM)
    }

    /// Runs the body in `frame`, whose first [`Func::arity`] slots hold
    /// the arguments.
    pub fn run(&self, frame: &mut Vec<i64>, defs: &Defs) -> Eval<i64> {
        let body = self.body.get().ok_or(Stop::Bail)?;
        frame.resize(self.slots(), 0);
        if DEPTH.get() + self.weight > self.limit {
            return Err(Stop::Bail);
        }
        nested(self.weight, || {
            stacker::maybe_grow(RED_ZONE, SEGMENT, || body.eval(frame, defs))
        })
    }
}

/// `work`, run inside `frames` calls that the machine code has nested
/// already, so that the calls it makes count from there.
pub fn nested<T>(frames: u32, work: impl FnOnce() -> T) -> T {
    let depth = DEPTH.get();
    DEPTH.set(depth.saturating_add(frames));
    let result = work();
    DEPTH.set(depth);
    result
}

/// A call's reference to the function it calls.
#[derive(Clone, Debug)]
pub struct FnRef(Weak<Func>);

impl FnRef {
    /// The function, while its [`Calls`] lives.
    pub fn get(&self) -> Option<Rc<Func>> {
        self.0.upgrade()
    }

    /// The call with arguments `args`, evaluated in the caller's frame `f`.
    pub fn call(&self, args: &[Num], f: &mut Vec<i64>, defs: &Defs) -> Eval<i64> {
        let func = self.get().ok_or(Stop::Bail)?;
        let mut frame = func.frame();
        for a in args {
            frame.push(a.eval(f, defs)?);
        }
        func.run(&mut frame, defs)
    }
}

impl PartialEq for Calls {
    /// The same table: types compare equal only with their own calls.
    fn eq(&self, other: &Calls) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Calls {
    /// The functions `callees`, whose calls may nest `max_depth` deep
    /// (the session's `--max-depth`).
    pub fn new(callees: Vec<Callee>, max_depth: usize) -> Option<Rc<Calls>> {
        let entries: Vec<Entry> = callees
            .into_iter()
            .map(|callee| Entry {
                callee,
                made: Default::default(),
            })
            .collect();
        let room = max_depth.saturating_sub(INLINE_DEPTH);
        let limit = DEPTH_MAX.min(u32::try_from(room).unwrap_or(u32::MAX));
        (!entries.is_empty()).then(|| Rc::new(Calls { entries, limit }))
    }

    /// Whether `f` is compiled, as an integer or as a condition.
    pub fn compiled(&self, f: FnId) -> bool {
        let entry = self.entries.iter().find(|e| e.callee.id == f);
        entry.is_some_and(|e| {
            (e.made.iter()).any(|m| m.borrow().as_ref().is_some_and(|f| f.is_some()))
        })
    }

    /// The functions compiled so far.
    pub fn made(&self) -> Vec<Rc<Func>> {
        let made = self.entries.iter().flat_map(|e| &e.made);
        made.filter_map(|m| m.borrow().clone().flatten())
            .filter(|f| f.body().is_some())
            .collect()
    }

    /// `f` compiled as an integer or as a condition, compiling it on
    /// first need.
    fn func(self: &Rc<Calls>, f: FnId, cond: bool) -> Option<Rc<Func>> {
        let entry = self.entries.iter().find(|e| e.callee.id == f)?;
        let made = &entry.made[usize::from(cond)];
        if let Some(func) = &*made.borrow() {
            return func.clone();
        }
        let c = &entry.callee;
        let func = Rc::new(Func {
            arity: c.arity,
            slots: c.slots,
            limit: self.limit,
            weight: u32::try_from(c.inlined).map_or(u32::MAX, |n| n.saturating_add(1)),
            body: OnceCell::new(),
            memo: OnceCell::new(),
        });
        *made.borrow_mut() = Some(Some(func.clone()));
        let t = Types::frame(func.slots(), self.clone());
        let body = match cond {
            false => expr::num_in(&c.body, &t),
            true => expr::cond_in(&c.body, &t).map(|c| {
                Num::If(
                    Box::new(c),
                    Box::new(Num::Const(1)),
                    Box::new(Num::Const(0)),
                )
            }),
        };
        match body {
            Some(body) => {
                func.body.set(body).ok()?;
                Some(func)
            }
            None => {
                *made.borrow_mut() = Some(None);
                None
            }
        }
    }
}

/// The call `f(args)` in a frame that `t` types, as an integer; `None`
/// when it does not compile.
pub fn num(f: FnId, args: &[Ir], t: &Types) -> Option<Num> {
    call(f, args, false, t)
}

/// The call `f(args)` as a condition.
pub fn cond(f: FnId, args: &[Ir], t: &Types) -> Option<Cond> {
    let call = call(f, args, true, t)?;
    Some(Cond::Cmp(
        crate::syntax::ast::BinOp::Ne,
        call,
        Num::Const(0),
    ))
}

fn call(f: FnId, args: &[Ir], cond: bool, t: &Types) -> Option<Num> {
    let calls = t.calls.as_ref()?;
    let args: Vec<Num> = args
        .iter()
        .map(|a| expr::num_in(a, t))
        .collect::<Option<_>>()?;
    let func = calls.func(f, cond)?;
    (func.arity == args.len()).then(|| Num::Call(FnRef(Rc::downgrade(&func)), args))
}
