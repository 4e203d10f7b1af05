probe
8/8/8/3k4/8/8/1n6/KNNN4 w - - 0 1
