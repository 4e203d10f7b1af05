query
KBk
--dir
query-tables
--limit
2
dts == maxdts dtsend any : modelstalemate message ("ends in a model stalemate")
