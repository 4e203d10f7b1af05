compare
KQk
--dir
tables
