annotate
-
--dir
tables
--json
