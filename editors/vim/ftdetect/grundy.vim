" grundy's rule files end in .game.
autocmd BufRead,BufNewFile *.game setfiletype grundy
