fen
4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1
--json
