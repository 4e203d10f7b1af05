query
--pgn-in
-
--count
mate or stalemate
