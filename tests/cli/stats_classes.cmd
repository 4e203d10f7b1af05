stats
KBk
KNk
--dir
stats-tables
--convention
classes
