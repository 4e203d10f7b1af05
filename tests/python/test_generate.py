"""egtb.generate: tables built in dependency order into a new directory, the progress callable
called while solving, on_table after each table, records with the keys of `egtb generate --json`,
finished tables kept by a second run, an exception of the callable stopping the build, and every
option of `egtb generate` as a keyword (the same api::GenerateRequest): the files equal the
command line's."""

import os
import shutil
import tempfile
import unittest

import egtb
from support import TABLES, TablesTestCase, egtb_json


def file_bytes(path):
    with open(path, "rb") as f:
        return f.read()


class Generate(TablesTestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="egtb-python-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_builds_dependencies_with_progress(self):
        progress, tables = [], []
        records = egtb.generate(["KQkp"], self.dir, threads=2, progress=progress.append, on_table=tables.append)
        built = [r.signature for r in records]
        self.assertEqual(built[-1], "KQkp")
        self.assertLess(built.index("KQk"), built.index("KQkq"))  # the promotion's table first
        self.assertTrue(all(r.built for r in records))
        self.assertEqual(tables, records)
        stages = {p.stage for p in progress}
        self.assertLessEqual({"setup", "solving", "finish"}, stages)
        solving = [p for p in progress if p.stage == "solving"]
        self.assertEqual({p.metric for p in solving}, {"dtm", "dts"})
        self.assertEqual(list(progress[0].keys()), ["signature", "stage", "metric", "ply", "resolved", "seconds", "slice", "slices"])
        fen = "8/8/8/8/8/1k6/1p6/KQ6 w - - 0 1"
        with egtb.open_tablebase(self.dir) as tb:
            self.assertEqual(tb.probe(fen), egtb_json("probe", "--json", "--dir", self.dir, fen))

    def test_records_have_the_keys_of_the_command_line_and_tables_are_kept(self):
        other = tempfile.mkdtemp(prefix="egtb-python-")
        self.addCleanup(shutil.rmtree, other, True)
        first = egtb.generate("KQk", self.dir)
        expected = egtb_json("generate", "KQk", "--dir", other, "--json")["tables"]
        self.assertEqual([list(r.keys()) for r in first], [list(t.keys()) for t in expected])
        self.assertEqual(first[0].sides, expected[0]["sides"])
        kept = egtb.generate("KQk", self.dir)
        expected_kept = egtb_json("generate", "KQk", "--dir", self.dir, "--json")["tables"]
        self.assertEqual([list(r.keys()) for r in kept], [list(t.keys()) for t in expected_kept])
        self.assertFalse(kept[0].built)

    def test_stalemate_only_tables_answer_probe_stalemate_as_the_full_tables_do(self):
        full = os.path.join(self.dir, "full")
        os.makedirs(full)
        shutil.copy(os.path.join(TABLES, "KNk.egtb"), full)
        lean = os.path.join(self.dir, "lean")
        records = egtb.generate("KNk", lean, metrics="dts", full_directory=full)
        self.assertEqual([(r.signature, r.sides.w.max_dtm, r.sides.w.max_dts) for r in records], [("KNk", None, 27)])
        fens = [
            "8/8/8/8/8/1N6/8/1k1K4 w - - 0 1",  # KNk's deepest stalemate win, DTS 27
            "k7/8/1K6/8/8/8/8/N7 b - - 0 1",
            "8/8/8/8/8/8/1N6/K1k5 w - - 0 1",
        ]
        with egtb.open_tablebase(lean) as tb, egtb.open_tablebase(TABLES) as whole:
            self.assertEqual(tb.probe_stalemate(fens[0]), (egtb.STALEMATES, 27))
            for fen in fens:
                lasker, dts = tb.probe_stalemate(fen)
                self.assertEqual((lasker, dts), whole.probe_stalemate(fen))
                full_value = whole.probe_lasker(fen)
                if full_value in (egtb.STALEMATES, egtb.STALEMATED):
                    self.assertEqual((lasker, dts), (full_value, whole.probe_dts(fen)))
                else:
                    self.assertEqual((lasker, dts), (egtb.DRAW, None))
                cli = egtb_json("probe", "--stalemate", "--json", "--dir", lean, fen)
                self.assertEqual((cli["lasker"], cli["dts"]), (lasker, dts))
            with self.assertRaisesRegex(egtb.MissingTableError, "KNk holds stalemates only"):
                tb.probe(fens[0])
            self.assertEqual(tb.get_stalemate("8/8/8/8/8/1B6/8/1k1K4 w - - 0 1", "none"), "none")

    def test_an_exception_of_the_callable_stops_the_build(self):
        class Stop(Exception):
            pass

        def stop(p):
            if p.stage == "solving":
                raise Stop(p.signature)

        with self.assertRaises(Stop):
            egtb.generate("KRk", self.dir, progress=stop)
        self.assertEqual([f for f in os.listdir(self.dir) if f.endswith(".egtb")], [])

    def test_bad_requests(self):
        with self.assertRaisesRegex(ValueError, "unknown piece letter 'X'"):
            egtb.generate("KXk", self.dir)
        with self.assertRaisesRegex(ValueError, "metrics"):
            egtb.generate("KQk", self.dir, metrics="dts")
        with self.assertRaises(ValueError):
            egtb.generate([], self.dir)

    def command_line_file(self, signature, *options):
        """The file `egtb generate SIGNATURE OPTIONS...` writes into a directory of its own."""
        other = tempfile.mkdtemp(prefix="egtb-python-")
        self.addCleanup(shutil.rmtree, other, True)
        record = egtb_json("generate", signature, "--dir", other, "--json", *options)["tables"][-1]
        return file_bytes(record["path"])

    def test_compression_level_writes_the_file_of_the_command_line(self):
        record = egtb.generate("KQk", self.dir, compression_level=19)[-1]
        self.assertEqual(file_bytes(record.path), self.command_line_file("KQk", "--compression-level", "19"))
        self.assertNotEqual(file_bytes(record.path), self.command_line_file("KQk"))
        with self.assertRaisesRegex(ValueError, "compression_level must be a whole number from 1 to 22, not '23'"):
            egtb.generate("KRk", self.dir, compression_level=23)

    def test_max_memory_solves_in_slices(self):
        # KRPk's subtables from the test tables; KRPk alone, in slices, gives the file solved whole.
        for name in ["KQRk", "KRRk", "KRBk", "KRNk", "KPk", "KRk"]:
            shutil.copy(os.path.join(TABLES, name + ".egtb"), self.dir)
        record = egtb.generate("KRPk", self.dir, max_memory="1M", no_closure=True)[-1]
        self.assertGreater(record.slices, 1)
        self.assertEqual(file_bytes(record.path), file_bytes(os.path.join(TABLES, "KRPk.egtb")))
        os.remove(record.path)
        self.assertGreater(egtb.generate("KRPk", self.dir, max_memory=1 << 20, no_closure=True)[-1].slices, 1)
        os.remove(record.path)
        self.assertEqual(egtb.generate("KRPk", self.dir, no_closure=True)[-1].slices, 1)
        with self.assertRaisesRegex(ValueError, "max_memory must be a size such as 800M"):
            egtb.generate("KQk", self.dir, max_memory="1.5G")
        with self.assertRaisesRegex(ValueError, "max_memory must be at least 1 byte"):
            egtb.generate("KQk", self.dir, max_memory=0)
        with self.assertRaises(TypeError):
            egtb.generate("KQk", self.dir, max_memory=1.5)

    def test_no_closure_builds_the_named_tables_alone(self):
        with self.assertRaisesRegex(RuntimeError, "KQk"):
            egtb.generate("KQkq", self.dir, no_closure=True)
        self.assertEqual(os.listdir(self.dir), [])
        records = egtb.generate(["KQk", "KRk"], self.dir, no_closure=True)
        self.assertEqual([r.signature for r in records], ["KQk", "KRk"])

    def test_metrics_dtm_solves_mates_only(self):
        record = egtb.generate("KBk", self.dir, metrics="dtm")[-1]
        self.assertEqual(egtb_json("info", record.path, "--json")["metrics"], "dtm")
        self.assertEqual(file_bytes(record.path), self.command_line_file("KBk", "--metrics", "dtm"))

    def test_force_rebuilds_a_present_table(self):
        egtb.generate("KQk", self.dir)
        self.assertFalse(egtb.generate("KQk", self.dir)[-1].built)
        self.assertTrue(egtb.generate("KQk", self.dir, force=True)[-1].built)

    def test_rules_and_threads(self):
        record = egtb.generate("KQk", self.dir, rules="stalemate-passes", threads=1)[-1]
        self.assertTrue(record.path.endswith("KQk.stalemate-passes.egtb"))
        self.assertEqual(file_bytes(record.path), self.command_line_file("KQk", "--rules", "stalemate-passes"))
        with self.assertRaisesRegex(ValueError, "threads must be at least 1"):
            egtb.generate("KQk", self.dir, threads=0)
        with self.assertRaisesRegex(ValueError, "threads must be a whole number from 0 to 1024"):
            egtb.generate("KQk", self.dir, threads=5000)


if __name__ == "__main__":
    unittest.main()
