perft
--help
