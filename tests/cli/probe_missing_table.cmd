probe
8/8/8/3k4/8/8/1r6/KN6 w - - 0 1
