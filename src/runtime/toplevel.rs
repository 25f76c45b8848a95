//! A top-level statement's expression, compiled when it is a query over
//! a long comprehension ([`kernel::query`]): `len([... if value(g(x, y))
//! == 0])` over a board, `winner(sum([g(i) for i in 0..N]))`. Everything
//! else, and any query the machine code leaves, the interpreter evaluates.

use super::kernel::query::{self, Asker};
use super::{Machine, RtResult, builtins::answer, normalize};
use crate::builtins::Builtin;
use crate::ir::{Ir, IrKind};
use crate::value::{GameId, Value};

impl Machine {
    /// Evaluates a top-level statement's expression `ir`, with `frame`
    /// its slots.
    pub fn eval_top(&mut self, ir: &Ir, frame: &mut [Value]) -> RtResult<Value> {
        if let Some(v) = self.compiled_query(ir, frame.len()) {
            return Ok(v);
        }
        self.eval(ir, frame)
    }

    /// `ir`'s value by its machine code, when it is a query worth
    /// compiling (as many elements as [`Machine::native_after`] at least)
    /// and the code finishes it.
    fn compiled_query(&mut self, ir: &Ir, slots: usize) -> Option<Value> {
        use Builtin::{Len, Max, Min, Sum, Winner};
        let IrKind::CallBuiltin(Len | Sum | Min | Max | Builtin::Value | Winner, _) = ir.kind
        else {
            return None;
        };
        if !self.use_kernels || !self.use_native {
            return None;
        }
        let q = query::compile(&normalize::expr(ir, &self.defs), slots)?;
        if q.iterations() < u64::from(self.native_after) {
            return None;
        }
        let code = q.native()?;
        let result = code.run(&mut Searcher { machine: self })?;
        self.queries_compiled += 1;
        Some(match q.winner {
            true => answer(Winner, result as u64),
            false => Value::Int(result),
        })
    }
}

/// The search, answering a query's machine code.
struct Searcher<'a> {
    machine: &'a mut Machine,
}

impl Asker for Searcher<'_> {
    fn value(&mut self, game: GameId, args: &[i64]) -> Option<u64> {
        let node = self.machine.intern_ints(game, args)?;
        self.machine.node_value(node).ok()
    }

    fn stop(&mut self) -> bool {
        self.machine.poll().is_err()
    }
}
