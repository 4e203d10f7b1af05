query
--pgn-in
-
--dir
tables
stalemate
