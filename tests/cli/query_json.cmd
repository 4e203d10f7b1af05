query
KNk
--dir
query-tables
--json
dts == maxdts
