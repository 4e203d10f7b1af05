query
KQk
--dir
query-tables
btm Q attacks 3
