info
KQk
