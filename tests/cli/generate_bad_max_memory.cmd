generate
KRkp
--max-memory
1.5G
