perft
8/8/8/KPp2n1r/8/8/8/6k1 w - c6 0 1
3
--divide
--json
