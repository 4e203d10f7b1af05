probe
4k3/8/8/8/8/8/PPPPP3/4K3 w - - 0 1
