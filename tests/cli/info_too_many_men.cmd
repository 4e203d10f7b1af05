info
KQRkqr
