stats
KBkp
KQk
--dir
../../test-tables
--rules
stalemate-wins
