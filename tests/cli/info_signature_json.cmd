info
KQk
--json
