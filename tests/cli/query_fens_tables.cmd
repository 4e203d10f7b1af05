query
--fens
-
--dir
query-tables
--json
lasker
