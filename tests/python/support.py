"""What the Python module's tests share: where the tables and the egtb command are (set by ctest,
tests/python/CMakeLists.txt), the egtb command's JSON to compare with, and a python-chess-like
board."""

import json
import os
import subprocess
import unittest

TABLES = os.environ.get("EGTB_TABLES", "")
EGTB_EXE = os.environ.get("EGTB_EXE", "")

# Reference positions (../shared/reference/README.md: the article's maxDTS examples; KQk's
# longest mate is 10 moves, 19 plies, widely published).
KNK_MAX_DTS = "8/8/8/8/8/1N6/8/1k1K4 w - - 0 1"  # White stalemates in 27 plies
KBK_MAX_DTS = "8/8/8/8/8/8/8/2K1B1k1 w - - 0 1"  # White stalemates in 17 plies


def egtb_json(*args):
    """The JSON the egtb command prints for these arguments (--json or --format json added by the
    caller)."""
    out = subprocess.run([EGTB_EXE, *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def egtb_json_lines(*args):
    out = subprocess.run([EGTB_EXE, *args], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line]


class Board:
    """Stands for a python-chess Board: all the module asks of a position object is fen()."""

    def __init__(self, fen):
        self._fen = fen

    def fen(self):
        return self._fen


class TablesTestCase(unittest.TestCase):
    """A test that needs the 3-4-man tables and the egtb command."""

    @classmethod
    def setUpClass(cls):
        if not TABLES or not os.path.isdir(TABLES) or not EGTB_EXE:
            raise unittest.SkipTest("EGTB_TABLES and EGTB_EXE must name the tables and the egtb command")
