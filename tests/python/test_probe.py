"""Probing from Python: values and depths against the published figures, the result's keys and
values against `egtb probe --json`, positions as FEN strings and as objects with fen(), the
context manager, the same positions as `egtb bench probe`, and tables in several directories
(add_directory)."""

import json
import os
import pathlib
import shutil
import tempfile
import unittest

import egtb
from support import KBK_MAX_DTS, KNK_MAX_DTS, TABLES, Board, TablesTestCase, egtb_json, egtb_json_lines


class ProbeValues(TablesTestCase):
    def setUp(self):
        self.tb = egtb.open_tablebase(TABLES)

    def tearDown(self):
        self.tb.close()

    def test_published_maximum_depths(self):
        # The article's Table 1: KNk maxDTS 27 and KBk maxDTS 17, White to move stalemates.
        self.assertEqual(self.tb.probe_lasker(KNK_MAX_DTS), egtb.STALEMATES)
        self.assertEqual(self.tb.probe_dts(KNK_MAX_DTS), 27)
        self.assertIsNone(self.tb.probe_dtm(KNK_MAX_DTS))
        self.assertEqual(self.tb.probe_dts(KBK_MAX_DTS), 17)

    def test_kqk_longest_mate_is_19_plies(self):
        depths = [self.tb.probe_dtm(fen) for fen in self._kqk_white_to_move()]
        self.assertEqual(max(depths), 19)

    def test_terminal_positions(self):
        mated = "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"
        stalemated = "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"
        self.assertEqual((self.tb.probe_lasker(mated), self.tb.probe_dtm(mated)), (egtb.MATED, 0))
        self.assertEqual((self.tb.probe_lasker(stalemated), self.tb.probe_dts(stalemated)), (egtb.STALEMATED, 0))
        self.assertEqual(self.tb.probe_lasker("8/8/8/8/8/8/8/K6k w - - 0 1"), egtb.DRAW)

    def test_a_board_object_probes_as_its_fen(self):
        for fen in (KNK_MAX_DTS, KBK_MAX_DTS, "8/8/8/3pP3/8/8/8/K6k w - d6 0 1"):
            self.assertEqual(self.tb.probe_lasker(Board(fen)), self.tb.probe_lasker(fen))
            self.assertEqual(self.tb.probe(Board(fen)), self.tb.probe(fen))

    def test_probe_has_the_keys_and_values_of_the_command_line(self):
        for fen in (KNK_MAX_DTS, "8/8/8/3pP3/8/8/8/K6k w - d6 0 1", "8/8/8/8/8/8/2k5/R3K3 b - - 0 1"):
            result = self.tb.probe(fen)
            expected = egtb_json("probe", "--json", "--dir", TABLES, fen)
            self.assertEqual(json.dumps(result), json.dumps(expected))  # same keys in the same order
            self.assertIsInstance(result, egtb.ProbeResult)
            self.assertEqual(result.lasker, expected["lasker"])
            self.assertEqual(result.moves[0].uci, expected["moves"][0]["uci"])

    def test_line_follows_the_pv_and_ends_where_the_depth_says(self):
        result = self.tb.probe(KNK_MAX_DTS)
        self.assertEqual([step.uci for step in result.line], result.pv)
        self.assertEqual(len(result.line), 27)
        self.assertEqual([step.dts for step in result.line], list(range(26, -1, -1)))
        self.assertTrue(result.final.stalemate)
        self.assertEqual(result.final.fen, result.line[-1].fen)
        self.assertEqual(self.tb.probe("8/8/8/8/8/8/8/K6k w - - 0 1").line, [])

    def test_value_only_probes_agree_with_the_batch_command(self):
        fens = egtb.random_positions(TABLES, 300, seed=7)
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"egtb-python-{os.getpid()}.fens")
        with open(path, "w") as f:
            f.write("\n".join(fens) + "\n")
        try:
            expected = egtb_json_lines("probe", "--dir", TABLES, "--epd", path, "--value-only")
        finally:
            os.remove(path)
        for fen, line in zip(fens, expected, strict=True):
            self.assertEqual(
                (self.tb.probe_lasker(fen), self.tb.probe_dtm(fen), self.tb.probe_dts(fen)),
                (line["lasker"], line["dtm"], line["dts"]), fen)

    def test_random_positions_are_those_of_a_seed(self):
        first = egtb.random_positions(TABLES, 50, seed=3)
        self.assertEqual(first, egtb.random_positions(TABLES, 50, seed=3))
        self.assertNotEqual(first, egtb.random_positions(TABLES, 50, seed=4))
        self.assertEqual(len(set(first)), 50)

    def _kqk_white_to_move(self):
        matches = egtb.query("KQk", "wtm", TABLES)
        return [m.fen for m in matches]


class Lifetime(TablesTestCase):
    def test_context_manager_closes(self):
        with egtb.open_tablebase(TABLES, cache_mb=16) as tb:
            self.assertEqual(tb.probe_lasker(KNK_MAX_DTS), 3)
            self.assertFalse(tb.closed)
        self.assertTrue(tb.closed)
        self.assertIn("closed", repr(tb))
        with self.assertRaisesRegex(ValueError, "closed"):
            tb.probe_lasker(KNK_MAX_DTS)

    def test_directory_and_tables(self):
        tb = egtb.open_tablebase(TABLES)
        self.assertEqual(tb.directory, TABLES)
        self.assertEqual(len(tb.tables()), 35)
        self.assertIn("KPkp", tb.tables())
        tb.close()
        tb.close()  # closing twice is harmless

    def test_directories_may_be_paths(self):
        with egtb.open_tablebase(pathlib.Path(TABLES)) as tb:
            self.assertEqual(tb.directory, TABLES)
            self.assertEqual(tb.probe_dts(KNK_MAX_DTS), 27)
        self.assertEqual(egtb.stats("KNk", pathlib.Path(TABLES))[0].maxdts.w.plies, 27)


class Directories(TablesTestCase):
    """The fixture's Lasker tables split in two directories: 3 men in one, 4 in the other."""

    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="egtb-python-dirs-")
        self.three, self.four = os.path.join(self.root, "three"), os.path.join(self.root, "four")
        for d in (self.three, self.four):
            os.mkdir(d)
        for name in os.listdir(TABLES):
            signature, _, extension = name.partition(".")
            if extension == "egtb":
                target = self.three if len(signature) == 3 else self.four
                os.symlink(os.path.join(TABLES, name), os.path.join(target, name))

    def tearDown(self):
        shutil.rmtree(self.root)

    def test_added_directories_are_searched_in_order(self):
        krkn = "8/8/8/8/2n5/8/1R6/K1k5 w - - 0 1"  # its line leaves KRkn for KRk or Kkn
        with egtb.open_tablebase(TABLES) as whole, egtb.open_tablebase(self.three) as tb:
            self.assertEqual(tb.probe_dts(KNK_MAX_DTS), 27)
            with self.assertRaises(egtb.MissingTableError) as caught:
                tb.probe(krkn)
            self.assertIn(f"{self.three}/KRkn.egtb is missing", str(caught.exception))
            tb.add_directory(pathlib.Path(self.four))
            self.assertEqual((tb.directory, tb.directories), (self.three, [self.three, self.four]))
            self.assertEqual(tb.tables(), whole.tables())
            for fen in (krkn, KNK_MAX_DTS, "8/8/8/3pP3/8/8/8/K6k w - d6 0 1"):
                self.assertEqual(json.dumps(tb.probe(fen)), json.dumps(whole.probe(fen)))
                self.assertEqual(tb.probe(fen).line, whole.probe(fen).line)
            with self.assertRaises(egtb.MissingTableError) as caught:
                tb.probe("8/8/8/8/8/8/1R6/K1k1qn2 w - - 0 1")  # neither directory has 5 men
            self.assertIn(f"is in none of the directories {self.three}, {self.four}", str(caught.exception))

    def test_add_directory_needs_a_directory(self):
        with egtb.open_tablebase(self.three) as tb:
            with self.assertRaisesRegex(ValueError, "no table directory .* does not exist"):
                tb.add_directory(os.path.join(self.root, "nowhere"))
            self.assertEqual(tb.directories, [self.three])
        with self.assertRaisesRegex(ValueError, "closed"):
            tb.add_directory(self.four)


if __name__ == "__main__":
    unittest.main()
