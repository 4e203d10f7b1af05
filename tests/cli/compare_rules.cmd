compare
KBk
KPk
KBkp
--dir
../../test-tables
