query
KBk
--dir
query-tables
--count
--file
-
