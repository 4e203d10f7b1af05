info
KQRkqrb
