"""egtb.query and egtb.count: the matches of CQL queries as an iterator (with a limit, stopped
early, its summary at the end), records equal to `egtb query --json`, counts against the
article's maxDTS positions, query errors as ValueError."""

import os
import tempfile
import unittest

import egtb
from support import KBK_MAX_DTS, TABLES, TablesTestCase, egtb_json, egtb_json_lines

MAX_DTS = "wtm dts == maxdts"


class Query(TablesTestCase):
    def test_first_model_stalemate_of_kbk(self):
        (match,) = egtb.query("KBk", "dts == maxdts dtsend any : modelstalemate", TABLES, limit=1)
        self.assertEqual((match.fen, match.lasker, match.dtm, match.dts), (KBK_MAX_DTS, 3, None, 17))

    def test_matches_are_the_json_lines_of_the_command_line(self):
        query = "dts == maxdts dtsend any : modelstalemate"
        expected = egtb_json_lines("query", "KBk", "KNk", query, "--dir", TABLES, "--json")
        self.assertEqual(list(egtb.query(["KBk", "KNk"], query, TABLES)), expected)
        for query in ("wtm dts == maxdts N", 'wtm dts == maxdts message "hi" #N'):  # a value, notes
            with_value = list(egtb.query("KNk", query, TABLES, limit=2))
            self.assertEqual(with_value, egtb_json_lines("query", "KNk", query, "--dir", TABLES, "--json",
                                                         "--limit", "2"))

    def test_counts_of_the_article_max_dts_positions(self):
        # ../shared/reference/README.md: KBk 37 positions in index462, 288 physical; KNk 9 and 72.
        self.assertEqual(len(list(egtb.query("KBk", MAX_DTS, TABLES))), 37)
        counts = egtb.count(["KBk", "KNk"], MAX_DTS, TABLES, convention="physical")
        self.assertEqual([(t.signature, t.matches) for t in counts.tables], [("KBk", 288), ("KNk", 72)])
        self.assertEqual(counts.matches, 360)
        self.assertEqual(counts, egtb_json("query", "KBk", "KNk", MAX_DTS, "--dir", TABLES, "--count",
                                           "--convention", "physical", "--json"))

    def test_limit_and_summary(self):
        matches = egtb.query("KNk", MAX_DTS, TABLES, limit=4)
        self.assertIsNone(matches.summary)
        self.assertEqual(len(list(matches)), 4)
        self.assertEqual(matches.summary.matches, 4)
        self.assertEqual(matches.summary.tables[0].signature, "KNk")
        self.assertEqual(list(matches), [])  # exhausted

    def test_stopping_early_stops_the_scan(self):
        for _ in range(3):
            matches = egtb.query("KPkp", "wtm", TABLES)  # millions of matches, a bounded queue
            first = [next(matches) for _ in range(10)]
            self.assertEqual(len(first), 10)
            del matches

    def test_colour_flipped_signature(self):
        flipped = list(egtb.query("Kkn", "btm dts == maxdts", TABLES))
        self.assertEqual(len(flipped), 9)
        self.assertTrue(all(" b " in m.fen and "n" in m.fen.split()[0] for m in flipped))

    def test_all_tables(self):
        every = egtb.count("all", "stalemate", TABLES)
        self.assertEqual(every, egtb_json("query", "all", "stalemate", "--dir", TABLES, "--count", "--json"))
        present = [f.split(".")[0] for f in os.listdir(TABLES) if f.endswith(".egtb") and f.count(".") == 1]
        self.assertEqual(sorted(t.signature for t in every.tables), sorted(present))
        three = egtb.count([], "stalemate", TABLES, all=3)
        self.assertEqual([t.signature for t in three.tables], ["KBk", "KNk", "KQk", "KRk", "KPk"])
        self.assertEqual(three, egtb_json("query", "--all", "3", "stalemate", "--dir", TABLES, "--count", "--json"))
        listed = list(egtb.query("all", "stalemate", TABLES, limit=5))
        self.assertEqual(len(listed), 5)
        self.assertEqual(len(list(egtb.query([], "stalemate", TABLES, all=3, limit=3))), 3)
        with self.assertRaisesRegex(egtb.MissingTableError, "no table of 3 to 6 men"):
            egtb.count("all", "stalemate", tempfile.gettempdir() + "/egtb-no-such-directory")
        with self.assertRaisesRegex(ValueError, "--all must be a whole number from 3 to 6"):
            egtb.count([], "stalemate", TABLES, all=9)

    def test_errors(self):
        with self.assertRaisesRegex(ValueError, "query:1:"):
            egtb.query("KBk", "dts ==", TABLES)
        with self.assertRaises(egtb.MissingTableError):
            egtb.query("KQRkr", "wtm", TABLES)
        with self.assertRaisesRegex(ValueError, "unknown piece letter"):
            egtb.count("KXk", "wtm", TABLES)


if __name__ == "__main__":
    unittest.main()
