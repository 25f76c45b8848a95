" Vim syntax file
" Language: grundy (rules of impartial games, *.game)
" Install:  see editors/README.md (runtimepath+=.../editors/vim)

if exists("b:current_syntax")
  finish
endif

" The keywords of grammar/grundy.pest (tests/editors.rs keeps them in step).
syn keyword grundyDefine     game move fn let
syn keyword grundyControl    if then else for in expect
syn keyword grundyLogical    and or not
syn keyword grundyBoolean    true false

" The built-in functions (tests/editors.rs keeps them in step too).
syn keyword grundyBuiltin    len min max abs sum all any sorted reversed enumerate zip
syn keyword grundyBuiltin    list set str mex print gcd isqrt divisors popcount bit_length
syn keyword grundyBuiltin    join format csv value winner moves options table line play graph plot

syn match   grundyNumber     "\<\d\(_\=\d\)*\>"
syn match   grundyArrow      "->"
syn match   grundyHeap       "\*\ze\s*[0-9(]"
syn region  grundyString     start=+"+ skip=+\\.+ end=+"+ end=+$+ oneline contains=grundyEscape
syn match   grundyEscape     "\\." contained
syn match   grundyComment    "#.*$" contains=grundyTodo
syn keyword grundyTodo       TODO FIXME XXX NOTE contained

" The name a `game`, `fn` or `move` defines.
syn match   grundyDefined    "\(\<\(game\|fn\|move\)\s\+\)\@<=\h\w*"

hi def link grundyDefine     Statement
hi def link grundyControl    Conditional
hi def link grundyLogical    Operator
hi def link grundyBoolean    Boolean
hi def link grundyBuiltin    Function
hi def link grundyNumber     Number
hi def link grundyArrow      Operator
hi def link grundyHeap       Special
hi def link grundyString     String
hi def link grundyEscape     SpecialChar
hi def link grundyComment    Comment
hi def link grundyTodo       Todo
hi def link grundyDefined    Identifier

let b:current_syntax = "grundy"
