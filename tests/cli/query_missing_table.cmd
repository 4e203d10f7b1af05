query
KRk
--dir
query-tables
mate
