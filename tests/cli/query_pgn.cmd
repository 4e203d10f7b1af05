query
KNk
--dir
query-tables
--pgn
--limit
2
dts == maxdts comment ("deepest stalemate, DTS " dts)
