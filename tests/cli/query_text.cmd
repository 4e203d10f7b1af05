query
KBk
--dir
query-tables
--limit
3
dts == maxdts
