probe
--stalemate
k7/8/1K6/8/8/8/8/2Q5 w - - 0 1
--dir
tables
--json
