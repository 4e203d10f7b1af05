stats
KNk
--dir
stats-tables
--top
3
