probe
--stalemate
8/8/8/8/8/1N6/8/1k1K4 w - - 0 1
--dir
tables
