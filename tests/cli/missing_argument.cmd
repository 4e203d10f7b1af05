perft
startpos
