annotate
-
--dir
tables
