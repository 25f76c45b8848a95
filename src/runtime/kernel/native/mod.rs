//! Phase 4c: a kernel's moves compiled to machine code with Cranelift.
//! [`compile`] turns a [`Kernel`] (binders, guard conjuncts, terms) into
//! one function per game that computes the mex of a position whose
//! options all have values, reading the options' values straight from
//! the graph's dense tables (see [`crate::graph::View`]).
//!
//! The machine code never decides anything hard. Whenever a run meets
//! something unusual (an option without a value, one outside the dense
//! tables, an overflow, a division by zero, a value past the mex's
//! marks, or too much work for one call) it returns [`BAIL`], and the
//! kernel's own run ([`Kernel::mex`]) does the position over, as it did
//! before there was machine code. So the compiled code only has to agree
//! with the kernel on positions it finishes: the same options in the
//! same order, with checked arithmetic where the kernel checks.

mod emit;

use super::{Found, Kernel, Marks};
use crate::defs::Defs;
use crate::graph::{Graph, View};
use cranelift_codegen::ir::{AbiParam, types};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::FunctionBuilderContext;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Linkage, Module};

/// What the compiled code returns when it leaves the position to the
/// kernel's run.
pub const BAIL: u64 = u64::MAX;

/// The compiled function: the position's arguments; the mex's marks,
/// their number and the stamp to write (see [`crate::runtime::mex::Mex::raw`]);
/// and a [`View`] of the dense table of each of the kernel's targets, in
/// its order. Returns the mex, with the number of options in the high 32
/// bits, or [`BAIL`].
type Code = unsafe extern "C" fn(*const i64, *mut u32, u64, u64, *const View) -> u64;

/// A kernel's machine code, and the module that owns its memory.
pub struct Native {
    module: Option<JITModule>,
    code: Code,
}

impl std::fmt::Debug for Native {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Native")
    }
}

impl Drop for Native {
    fn drop(&mut self) {
        if let Some(module) = self.module.take() {
            // SAFETY: `code` points into this module's memory, and it is
            // dropped with it: nothing calls it any more.
            unsafe { module.free_memory() };
        }
    }
}

/// Compiles `kernel`, or `None` when some part of it is not one the code
/// generator knows (a global read when run, a position of more than two
/// arguments), or Cranelift is not available for this machine.
pub fn compile(kernel: &Kernel) -> Option<Native> {
    let mut flags = settings::builder();
    flags.set("opt_level", "speed").ok()?;
    flags.set("is_pic", "false").ok()?;
    let isa = cranelift_native::builder()
        .ok()?
        .finish(settings::Flags::new(flags))
        .ok()?;
    let mut builder = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    builder.symbol("grundy_pow", emit::pow as *const u8);
    let mut module = JITModule::new(builder);
    let ptr = module.target_config().pointer_type();
    let mut ctx = module.make_context();
    let mut pow_sig = module.make_signature();
    pow_sig.params.extend([AbiParam::new(types::I64); 2]);
    pow_sig.returns.push(AbiParam::new(types::I64));
    let pow = module
        .declare_function("grundy_pow", Linkage::Import, &pow_sig)
        .ok()?;
    let sig = &mut ctx.func.signature;
    sig.params
        .extend([ptr, ptr, types::I64, types::I64, ptr].map(AbiParam::new));
    sig.returns.push(AbiParam::new(types::I64));
    let pow = module.declare_func_in_func(pow, &mut ctx.func);
    let config = module.target_config();
    let mut fctx = FunctionBuilderContext::new();
    emit::function(kernel, &mut ctx.func, &mut fctx, pow, config)?;
    let id = module
        .declare_function("mex", Linkage::Local, &ctx.func.signature)
        .ok()?;
    module.define_function(id, &mut ctx).ok()?;
    module.clear_context(&mut ctx);
    module.finalize_definitions().ok()?;
    let address = module.get_finalized_function(id);
    // SAFETY: the function was declared with exactly this signature.
    let code = unsafe { std::mem::transmute::<*const u8, Code>(address) };
    Some(Native {
        module: Some(module),
        code,
    })
}

impl Native {
    /// The value of the position with arguments `args` and its number of
    /// options, when every option's value is in the dense tables; `None`
    /// leaves the position to [`Kernel::mex`]. `views` is a buffer.
    pub fn mex(
        &self,
        kernel: &Kernel,
        (defs, graph): (&Defs, &Graph),
        args: &[i64],
        marks: &mut Marks,
        views: &mut Vec<View>,
    ) -> Option<Found> {
        if args.len() != kernel.arity {
            return None;
        }
        views.clear();
        for (game, n) in &kernel.targets {
            // A game redefined with another arity is the interpreter's to
            // report.
            if defs.game(*game).map(|g| g.arity) != Some(*n) {
                return None;
            }
            let dense = graph.dense(*game).filter(|d| d.arity() == *n);
            views.push(dense.map_or(View::EMPTY, |d| d.view()));
        }
        marks.start();
        let (at, len, stamp) = marks.mex.raw();
        // SAFETY: `args` holds the kernel's arity of arguments; the marks
        // are `len` slots; each view describes live pages of a table that
        // nothing writes to during the call; the lists the code reads
        // belong to `kernel`, which is alive.
        let found =
            unsafe { (self.code)(args.as_ptr(), at, len as u64, stamp.into(), views.as_ptr()) };
        (found != BAIL).then_some((found & 0xffff_ffff, (found >> 32) as usize))
    }
}
