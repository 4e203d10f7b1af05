generate
KQk
--compression-level
23
