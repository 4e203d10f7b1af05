perft
startpos
21
