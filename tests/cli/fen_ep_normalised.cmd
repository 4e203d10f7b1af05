fen
8/8/8/KPp4r/8/8/8/6k1 w - c6
