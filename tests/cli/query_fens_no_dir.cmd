query
--fens
-
dts > 3
