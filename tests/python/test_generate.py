"""egtb.generate: tables built in dependency order into a new directory, the progress callable
called while solving, on_table after each table, records with the keys of `egtb generate --json`,
finished tables kept by a second run, an exception of the callable stopping the build."""

import os
import shutil
import tempfile
import unittest

import egtb
from support import TablesTestCase, egtb_json


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
        self.assertEqual(list(progress[0].keys()), ["signature", "stage", "metric", "ply", "resolved", "seconds"])
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


if __name__ == "__main__":
    unittest.main()
