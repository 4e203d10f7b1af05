info
KNNNNk
