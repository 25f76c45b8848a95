//! A module being built: Cranelift's JIT with the helpers the machine
//! code calls, each function defined from an [`emit::Kind`], and the
//! memory that holds them once finished.

use super::helpers::{call, filter, filter_from, flat, sets, sets_apart, unusual, unusual3};
use super::{Code, Memory, emit, query};
use crate::runtime::kernel::calls::Func;
use cranelift_codegen::ir::{AbiParam, types};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::FunctionBuilderContext;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{Linkage, Module};
use emit::Kind;
use std::rc::Rc;

/// A module being built, with the helpers the code may call declared.
pub(super) struct Jit {
    module: JITModule,
    ctx: cranelift_codegen::Context,
    fctx: FunctionBuilderContext,
    sig: cranelift_codegen::ir::Signature,
    /// The helpers the machine code calls, in the order `new` declares
    /// them (see [`emit::Helpers`]).
    helpers: [cranelift_module::FuncId; 16],
    /// `unusual`, `unusual3` and `flat` behind trampolines that keep
    /// every register (see [`kept`]), once a function needs them.
    kept: Option<[cranelift_module::FuncId; 3]>,
    defined: Vec<cranelift_module::FuncId>,
    /// The size of each function's machine code, in bytes, by id.
    sizes: Vec<(cranelift_module::FuncId, usize)>,
    /// The compiled functions given machine code of their own, which
    /// every function defined after may call.
    funcs: Vec<(*const Func, cranelift_module::FuncId)>,
}

impl Jit {
    pub(super) fn new() -> Option<Jit> {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").ok()?;
        flags.set("is_pic", "false").ok()?;
        // Each function at a cache line of its own: where its loops fall
        // then no longer depends on the functions compiled before it in
        // the module (a sweep compiled first, rather than after the mex
        // function, ran 10% longer with the same instructions).
        flags.set("log2_min_function_alignment", "6").ok()?;
        // The generated IR is checked in debug builds (the tests and the
        // fuzzer), where a function that fails the check is not used and
        // the kernel's run takes its positions. In release builds the
        // check took a third of the time compiling a large function.
        let verify = if cfg!(debug_assertions) {
            "true"
        } else {
            "false"
        };
        flags.set("enable_verifier", verify).ok()?;
        let isa = cranelift_native::builder()
            .ok()?
            .finish(settings::Flags::new(flags))
            .ok()?;
        let mut builder = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
        let helpers: [(&str, *const u8, usize); 16] = [
            ("grundy_pow", emit::pow as *const u8, 2),
            ("grundy_isqrt", emit::isqrt as *const u8, 1),
            ("grundy_gcd", emit::gcd as *const u8, 2),
            ("grundy_narrow", emit::narrow as *const u8, 4),
            ("grundy_unusual", unusual as *const u8, 4),
            ("grundy_unusual3", unusual3 as *const u8, 5),
            ("grundy_sets", sets as *const u8, 5),
            ("grundy_flat", flat as *const u8, 4),
            ("grundy_query", query::value as *const u8, 4),
            ("grundy_tick", query::tick as *const u8, 1),
            ("grundy_call", call as *const u8, 4),
            ("grundy_collect", query::collect as *const u8, 2),
            ("grundy_collect_items", query::collect_items as *const u8, 3),
            ("grundy_sets_apart", sets_apart as *const u8, 7),
            ("grundy_filter", filter as *const u8, 4),
            ("grundy_filter_from", filter_from as *const u8, 4),
        ];
        for (name, at, _) in helpers {
            builder.symbol(name, at);
        }
        let mut module = JITModule::new(builder);
        let ptr = module.target_config().pointer_type();
        let ctx = module.make_context();
        let mut ids = Vec::new();
        for (name, _, params) in helpers {
            ids.push(import(&mut module, name, params)?);
        }
        let mut sig = module.make_signature();
        sig.params.extend(
            [ptr, types::I64, ptr, types::I64, types::I64, ptr, ptr, ptr].map(AbiParam::new),
        );
        sig.returns.push(AbiParam::new(types::I64));
        Some(Jit {
            module,
            ctx,
            fctx: FunctionBuilderContext::new(),
            sig,
            helpers: ids.try_into().ok()?,
            kept: None,
            defined: Vec::new(),
            sizes: Vec::new(),
            funcs: Vec::new(),
        })
    }

    /// The functions defined, by id, and the memory that holds them.
    pub(super) fn finish(self) -> Option<(impl Fn(cranelift_module::FuncId) -> Code, Memory)> {
        let mut module = self.module;
        module.finalize_definitions().ok()?;
        let at: Vec<(cranelift_module::FuncId, *const u8)> = (self.defined.iter())
            .map(|id| (*id, module.get_finalized_function(*id)))
            .collect();
        write_code(&self.sizes, |id| module.get_finalized_function(id));
        let code = move |id| {
            let (_, at) = at
                .iter()
                .find(|(f, _)| *f == id)
                .expect("a function defined");
            // SAFETY: the functions were declared with exactly this signature.
            unsafe { std::mem::transmute::<*const u8, Code>(*at) }
        };
        Some((code, Memory(Some(module))))
    }

    /// Gives each of `funcs` that can have one ([`emit::scalar`]) machine
    /// code of its own, for the functions defined after to call.
    pub(super) fn functions(&mut self, funcs: &[Rc<Func>]) -> Option<()> {
        let own: Vec<&Rc<Func>> = funcs.iter().filter(|f| emit::scalar(f)).collect();
        // All declared first, as each may call any other.
        let mut ids = Vec::with_capacity(own.len());
        for (i, f) in own.iter().enumerate() {
            let name = format!("fn{i}");
            let id = (self.module)
                .declare_function(&name, Linkage::Local, &self.sig)
                .ok()?;
            self.funcs.push((Rc::as_ptr(f), id));
            ids.push(id);
        }
        for (f, id) in own.into_iter().zip(ids) {
            self.emit(Kind::Func(f), id)?;
        }
        Some(())
    }

    /// Builds the function `kind` as `name`.
    pub(super) fn define(&mut self, kind: Kind, name: &str) -> Option<cranelift_module::FuncId> {
        let id = (self.module)
            .declare_function(name, Linkage::Local, &self.sig)
            .ok()?;
        self.emit(kind, id)?;
        self.defined.push(id);
        Some(id)
    }

    /// The trampolines of `unusual`, `unusual3` and `flat` that keep
    /// every register, defined the first time a function calls them.
    fn kept(&mut self) -> Option<[cranelift_module::FuncId; 3]> {
        if self.kept.is_none() {
            let Jit {
                module,
                ctx,
                fctx,
                helpers,
                ..
            } = self;
            let one = kept(module, (ctx, fctx), (helpers[4], 4, "kept"))?;
            let three = kept(module, (ctx, fctx), (helpers[5], 5, "kept3"))?;
            let flat = kept(module, (ctx, fctx), (helpers[7], 4, "kept_flat"))?;
            self.kept = Some([one, three, flat]);
        }
        self.kept
    }

    /// Builds the function `kind` as the declared `id`.
    fn emit(&mut self, kind: Kind, id: cranelift_module::FuncId) -> Option<()> {
        let kept = match emit::keeps_registers(&kind) {
            true => Some(self.kept()?),
            false => None,
        };
        let Jit { module, ctx, .. } = self;
        ctx.func.signature = self.sig.clone();
        let refs = self
            .helpers
            .map(|id| module.declare_func_in_func(id, &mut ctx.func));
        let mut helpers = emit::Helpers::from(refs);
        if let Some(kept) = kept {
            [helpers.unusual, helpers.unusual3, helpers.flat] =
                kept.map(|id| module.declare_func_in_func(id, &mut ctx.func));
            helpers.kept = true;
        }
        let fns = (self.funcs.iter())
            .map(|(f, id)| (*f, module.declare_func_in_func(*id, &mut ctx.func)))
            .collect();
        let config = module.target_config();
        let built = emit::function(
            kind,
            (&mut ctx.func, &mut self.fctx),
            (helpers, fns),
            config,
        );
        if built.is_none() {
            module.clear_context(ctx);
            return None;
        }
        // For the engine's developers: `GRUNDY_JIT_DUMP=1` prints each
        // function's machine code as Cranelift's disassembly, on stderr,
        // and `GRUNDY_CLIF_DUMP=1` its Cranelift IR as emitted, before
        // Cranelift optimises it (`GRUNDY_CLIF_OPT=1`: after).
        let dump = std::env::var_os("GRUNDY_JIT_DUMP").is_some();
        ctx.set_disasm(dump);
        if std::env::var_os("GRUNDY_CLIF_DUMP").is_some() {
            eprintln!("; clif of the {}\n{}", kind.name(), ctx.func.display());
        }
        if let Err(e) = module.define_function(id, ctx) {
            // A bug in the code generator: the tests, built with debug
            // assertions, stop on it; a user's run goes on without
            // machine code.
            debug_assert!(false, "a kernel's machine code does not compile: {e:?}");
            return None;
        }
        if std::env::var_os("GRUNDY_CLIF_OPT").is_some() {
            eprintln!(
                "; clif of the {} optimised\n{}",
                kind.name(),
                ctx.func.display()
            );
        }
        if let Some(text) = ctx.compiled_code().and_then(|c| c.vcode.as_ref()) {
            eprintln!("; machine code of the {}\n{text}", kind.name());
        }
        if let Some(code) = ctx.compiled_code() {
            self.sizes.push((id, code.code_buffer().len()));
        }
        module.clear_context(ctx);
        Some(())
    }
}

/// For the engine's developers: with `GRUNDY_JIT_BIN=DIR`, writes each
/// function's machine code, once placed, to `DIR/<address>.bin`, to be
/// read beside a profile of addresses (callgrind's `--dump-instr=yes`):
/// `objdump -D -b binary -m i386:x86-64 --adjust-vma=<address> FILE`.
fn write_code(
    sizes: &[(cranelift_module::FuncId, usize)],
    at: impl Fn(cranelift_module::FuncId) -> *const u8,
) {
    let Some(dir) = std::env::var_os("GRUNDY_JIT_BIN") else {
        return;
    };
    for &(id, len) in sizes {
        let start = at(id);
        // SAFETY: the function's code, `len` bytes from where it was put.
        let code = unsafe { std::slice::from_raw_parts(start, len) };
        let path = std::path::Path::new(&dir).join(format!("{:#x}.bin", start as usize));
        let _ = std::fs::write(path, code);
    }
}

/// Declares the helper `name`, which takes `params` 64-bit words (integers
/// or pointers) and returns one.
fn import(module: &mut JITModule, name: &str, params: usize) -> Option<cranelift_module::FuncId> {
    let mut sig = module.make_signature();
    sig.params.extend(vec![AbiParam::new(types::I64); params]);
    sig.returns.push(AbiParam::new(types::I64));
    module.declare_function(name, Linkage::Import, &sig).ok()
}

/// A trampoline to the helper `helper` of `params` words that keeps every
/// register: it writes the helper's result in the context's `ret`.
/// Calling it costs the call more (the trampoline saves what the helper
/// may change), but the caller's values live across the call in
/// registers: a loop whose rare slow path calls a helper no longer
/// spills its state around every item.
fn kept(
    module: &mut JITModule,
    (ctx, fctx): (&mut cranelift_codegen::Context, &mut FunctionBuilderContext),
    (helper, params, name): (cranelift_module::FuncId, usize, &str),
) -> Option<cranelift_module::FuncId> {
    use cranelift_codegen::ir::{InstBuilder, MemFlagsData};
    let mut sig = module.make_signature();
    sig.call_conv = cranelift_codegen::isa::CallConv::PreserveAll;
    sig.params.extend(vec![AbiParam::new(types::I64); params]);
    let id = module.declare_function(name, Linkage::Local, &sig).ok()?;
    ctx.func.signature = sig;
    let mut b = cranelift_frontend::FunctionBuilder::new(&mut ctx.func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let args = b.block_params(entry).to_vec();
    let callee = module.declare_func_in_func(helper, b.func);
    let call = b.ins().call(callee, &args);
    let result = b.inst_results(call)[0];
    let ret = std::mem::offset_of!(super::Ctx, ret) as i32;
    b.ins().store(MemFlagsData::trusted(), result, args[0], ret);
    b.ins().return_(&[]);
    b.finalize(module.target_config());
    module.define_function(id, ctx).ok()?;
    module.clear_context(ctx);
    Some(id)
}
