query
KBk
KNk
--dir
query-tables
--count
--convention
physical
wtm dts == maxdts
