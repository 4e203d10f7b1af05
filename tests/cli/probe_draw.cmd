probe
8/8/8/8/8/2k5/8/K1N5 w - - 0 1
--dir
tables
