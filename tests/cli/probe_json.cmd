probe
2k1b1K1/8/8/8/8/8/8/8 b - - 0 1
--json
