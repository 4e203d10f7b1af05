"""Errors as Python exceptions (api/errors.hpp): ValueError with the FEN parser's message, the
MissingTableError (a KeyError) naming the command that builds the table, OutsideTablesError (a
KeyError) for castling rights and too many men, as python-chess's tablebases raise KeyError for
them, TableError for a damaged file, TypeError for what is not a position; and the get_*
variants, which return their default where probe_* raise for a position the tables cannot
answer."""

import _thread
import fcntl
import os
import shutil
import tempfile
import threading
import time
import unittest

import egtb
from support import KNK_MAX_DTS, TABLES, Board, TablesTestCase

SEVEN_MEN = "8/8/8/8/8/2k5/1ppp4/KQR5 w - - 0 1"
CASTLING = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"


class Errors(TablesTestCase):
    def setUp(self):
        self.tb = egtb.open_tablebase(TABLES)
        self.empty_dir = tempfile.mkdtemp(prefix="egtb-python-")
        self.empty = egtb.open_tablebase(self.empty_dir)

    def tearDown(self):
        self.tb.close()
        self.empty.close()
        shutil.rmtree(self.empty_dir)

    def test_bad_fen_is_a_value_error_with_the_parser_message(self):
        with self.assertRaises(ValueError) as caught:
            self.tb.probe_lasker("8/8/8/8/8/8/8/K5k w - - 0 1")
        self.assertEqual(str(caught.exception), "FEN field 1 (piece placement): rank 1 has 7 files")
        for call in (self.tb.get_lasker, self.tb.get_dtm, self.tb.get_dts, self.tb.get):
            with self.assertRaises(ValueError):  # a FEN that is not one is the caller's error
                call("not a fen")
        with self.assertRaisesRegex(ValueError, "Black \\(not to move\\) is in check"):
            self.tb.probe(Board("k7/8/8/8/8/8/8/K6Q w - - 0 1"))

    def test_missing_table_names_the_command_that_builds_it(self):
        with self.assertRaises(egtb.MissingTableError) as caught:
            self.empty.probe_lasker(KNK_MAX_DTS)
        error = caught.exception
        self.assertIsInstance(error, KeyError)
        self.assertEqual(error.table, "KNk")
        self.assertIn(f"build it with: egtb generate KNk --dir {self.empty_dir}", str(error))
        with self.assertRaises(KeyError):
            self.empty.probe(Board(KNK_MAX_DTS))

    def test_get_returns_the_default_where_probe_raises(self):
        for fen in (KNK_MAX_DTS,):
            self.assertIsNone(self.empty.get_lasker(fen))
            self.assertEqual(self.empty.get_dtm(fen, "none"), "none")
            self.assertEqual(self.empty.get_dts(fen, -1), -1)
            self.assertEqual(self.empty.get(fen, 0), 0)
        for fen in (SEVEN_MEN, CASTLING):
            self.assertEqual(self.tb.get_lasker(fen, -1), -1)
            self.assertEqual(self.tb.get(fen, -1), -1)
            with self.assertRaises(KeyError):
                self.tb.probe_lasker(fen)
        self.assertEqual(self.tb.get_dts(KNK_MAX_DTS, -1), 27)
        self.assertEqual(self.tb.get(KNK_MAX_DTS).dts, 27)
        self.assertIsNone(self.tb.get_dtm(KNK_MAX_DTS, -1))  # found: the value has no DTM

    def test_too_many_men_and_castling_are_key_errors_outside_the_tables(self):
        for probe in (self.tb.probe_lasker, self.tb.probe_dtm, self.tb.probe_depth, self.tb.probe):
            with self.assertRaises(egtb.OutsideTablesError) as caught:
                probe(SEVEN_MEN)
            self.assertIsInstance(caught.exception, KeyError)
            self.assertNotIsInstance(caught.exception, egtb.MissingTableError)
            self.assertEqual(str(caught.exception), "the position has 7 men; tables exist for at most 6")
            with self.assertRaises(egtb.OutsideTablesError) as caught:
                probe(Board(CASTLING))
            self.assertRegex(str(caught.exception), "castling rights \\(Q\\)")

    def test_what_is_not_a_position_is_a_type_error(self):
        for position in (42, None, object()):
            with self.assertRaisesRegex(TypeError, "FEN string or an object with a fen\\(\\) method"):
                self.tb.probe_lasker(position)

    def test_damaged_table_is_a_table_error(self):
        shutil.copy(os.path.join(TABLES, "KNk.egtb"), self.empty_dir)
        path = os.path.join(self.empty_dir, "KNk.egtb")
        with open(path, "r+b") as f:
            f.seek(40)
            byte = f.read(1)
            f.seek(40)
            f.write(bytes([byte[0] ^ 0xFF]))
        damaged = egtb.open_tablebase(self.empty_dir)
        with self.assertRaises(egtb.TableError) as caught:
            damaged.probe_lasker(KNK_MAX_DTS)
        self.assertEqual(caught.exception.path, path)
        self.assertIn(path, str(caught.exception))
        with self.assertRaises(egtb.TableError):  # not a missing table: get_* raise too
            damaged.get_lasker(KNK_MAX_DTS)

    def test_open_needs_a_directory(self):
        with self.assertRaisesRegex(ValueError, "no table directory .* does not exist"):
            egtb.open_tablebase(os.path.join(self.empty_dir, "nowhere"))
        with self.assertRaisesRegex(ValueError, "cache_mb"):
            egtb.open_tablebase(TABLES, cache_mb=0)

    def test_keyword_checks(self):
        with self.assertRaisesRegex(ValueError, "convention must be index462, physical or classes, not 'x'"):
            egtb.stats("KQk", TABLES, convention="x")
        with self.assertRaisesRegex(ValueError, "threads"):
            egtb.stats("KQk", TABLES, threads=0)
        with self.assertRaisesRegex(ValueError, "limit"):
            egtb.query("KQk", "wtm", TABLES, limit=0)
        with self.assertRaises(TypeError):
            egtb.stats([1], TABLES)


# A query that takes milliseconds per position: three nested loops over the 64 squares.
SLOW_QUERY = "square s1 in . square s2 in . square s3 in . wtm"


def interrupt_main_after(seconds):
    """Ctrl-C in the main thread after `seconds`, as the terminal would send it."""
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


class Hostile(TablesTestCase):
    """Calls that used to crash, hang or ignore Ctrl-C."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="egtb-python-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_objects_made_without_init_raise(self):
        with self.assertRaisesRegex(TypeError, "egtb.query"):
            next(egtb.QueryIterator.__new__(egtb.QueryIterator))
        with self.assertRaises(TypeError):
            egtb.Tablebase.__new__(egtb.Tablebase)
        tb = egtb.Tablebase.__new__(egtb.Tablebase, TABLES)  # __new__ makes a whole one
        self.assertEqual(tb.probe_dts(KNK_MAX_DTS), 27)
        with egtb.Tablebase(TABLES, cache_mb=16) as tb:
            self.assertEqual(tb.probe_dts(KNK_MAX_DTS), 27)

    def test_generate_from_its_own_callback_raises(self):
        def again(_):
            egtb.generate("KQk", self.dir)

        with self.assertRaisesRegex(RuntimeError, "cannot be called from a progress or on_table callback"):
            egtb.generate("KQk", self.dir, progress=again)
        with self.assertRaisesRegex(RuntimeError, "cannot be called from a progress or on_table callback"):
            egtb.generate("KRk", self.dir, on_table=again)
        self.assertEqual(len(egtb.generate("KQk", self.dir)), 1)  # and generate works after

    def test_ctrl_c_ends_a_wait_for_another_process_lock(self):
        with open(os.path.join(self.dir, "KQk.egtb.lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # as another process building KQk holds it
            release = threading.Timer(20, fcntl.flock, (lock, fcntl.LOCK_UN))
            release.start()
            timer = interrupt_main_after(0.5)
            start = time.monotonic()
            try:
                with self.assertRaises(KeyboardInterrupt):
                    egtb.generate("KQk", self.dir)
                self.assertLess(time.monotonic() - start, 10)
            finally:
                timer.cancel()
                release.cancel()

    def test_ctrl_c_ends_a_count(self):
        timer = interrupt_main_after(0.5)
        start = time.monotonic()
        try:
            with self.assertRaises(KeyboardInterrupt):
                egtb.count(["KQkp", "KRkp"], SLOW_QUERY, TABLES)
            self.assertLess(time.monotonic() - start, 10)
        finally:
            timer.cancel()

    def test_loops_past_their_bound_are_a_value_error_at_the_loop(self):
        with self.assertRaisesRegex(ValueError, "query:1:46: error: the query's loops run more than 1000000"):
            egtb.count("KBk", SLOW_QUERY.replace("wtm", "square s4 in . wtm"), TABLES)

    def test_a_huge_count_of_random_positions_is_a_value_error(self):
        with self.assertRaisesRegex(ValueError, "at most 100000000, not 18446744073709551615"):
            egtb.random_positions(TABLES, 2**64 - 1)


if __name__ == "__main__":
    unittest.main()
