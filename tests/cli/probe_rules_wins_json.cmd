probe
K7/P7/1k6/8/8/8/8/8 b - - 0 1
--dir
../../test-tables
--rules
stalemate-wins
--json
