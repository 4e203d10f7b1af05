probe
--dir
tables
--epd
-
--value-only
--threads
2
