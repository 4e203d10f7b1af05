stats
KQk
--dir
stats-tables
--convention
nalimov
