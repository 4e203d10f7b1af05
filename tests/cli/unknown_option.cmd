perft
startpos
1
--frobnicate
