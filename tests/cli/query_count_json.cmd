query
KQk
Kkq
--dir
query-tables
--count
--json
--convention
physical
btm purestalemate
