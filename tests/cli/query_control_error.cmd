query
KQk
--dir
query-tables
--file
-
