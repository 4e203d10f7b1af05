probe
k1Q5/8/1K6/8/8/8/8/8 b - - 0 1
--value-only
