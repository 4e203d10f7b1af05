probe
4k3/8/8/8/8/8/8/4K2R w K - 0 1
