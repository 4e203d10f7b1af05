stats
KRk
--dir
no-such-dir
