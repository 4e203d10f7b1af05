query
--fens
-
move legal count
