query
KBNk
--dir
query-tables
mate
