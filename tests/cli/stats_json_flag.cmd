stats
KNk
--dir
stats-tables
--json
