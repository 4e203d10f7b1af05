query
--fens
-
idealmate | idealstalemate
