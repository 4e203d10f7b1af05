"""One Tablebase shared by Python threads: every thread gets the values a single thread gets, a
close() while others probe fails their later probes cleanly, and long calls release the GIL (the
main thread keeps running while another thread computes statistics)."""

import threading
import unittest

import egtb
from support import TABLES, TablesTestCase


class Threads(TablesTestCase):
    def test_threads_get_the_values_of_one_thread(self):
        fens = egtb.random_positions(TABLES, 4000, seed=11)
        with egtb.open_tablebase(TABLES) as tb:
            expected = [(tb.probe_lasker(f), tb.probe_dtm(f), tb.probe_dts(f)) for f in fens]
        with egtb.open_tablebase(TABLES) as tb:  # cold: the threads race to open the tables
            results = {}

            def probe_all(k):
                order = fens[k:] + fens[:k]
                results[k] = [(tb.probe_lasker(f), tb.probe_dtm(f), tb.probe_dts(f)) for f in order]

            threads = [threading.Thread(target=probe_all, args=(k * 997,)) for k in range(6)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        for k, values in results.items():
            self.assertEqual(values, expected[k:] + expected[:k])

    def test_close_while_probing(self):
        fens = egtb.random_positions(TABLES, 20000, seed=12)
        tb = egtb.open_tablebase(TABLES)
        outcomes = []

        def probe_until_closed():
            for fen in fens:
                try:
                    tb.probe_lasker(fen)
                except ValueError as e:
                    outcomes.append(str(e))
                    return
            outcomes.append("finished")

        threads = [threading.Thread(target=probe_until_closed) for _ in range(3)]
        for t in threads:
            t.start()
        tb.close()
        for t in threads:
            t.join()
        self.assertEqual(len(outcomes), 3)
        for outcome in outcomes:
            self.assertIn(outcome, ("finished", "the tablebase is closed"))

    def test_long_calls_release_the_gil(self):
        done = []
        worker = threading.Thread(target=lambda: done.append(egtb.stats("KPkp", TABLES, threads=1)))
        spins = 0
        worker.start()
        while worker.is_alive():
            spins += 1
        worker.join()
        self.assertEqual(len(done), 1)
        self.assertGreater(spins, 10000)


if __name__ == "__main__":
    unittest.main()
