query
KQk
--dir
query-tables
--convention
nalimov
mate
