query
--all
3
--dir
query-tables
--count
--json
stalemate
