annotate
-
--dir
tables
--terse
