"""The other rule sets from Python (rules="stalemate-wins", "stalemate-passes"): probes whose values
are 4, 2 and 0 with the depth of the rules' metric, against `egtb probe --rules ... --json`; the
probe_* functions a rule set has and the ValueError of those it has not; stats, query and count
over the tables of the fixtures tables_34_stalemate_wins and tables_34_stalemate_passes; generate
under other rules into a new directory."""

import shutil
import tempfile
import unittest

import egtb
from support import KBK_MAX_DTS, KNK_MAX_DTS, TABLES, TablesTestCase, egtb_json, egtb_json_lines

# White to move is a Lasker stalemate win (3, DTS 1: 1. Kb6) but loses in 44 plies once Black may
# pass: 1. Kb6 -- 2. Kb5 ... (docs/rules.md).
PASS_LOSS = "k7/Pp6/8/K7/8/8/8/8 w - - 0 1"
STALEMATED = "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"
POSITIONS = [KNK_MAX_DTS, KBK_MAX_DTS, PASS_LOSS, STALEMATED, "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1",
             "8/8/8/8/8/8/1p6/kBK5 w - - 0 1", "8/8/8/8/8/8/8/K6k w - - 0 1"]


class RulesProbe(TablesTestCase):
    def test_values_and_depths_of_stalemate_wins(self):
        with egtb.open_tablebase(TABLES, rules="stalemate-wins") as tb:
            self.assertEqual(tb.rules, "stalemate-wins")
            self.assertIn("rules=stalemate-wins", repr(tb))
            # KNk's deepest Lasker stalemate wins like a mate, in as many plies.
            self.assertEqual((tb.probe_value(KNK_MAX_DTS), tb.probe_dte(KNK_MAX_DTS)), (egtb.WIN, 27))
            self.assertEqual(tb.probe_depth(KNK_MAX_DTS), 27)
            self.assertEqual((tb.probe_value(STALEMATED), tb.probe_dte(STALEMATED)), (egtb.LOSS, 0))
            self.assertIsNone(tb.probe_depth("8/8/8/8/8/8/8/K6k w - - 0 1"))
            self.assertEqual(tb.get_value("4k1r1/8/8/8/8/8/8/KQRR4 w - - 0 1", default="none"), "none")
            self.assertEqual(tb.get_dte(KNK_MAX_DTS), 27)
            for wrong in (tb.probe_lasker, tb.probe_dtm, tb.probe_dts):
                with self.assertRaisesRegex(ValueError, "stalemate-wins tables have no"):
                    wrong(KNK_MAX_DTS)
            with self.assertRaisesRegex(ValueError, "probe_value"):
                tb.get_lasker(KNK_MAX_DTS)

    def test_values_and_depths_of_stalemate_passes(self):
        with egtb.open_tablebase(TABLES, rules="stalemate-passes") as tb:
            self.assertEqual((tb.probe_value(PASS_LOSS), tb.probe_dtm(PASS_LOSS)), (egtb.LOSS, 44))
            self.assertEqual(tb.probe_depth(PASS_LOSS), 44)
            self.assertEqual(tb.probe_value(KNK_MAX_DTS), egtb.DRAW)
            self.assertIsNone(tb.probe_dtm(KNK_MAX_DTS))
            for wrong in (tb.probe_lasker, tb.probe_dts, tb.probe_dte):
                with self.assertRaises(ValueError):
                    wrong(PASS_LOSS)
            # The optimal line passes: UCI 0000, SAN --.
            r = tb.probe(PASS_LOSS)
            self.assertEqual(r.pv[:2], ["a5b6", "0000"])
            self.assertEqual((r.line[1].uci, r.line[1].san, r.line[1].dtm), ("0000", "--", 42))
            self.assertTrue(r.final.checkmate)
            stalemated = tb.probe(r.line[0].fen)
            self.assertTrue(stalemated.stalemate)
            self.assertEqual([(m.uci, m.san) for m in stalemated.moves], [("0000", "--")])

    def test_lasker_stays_the_default(self):
        with egtb.open_tablebase(TABLES) as tb:
            self.assertEqual(tb.rules, "lasker")
            self.assertEqual(tb.probe_value(KNK_MAX_DTS), egtb.STALEMATES)
            self.assertEqual(tb.probe_depth(KNK_MAX_DTS), 27)  # its DTS
            with self.assertRaisesRegex(ValueError, "lasker tables have no dte"):
                tb.probe_dte(KNK_MAX_DTS)
        self.assertEqual(egtb.RULES, ("lasker", "stalemate-wins", "stalemate-passes"))

    def test_records_are_the_json_of_the_command_line(self):
        for rules in ("stalemate-wins", "stalemate-passes"):
            with egtb.open_tablebase(TABLES, rules=rules) as tb:
                for fen in POSITIONS:
                    with self.subTest(rules=rules, fen=fen):
                        expected = egtb_json("probe", fen, "--rules", rules, "--dir", TABLES, "--json")
                        self.assertEqual(tb.probe(fen), expected)
                        self.assertEqual(list(tb.probe(fen)), list(expected))  # the same order
                        self.assertNotIn("lasker", expected)

    def test_a_missing_table_names_the_command_with_its_rules(self):
        empty = tempfile.mkdtemp(prefix="egtb-python-")
        try:
            with egtb.open_tablebase(empty, rules="stalemate-wins") as tb:
                with self.assertRaises(egtb.MissingTableError) as caught:
                    tb.probe_value(KNK_MAX_DTS)
                self.assertIn("--rules stalemate-wins", str(caught.exception))
        finally:
            shutil.rmtree(empty)

    def test_unknown_rules(self):
        with self.assertRaisesRegex(ValueError, "rules must be lasker, stalemate-wins or stalemate-passes"):
            egtb.open_tablebase(TABLES, rules="janggi")
        for call in (lambda: egtb.stats("KNk", TABLES, rules="x"), lambda: egtb.query("KNk", "wtm", TABLES, rules="x"),
                     lambda: egtb.count("KNk", "wtm", TABLES, rules="x")):
            with self.assertRaises(ValueError):
                call()


class RulesTables(TablesTestCase):
    def test_stats(self):
        for rules in ("stalemate-wins", "stalemate-passes"):
            with self.subTest(rules=rules):
                records = egtb.stats(["KNk", "KPk"], TABLES, rules=rules)
                expected = egtb_json("stats", "KNk", "KPk", "--rules", rules, "--dir", TABLES, "--json")["tables"]
                self.assertEqual(records, expected)
                self.assertEqual(records[0].rules, rules)
        knk = egtb.stats("KNk", TABLES, rules="stalemate-wins")[0]
        self.assertEqual((knk.maxdte.w.plies, knk.maxdte.w.example), (27, KNK_MAX_DTS))
        self.assertNotIn("maxdts", knk)

    def test_query_and_count(self):
        matches = list(egtb.query("KNk", "wtm dte == 27", TABLES, rules="stalemate-wins"))
        expected = egtb_json_lines("query", "KNk", "wtm dte == 27", "--rules", "stalemate-wins", "--dir", TABLES,
                                   "--json")
        self.assertEqual(matches, expected)
        self.assertEqual(len(matches), 9)
        self.assertEqual((matches[0].category, matches[0].dte), ("win", 27))
        counts = egtb.count("KPkp", "value == 0 and depth >= 40", TABLES, rules="stalemate-passes")
        self.assertEqual(counts.matches, egtb_json("query", "KPkp", "value == 0 and depth >= 40", "--rules",
                                                   "stalemate-passes", "--dir", TABLES, "--count", "--json")["matches"])
        self.assertGreater(counts.matches, 0)
        self.assertEqual(len(egtb.random_positions(TABLES, 5, rules="stalemate-passes")), 5)


class RulesGenerate(TablesTestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="egtb-python-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_generate_under_other_rules(self):
        records = egtb.generate("KNk", self.dir, threads=2, rules="stalemate-wins")
        self.assertEqual([r.signature for r in records], ["KNk"])
        self.assertTrue(records[0].path.endswith("KNk.stalemate-wins.egtb"))
        with egtb.open_tablebase(self.dir, rules="stalemate-wins") as tb:
            self.assertEqual(tb.probe_dte(KNK_MAX_DTS), 27)
        with self.assertRaisesRegex(ValueError, "metrics applies to lasker tables only"):
            egtb.generate("KNk", self.dir, rules="stalemate-passes", metrics="dtm")


if __name__ == "__main__":
    unittest.main()
