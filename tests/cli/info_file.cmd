info
stats-tables/KQk.egtb
