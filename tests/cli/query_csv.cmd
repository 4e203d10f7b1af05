query
KQk
--dir
query-tables
--csv
--limit
4
--convention
physical
btm idealstalemate
