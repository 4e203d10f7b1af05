query
--pgn-in
-
--dir
tables
--variations
--json
btm dts <= 22 dts >= 21
