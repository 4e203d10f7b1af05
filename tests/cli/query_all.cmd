query
all
--dir
query-tables
--count
stalemate
