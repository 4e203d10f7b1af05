verify
KQk
--dir
stats-tables
--part
3/2
