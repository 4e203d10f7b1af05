"""egtb.stats: the article's Table 2 rows of KQk, KBk and KNk (Müller & Haworth 2020, counts and
percentages from ../shared/reference/README.md), its Table 1 maxDTS and maxDTM rows (keyed by the
winner), the physical KQk totals, and records equal to `egtb stats --format json`."""

import unittest

import egtb
from support import TABLES, TablesTestCase, egtb_json

# Table 2, index462: positions of value 0, 1, 2, 3, 4 per side to move.
TABLE_2 = {
    "KQk": {"w": [0, 0, 0, 0, 18492], "b": [25691, 115, 2838, 0, 0]},
    "KBk": {"w": [0, 0, 23753, 983, 0], "b": [0, 280, 28364, 0, 0]},
    "KNk": {"w": [0, 0, 25894, 388, 0], "b": [0, 73, 28571, 0, 0]},
}
# The article's percentages, as printed (value: %).
ARTICLE_PERCENT = {
    ("KQk", "b"): {0: 89.691, 1: 0.401, 2: 9.908},
    ("KBk", "w"): {3: 3.974, 2: 96.026},
    ("KBk", "b"): {1: 0.978, 2: 99.022},
    ("KNk", "w"): {3: 1.476, 2: 98.524},
    ("KNk", "b"): {1: 0.255, 2: 99.745},
}


class Stats(TablesTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.tables = {t.signature: t for t in egtb.stats(["KQk", "KBk", "KNk"], TABLES)}

    def test_table_2_counts(self):
        for signature, sides in TABLE_2.items():
            for side, counts in sides.items():
                self.assertEqual(self.tables[signature].sides[side].lasker, counts, (signature, side))

    def test_table_2_percentages(self):
        for (signature, side), row in ARTICLE_PERCENT.items():
            s = self.tables[signature].sides[side]
            for value, percent in row.items():
                self.assertEqual(round(100 * s.lasker[value] / s.positions, 3), percent, (signature, side, value))

    def test_table_1_max_dts(self):
        # maxdts and maxdtm are keyed by the winner (the stalemater, the mater): "w" and "b".
        kbk, knk = self.tables["KBk"].maxdts, self.tables["KNk"].maxdts
        self.assertEqual((kbk.w.plies, kbk.w.positions, kbk.w.side_to_move), (17, 37, "w"))
        self.assertEqual((knk.w.plies, knk.w.positions, knk.w.side_to_move), (27, 9, "w"))
        self.assertEqual(knk.w.example, "8/8/8/8/8/1N6/8/1k1K4 w - - 0 1")
        self.assertEqual(len(knk.w.line), 27)
        self.assertIsNone(kbk.b)
        self.assertEqual(self.tables["KQk"].maxdts, {"w": None, "b": None})

    def test_table_1_max_dtm(self):
        kqk = self.tables["KQk"].maxdtm
        self.assertEqual((kqk.w.plies, kqk.w.positions, kqk.w.side_to_move), (20, 8, "b"))
        self.assertEqual(len(kqk.w.line), 20)
        self.assertIsNone(kqk.b)
        self.assertEqual(self.tables["KBk"].maxdtm, {"w": None, "b": None})

    def test_records_are_the_json_of_the_command_line(self):
        expected = egtb_json("stats", "KQk", "KBk", "KNk", "--dir", TABLES, "--format", "json")["tables"]
        self.assertEqual([self.tables[t["signature"]] for t in expected], expected)
        self.assertEqual(list(self.tables["KBk"].keys()), list(expected[1].keys()))

    def test_physical_convention(self):
        (kqk,) = egtb.stats("KQk", TABLES, convention="physical")
        self.assertEqual((kqk.sides.w.positions, kqk.sides.b.positions), (144508, 223944))
        self.assertEqual(kqk.convention, "physical")

    def test_all_and_missing(self):
        self.assertEqual(len(egtb.stats([], TABLES, all=3)), 5)
        with self.assertRaises(egtb.MissingTableError) as caught:
            egtb.stats("KQRkr", TABLES)
        self.assertEqual(caught.exception.table, "KQRkr")


if __name__ == "__main__":
    unittest.main()
