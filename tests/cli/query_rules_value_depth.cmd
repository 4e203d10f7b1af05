query
KBkp
value == 0 and depth >= 40
--dir
../../test-tables
--rules
stalemate-passes
--csv
