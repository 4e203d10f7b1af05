probe
8/8/8/8/8/8/1p6/kBK5 w - - 0 1
--dir
../../test-tables
--rules
chess960
