stats
KQk
KBk
KNk
--dir
stats-tables
--format
json
