query
KQk
--dir
query-tables
btm attacks 3
