query
--fens
-
not legalposition
