"""Value files from Python and the command line: `egtb recompress --value-files` writes them beside
copies of the 3-4-man tables (egtb.write_value_files the same bytes), Tablebase.probe_value_file
answers probe_value's value on a random sample of every table, `egtb probe --epd --value-file` the
`--value-only` batch's lasker, and a missing or damaged value file fails as a missing or damaged
table does."""

import json
import os
import random
import shutil
import subprocess
import tempfile
import unittest

import egtb
from support import EGTB_EXE, TABLES, TablesTestCase


def random_fens(signatures, count, seed):
    """Random placements of the men of each signature (legal or not), as bench/random_placements.py."""
    rng = random.Random(seed)
    fens = []
    for k in range(count):
        signature = signatures[k % len(signatures)]
        white = signature[: signature.index("k", 1)]
        men = [c.upper() for c in white] + [c.lower() for c in signature[len(white):]]
        board = [None] * 64
        for man in men:
            square = rng.choice([s for s in range(64) if board[s] is None and (man not in "Pp" or 8 <= s < 56)])
            board[square] = man
        ranks = []
        for rank in range(7, -1, -1):
            text, empty = "", 0
            for man in board[rank * 8: rank * 8 + 8]:
                if man is None:
                    empty += 1
                    continue
                text += (str(empty) if empty else "") + man
                empty = 0
            ranks.append(text + (str(empty) if empty else ""))
        fens.append("/".join(ranks) + rng.choice([" w", " b"]) + " - - 0 1")
    return fens


class ValueFiles(TablesTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.dir = tempfile.mkdtemp(prefix="egtb-python-values-")
        cls.signatures = sorted(name[:-5] for name in os.listdir(TABLES)
                                if name.endswith(".egtb") and "." not in name[:-5])
        for signature in cls.signatures:
            shutil.copy(os.path.join(TABLES, signature + ".egtb"), cls.dir)
        subprocess.run([EGTB_EXE, "recompress", "--all", "4", "--value-files", "--dir", cls.dir], check=True,
                       capture_output=True)
        cls.fens = random_fens(cls.signatures, 20000, seed=41)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def test_every_table_has_its_value_file(self):
        self.assertEqual(len(self.signatures), 35)
        for signature in self.signatures:
            self.assertTrue(os.path.isfile(os.path.join(self.dir, signature + ".egv")), signature)

    def test_value_file_probes_are_the_full_probes_values(self):
        with egtb.open_tablebase(self.dir) as tb:
            answered = 0
            for fen in self.fens:
                try:
                    full = tb.probe_value(fen)
                except ValueError:  # not a legal position: the value probe refuses it too
                    self.assertRaises(ValueError, tb.probe_value_file, fen)
                    continue
                self.assertEqual(tb.probe_value_file(fen), full, fen)
                answered += 1
            self.assertGreater(answered, 10000)

    def test_the_command_line_batch_reads_the_value_files(self):
        text = "\n".join(self.fens[:3000]) + "\n"
        run = lambda *flags: subprocess.run([EGTB_EXE, "probe", "--dir", self.dir, "--epd", "-", *flags],
                                            input=text, capture_output=True, text=True)
        values = [json.loads(line) for line in run("--value-file").stdout.splitlines()]
        full = [json.loads(line) for line in run("--value-only").stdout.splitlines()]
        self.assertEqual(len(values), 3000)
        for value, reference in zip(values, full):
            if "error" in reference:
                self.assertIn("error", value)
            else:
                self.assertEqual(value, {"fen": reference["fen"], "lasker": reference["lasker"]})

    def test_python_writes_the_files_the_command_line_writes(self):
        directory = tempfile.mkdtemp(prefix="egtb-python-values-write-")
        try:
            for signature in ("KQk", "KRkr", "KBNk"):
                shutil.copy(os.path.join(TABLES, signature + ".egtb"), directory)
            seen = []
            records = egtb.write_value_files(["KQk", "KRvKR"], directory, on_table=seen.append)
            self.assertEqual([r.signature for r in records], ["KQk", "KRkr"])
            self.assertEqual([r.signature for r in seen], ["KQk", "KRkr"])
            for record in records:
                path = os.path.join(directory, record.signature + ".egv")
                self.assertEqual(record.path, path)
                self.assertEqual(record.bytes_after, os.path.getsize(path))
                self.assertEqual(record.bytes_before, os.path.getsize(os.path.join(directory, record.signature + ".egtb")))
                with open(path, "rb") as mine, open(os.path.join(self.dir, record.signature + ".egv"), "rb") as cli:
                    self.assertEqual(mine.read(), cli.read(), record.signature)
            self.assertFalse(os.path.exists(os.path.join(directory, "KBNk.egv")))
            [small] = egtb.write_value_files("KBNk", directory, block_entries=4096)
            with egtb.open_tablebase(directory) as tb:
                self.assertEqual(tb.probe_value_file("8/8/8/8/8/2k5/8/KBN5 w - - 0 1"),
                                 tb.probe_value("8/8/8/8/8/2k5/8/KBN5 w - - 0 1"))
            self.assertLess(small.bytes_after, os.path.getsize(os.path.join(self.dir, "KBNk.egv")))
            for bad in (1000, 512, 1 << 21):
                with self.assertRaises(ValueError) as raised:
                    egtb.write_value_files("KQk", directory, block_entries=bad)
                self.assertIn("block_entries of value files must be a power of two", str(raised.exception))
            with self.assertRaises(egtb.MissingTableError):
                egtb.write_value_files("KNk", directory)
        finally:
            shutil.rmtree(directory)

    def test_a_missing_or_damaged_value_file_fails(self):
        directory = tempfile.mkdtemp(prefix="egtb-python-values-bad-")
        try:
            shutil.copy(os.path.join(self.dir, "KQk.egv"), directory)
            shutil.copy(os.path.join(self.dir, "KRk.egv"), directory)
            with open(os.path.join(directory, "KRk.egv"), "r+b") as f:
                f.seek(200)
                byte = f.read(1)
                f.seek(200)
                f.write(bytes([byte[0] ^ 0xFF]))
            with egtb.open_tablebase(directory) as tb:
                self.assertEqual(tb.probe_value_file("k7/8/8/8/8/8/8/K5Q1 w - - 0 1"), egtb.MATES)
                with self.assertRaises(egtb.MissingTableError):
                    tb.probe_value_file("k7/8/8/8/8/8/8/K6N w - - 0 1")
                self.assertIsNone(tb.get_value_file("k7/8/8/8/8/8/8/K6N w - - 0 1"))
                with self.assertRaises(Exception) as raised:
                    tb.probe_value_file("k7/8/8/8/8/8/8/K6R w - - 0 1")
                self.assertIn("checksum mismatch", str(raised.exception))
        finally:
            shutil.rmtree(directory)


if __name__ == "__main__":
    unittest.main()
