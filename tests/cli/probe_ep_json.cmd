probe
8/8/8/8/pP6/8/8/K1k5 b - b3 0 1
--dir
../../test-tables
--json
