probe
4k3/8/8/8/8/8/PPPP4/4K3 w - - 0 1
