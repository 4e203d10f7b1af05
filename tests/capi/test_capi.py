"""The C library as an engine uses it: installed with `cmake --install --component capi` into a
clean temporary prefix, capi_check.c compiled against the installed header and libraries with cc
and nothing but pkg-config's flags (C11, -Wall -Wextra -pedantic -Werror): `pkg-config --cflags
--libs egtb` links the shared library, and the program runs without LD_LIBRARY_PATH (the run path
of egtb.pc); `pkg-config --cflags --libs [--static] egtb-static` links libegtb.a in, and the program
needs no libegtb.so. Then

  * its probes (by bitboards it parses itself, and by FEN) compared with `egtb probe --epd`:
    values, depths, failures, and every root move against the command line's move list;
  * bad bitboards and arguments failing with their status and message;
  * many threads probing one tablebase opened cold, against a single thread;
  * the tables of the other rule sets opened with egtb_open_rules (fixtures tables_34_stalemate_wins
    and tables_34_stalemate_passes), probed and compared with `egtb probe --rules ... --epd`:
    values 4, 2 and 0, the rules' depth (DTE or DTM) in the dtm fields, a pass as the root move 0000;
  * the library's exported symbols: egtb_* only, each with the version node EGTB_0, and every
    function the header declares;
  * the principal variation (egtb_probe_pv, the 16-bit moves decoded by the header's macros)
    against the command line's pv, under each rule set;
  * egtb_probe_game against the command line's value and depth: EGTB_CASTLING for castling
    rights, EGTB_RULE50 exactly when the halfmove clock plus the depth exceeds 100 plies;
  * a tablebase over two directories (3 men and 4 men) with egtb_add_directory, against one;
  * the static program's probes against the shared one's;
  * egtb_probe_value on value files written by `egtb recompress --value-files` against egtb_probe.

ctest sets the environment (tests/capi/CMakeLists.txt)."""

import json
import os
import random
import re
import shutil
import subprocess
import tempfile
import unittest

BUILD = os.environ.get("EGTB_BUILD_DIR", "")
TABLES = os.environ.get("EGTB_TABLES", "")
EGTB_EXE = os.environ.get("EGTB_EXE", "")
CC = os.environ.get("EGTB_CC", "")
PKG_CONFIG = os.environ.get("EGTB_PKG_CONFIG", "")
CMAKE = os.environ.get("CMAKE_COMMAND", "cmake")
HERE = os.path.dirname(os.path.abspath(__file__))

# Positions that exercise each way a probe ends: values of every kind, e.p. rights (legal and
# not), colour-flipped material, bare kings, checkmate, stalemate, castling rights, too many men (7),
# an illegal position and a FEN that is not one.
SPECIAL = [
    "8/8/8/8/8/1N6/8/1k1K4 w - - 0 1",
    "8/8/8/8/8/8/8/2K1B1k1 w - - 0 1",
    "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1",
    "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1",
    "8/8/8/3pP3/8/8/8/K6k w - d6 0 1",
    "8/8/8/3pP3/8/8/8/K6k w - - 0 1",
    "8/8/8/8/3Pp3/8/8/K6k b - d3 0 1",
    "8/8/8/8/8/8/8/K6k w - - 0 1",
    "4k3/8/8/8/8/8/8/1q2K3 w - - 0 1",
    "8/4P3/8/8/8/8/k7/2K5 w - - 0 1",
    "8/8/8/8/8/2k5/1ppp4/KQR5 w - - 0 1",
    "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
    "k7/8/8/8/8/8/8/K6Q w - - 0 1",
    "8/8/8/8/8/8/8/K5k w - - 0 1",
]


def random_fens(count, seed):
    """Random placements of the 3-4-man signatures, legal or not (both must be answered alike)."""
    rng = random.Random(seed)
    men = "QRBNPqrbnp"
    fens = []
    for _ in range(count):
        pieces = ["K", "k"] + rng.sample(men, rng.randint(1, 2))
        squares = rng.sample(range(64), len(pieces))
        board = [["1"] * 8 for _ in range(8)]
        for piece, square in zip(pieces, squares):
            if piece in "Pp" and square // 8 in (0, 7):
                square ^= 8  # off the back ranks
            board[7 - square // 8][square % 8] = piece
        ranks = ["".join(rank) for rank in board]
        fens.append("/".join(ranks) + (" w" if rng.random() < 0.5 else " b") + " - - 0 1")
    return [compress_fen(f) for f in fens]


def compress_fen(fen):
    placement, rest = fen.split(" ", 1)
    out = []
    for rank in placement.split("/"):
        text, gap = "", 0
        for c in rank:
            if c == "1":
                gap += 1
                continue
            text += (str(gap) if gap else "") + c
            gap = 0
        out.append(text + (str(gap) if gap else ""))
    return "/".join(out) + " " + rest


def parse_line(line):
    """A line of `capi_check probe`: (status, lasker, dtm, dts), [(uci, lasker, dtm, dts)]."""
    head, *moves = line.split("|")
    values = tuple(int(x) for x in head.split())
    return values, [(m.split()[0], *(int(x) for x in m.split()[1:])) for m in moves]


def depth(value):
    return -1 if value is None else value



class InstalledLibrary(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not all((BUILD, TABLES, EGTB_EXE)) or not os.path.isdir(TABLES):
            raise unittest.SkipTest("EGTB_BUILD_DIR, EGTB_TABLES and EGTB_EXE must be set (ctest does)")
        if not CC or not PKG_CONFIG:
            print("SKIPPED: a C compiler (cc) and pkg-config are needed")
            raise unittest.SkipTest("no cc or pkg-config")
        cls.prefix = tempfile.mkdtemp(prefix="egtb-capi-")
        subprocess.run([CMAKE, "--install", BUILD, "--prefix", cls.prefix, "--component", "capi"],
                       check=True, capture_output=True)
        pc_dirs = [os.path.join(root) for root, _, files in os.walk(cls.prefix) if "egtb.pc" in files]
        cls.env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
        cls.env["PKG_CONFIG_PATH"] = pc_dirs[0]
        cls.libdir = os.path.normpath(cls.pkg_config("--variable=libdir", "egtb")[0])
        cls.program = cls.compile("capi_check", "--cflags", "--libs", "egtb")
        cls.static_program = cls.compile("capi_check_static", "--cflags", "--libs", "egtb-static")
        cls.compile("capi_check_static2", "--static", "--cflags", "--libs", "egtb-static")

    @classmethod
    def pkg_config(cls, *args):
        return subprocess.run([PKG_CONFIG, *args], env=cls.env, check=True, capture_output=True,
                              text=True).stdout.split()

    @classmethod
    def compile(cls, name, *pkg_config_args):
        """capi_check.c compiled with the flags of `pkg-config ARGS` (and -pthread, for its own
        threads); the path of the program."""
        program = os.path.join(cls.prefix, name)
        subprocess.run([CC, "-std=c11", "-Wall", "-Wextra", "-pedantic", "-Werror", "-o", program,
                        os.path.join(HERE, "capi_check.c"), *cls.pkg_config(*pkg_config_args), "-pthread"],
                       env=cls.env, check=True)
        return program

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.prefix, ignore_errors=True)

    def run_check(self, *args, stdin="", program=None):
        return subprocess.run([program or self.program, *args], input=stdin, env=self.env, capture_output=True,
                              text=True)

    def test_installed_files(self):
        installed = sorted(os.path.relpath(os.path.join(root, f), self.prefix)
                           for root, _, files in os.walk(self.prefix) for f in files)
        lib = os.path.relpath(self.libdir, self.prefix)
        self.assertEqual([f for f in installed if not f.startswith("capi_check")], sorted([
            "include/egtb.h", f"{lib}/libegtb.a", f"{lib}/libegtb.so", f"{lib}/libegtb.so.0",
            f"{lib}/libegtb.so.0.1.0", f"{lib}/pkgconfig/egtb.pc", f"{lib}/pkgconfig/egtb-static.pc"]))
        self.assertTrue(os.path.islink(os.path.join(self.libdir, "libegtb.so")))

    def dynamic_section(self, program):
        readelf = shutil.which("readelf")
        if not readelf:
            self.skipTest("no readelf")
        return subprocess.run([readelf, "-d", program], check=True, capture_output=True, text=True).stdout

    def test_the_shared_program_runs_from_its_run_path(self):
        search, run_path, library = self.pkg_config("--libs", "egtb")
        self.assertEqual((search[:2], os.path.normpath(search[2:]), library), ("-L", self.libdir, "-legtb"))
        self.assertEqual((run_path[:11], os.path.normpath(run_path[11:])), ("-Wl,-rpath,", self.libdir))
        dynamic = self.dynamic_section(self.program)
        self.assertIn("[libegtb.so.0]", dynamic)
        self.assertRegex(dynamic, rf"R(UN)?PATH.*\[{re.escape(run_path[11:])}\]")
        self.assertNotIn("LD_LIBRARY_PATH", self.env)
        opened = self.run_check("open", TABLES)
        self.assertEqual(opened.returncode, 0, opened.stderr)

    def test_the_static_program_needs_no_libegtb(self):
        archive = self.pkg_config("--libs", "egtb-static")[0]
        self.assertEqual(os.path.normpath(archive), os.path.join(self.libdir, "libegtb.a"))
        for flag in ("-ltbb", "-lzstd", "-lstdc++"):
            self.assertIn(flag, self.pkg_config("--static", "--libs", "egtb"))
            self.assertIn(flag, self.pkg_config("--libs", "egtb-static"))
        self.assertNotIn("libegtb", self.dynamic_section(self.static_program))
        fens = SPECIAL + random_fens(300, seed=13)
        shared = self.run_check("probe", TABLES, stdin="\n".join(fens) + "\n")
        static = self.run_check("probe", TABLES, stdin="\n".join(fens) + "\n", program=self.static_program)
        self.assertEqual((static.returncode, static.stdout), (0, shared.stdout), static.stderr)

    def test_open_reports_largest_tables_and_errors(self):
        self.assertEqual(self.run_check("open", TABLES).stdout.split()[:2], ["max_men", "4"])
        missing = self.run_check("open", os.path.join(self.prefix, "nowhere"))
        self.assertEqual(missing.returncode, 1)
        self.assertIn("no table directory", missing.stdout)

    def check_probes(self, fens, rules="lasker", value="lasker", metric="dtm"):
        """Probes `fens` with capi_check under `rules` and compares each with `egtb probe --rules
        --epd` (the value in `value`, the depth of the dtm fields in `metric`); returns the lines
        and the number of positions probed."""
        args = [] if rules == "lasker" else [rules]
        checked = self.run_check("probe", TABLES, *args, stdin="\n".join(fens) + "\n")
        self.assertEqual(checked.returncode, 0, checked.stderr)
        lines = checked.stdout.splitlines()
        expected = self.command_line_probes(fens, rules)
        self.assertEqual(len(lines), len(fens))
        probed = 0
        for fen, line, cli in zip(fens, lines, expected):
            (status, v, dtm, dts), moves = parse_line(line)
            if "error" in cli:
                self.assertNotEqual(status, 0, fen)
                continue
            probed += 1
            self.assertEqual((status, v, dtm, dts), (0, cli[value], depth(cli[metric]), depth(cli.get("dts"))), fen)
            self.assertEqual(moves, [self.mover_view(m, value, metric) for m in cli["moves"]], fen)
        return lines, probed

    def test_probes_agree_with_the_command_line(self):
        _, probed = self.check_probes(SPECIAL + random_fens(1500, seed=5))
        self.assertGreater(probed, 300)

    def test_other_rules_agree_with_the_command_line(self):
        # A stalemate that passing turns into a loss (docs/rules.md), and its stalemate.
        passes = ["k7/Pp6/8/K7/8/8/8/8 w - - 0 1", "k7/Pp6/1K6/8/8/8/8/8 b - - 1 1"]
        fens = SPECIAL + passes + random_fens(400, seed=11)
        for rules, metric in (("stalemate-wins", "dte"), ("stalemate-passes", "dtm")):
            with self.subTest(rules=rules):
                opened = self.run_check("open", TABLES, rules).stdout.split()
                self.assertEqual(opened[4:], ["rules", rules, "metric", metric])
                lines, probed = self.check_probes(fens, rules, "value", metric)  # dts: always -1
                self.assertGreater(probed, 100)
                if rules == "stalemate-passes":  # Black, stalemated, passes into a win
                    self.assertEqual(parse_line(lines[len(SPECIAL) + 1])[1], [("0000", 4, 43, -1)])
        bad = self.run_check("open", TABLES, "janggi")
        self.assertEqual(bad.returncode, 1)
        self.assertIn("error: rules must be EGTB_RULES_LASKER", bad.stdout)

    def test_failures_have_their_status(self):
        lines = self.run_check("probe", TABLES, stdin="\n".join(SPECIAL[-4:]) + "\n").stdout.splitlines()
        statuses = [parse_line(line)[0][0] for line in lines]
        self.assertEqual(statuses, [2, 3, 4, 4])  # too many men, castling, invalid, bad FEN

    def test_bad_arguments_fail_with_a_status_and_a_message(self):
        lines = self.run_check("errors", TABLES).stdout.splitlines()
        self.assertEqual(lines[:8], [
            "two types: invalid position: bitboards: square d1 has two piece types",
            "no colour: invalid position: bitboards: square d1 has a piece type but no colour",
            "no type: invalid position: bitboards: square d1 has a colour but no piece type",
            "ep square 64: bad argument: ep_square must be 0 to 63",
            "null result: bad argument: tb or result is NULL",
            "null fen: bad argument: fen is NULL",
            "null tablebase: bad argument: tb or result is NULL",
            "two moves: bad argument: the position has 21 legal moves, more than the capacity 2",
        ])
        # The bitboards of Ke1 Qd1 v Ke8, White to move, as the command line probes its FEN.
        cli = self.command_line_probes(["4k3/8/8/8/8/8/8/3QK3 w - - 0 1"])[0]
        self.assertEqual(lines[8:], ["queen: ok: ", f"queen: lasker {cli['lasker']} dtm {cli['dtm']} dts -1"])

    def test_many_threads_agree_with_one(self):
        fens = random_fens(6000, seed=9)
        result = self.run_check("threads", TABLES, "8", stdin="\n".join(fens) + "\n")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("mismatches 0", result.stdout)

    def test_principal_variations_agree_with_the_command_line(self):
        passes = ["k7/Pp6/8/K7/8/8/8/8 w - - 0 1"]  # stalemate-passes: its line has a pass
        fens = SPECIAL + passes + random_fens(300, seed=17)
        for rules in ("lasker", "stalemate-wins", "stalemate-passes"):
            with self.subTest(rules=rules):
                checked = self.run_check("pv", TABLES, rules, stdin="\n".join(fens) + "\n")
                self.assertEqual(checked.returncode, 0, checked.stderr)
                lines = checked.stdout.splitlines()
                self.assertEqual(len(lines), len(fens))
                longest = 0
                for fen, line, cli in zip(fens, lines, self.command_line_probes(fens, rules)):
                    head, moves = line.split("|")
                    status, length = (int(x) for x in head.split())
                    if "error" in cli:
                        self.assertNotEqual(status, 0, fen)
                        continue
                    self.assertEqual((status, length, moves.split()), (0, len(cli["pv"]), cli["pv"]), fen)
                    longest = max(longest, length)
                self.assertGreater(longest, 10)
                if rules == "stalemate-passes":
                    self.assertIn("0000", lines[len(SPECIAL)].split("|")[1].split())

    def test_a_game_position_is_not_probeable_past_the_50_move_rule(self):
        rng = random.Random(19)
        fens = [fen.replace(" 0 1", f" {rng.choice([0, 1, 50, 80, 99, 100, 101, 150])} 1")
                for fen in SPECIAL[:-1] + random_fens(600, seed=19)]  # not the bad FEN: capi_check parses
        # KNk's deepest stalemate win, DTS 27 plies (the article's Table 1): probeable with 73, not 74.
        edge = "8/8/8/8/8/1N6/8/1k1K4 w - - {} 1"
        fens += [edge.format(73), edge.format(74), edge.format(0)]
        lines = self.run_check("game", TABLES, stdin="\n".join(fens) + "\n").stdout.splitlines()
        self.assertEqual(len(lines), len(fens))
        seen = set()
        for fen, line, cli in zip(fens, lines, self.command_line_probes(fens)):
            status, *values = (int(x) for x in line.split())
            rule50 = int(fen.split()[4])
            if " Q " in fen:
                expected = 3  # EGTB_CASTLING
            elif "error" in cli:
                self.assertNotIn(status, (0, 8), fen)
                continue
            else:
                plies = cli["dtm"] if cli["dtm"] is not None else cli["dts"]
                expected = 8 if plies and rule50 + plies > 100 else 0  # EGTB_RULE50
            seen.add(expected)
            self.assertEqual(status, expected, fen)
            if expected == 0:
                self.assertEqual(values, [cli["lasker"], depth(cli["dtm"]), depth(cli["dts"])], fen)
            else:
                self.assertEqual(values, [-1, -1, -1], fen)
        self.assertEqual(seen, {0, 3, 8})
        self.assertEqual(lines[-3:], ["0 3 -1 27", "8 -1 -1 -1", "0 3 -1 27"])

    def test_stalemate_probes_of_stalemate_only_tables_are_the_full_tables_3_and_1(self):
        # The worked example of docs/c-library.md: Syzygy's draw (KNk) is a stalemate win here.
        lean = tempfile.mkdtemp(prefix="egtb-capi-lean-", dir=self.prefix)
        subprocess.run([EGTB_EXE, "generate", "--all", "4", "--metrics", "dts", "--dir", lean, "--full-dir", TABLES,
                        "--threads", "2"], check=True, capture_output=True)
        stalemated = "k7/2K5/1B6/8/8/8/8/8 b - - 0 1"  # value 1, DTS 0
        fens = SPECIAL[:-1] + random_fens(800, seed=29) + [stalemated, "8/8/8/8/8/1N6/8/1k1K4 w - - 0 1"]
        run = self.run_check("stalemate", lean, stdin="\n".join(fens) + "\n")
        self.assertEqual(run.returncode, 0, run.stderr)
        lines = run.stdout.splitlines()
        self.assertEqual(len(lines), len(fens))
        seen = set()
        for fen, line, cli in zip(fens, lines, self.command_line_probes(fens)):
            status, *values = (int(x) for x in line.split())
            if "error" in cli:
                self.assertNotEqual(status, 0, fen)
                continue
            self.assertEqual(status, 0, fen)
            if cli["lasker"] in (1, 3):
                expected = [cli["lasker"], -1, cli["dts"]]
            else:
                expected = [2, -1, -1]
            seen.add(expected[0])
            self.assertEqual(values, expected, fen)
        self.assertEqual(seen, {1, 2, 3})
        self.assertEqual(lines[-1], "0 3 -1 27")
        full = self.run_check("probe", lean, stdin=fens[-1] + "\n")
        self.assertTrue(full.stdout.startswith("1 -1 -1 -1"), full.stdout)  # EGTB_MISSING_TABLE

    def test_value_probes_are_the_full_probes_values(self):
        # Value files written by the command line beside copies of every 3-4-man table; capi_check
        # compares each value probe (by bitboards and by FEN) with the full probe of the same table.
        copy = tempfile.mkdtemp(prefix="egtb-capi-values-", dir=self.prefix)
        for name in os.listdir(TABLES):
            if re.fullmatch(r"K[A-Za-z]*\.egtb", name):
                shutil.copy(os.path.join(TABLES, name), copy)
        subprocess.run([EGTB_EXE, "recompress", "--all", "4", "--value-files", "--dir", copy], check=True,
                       capture_output=True)
        fens = SPECIAL[:-1] + random_fens(4000, seed=31)
        run = self.run_check("value", copy, stdin="\n".join(fens) + "\n")
        self.assertEqual(run.returncode, 0, run.stderr)
        lines = run.stdout.splitlines()
        self.assertEqual(len(lines), len(fens))
        self.assertGreater(sum(line.startswith("0 ") for line in lines), 2000)
        os.remove(os.path.join(copy, "KNk.egv"))
        missing = self.run_check("value", copy, stdin="8/8/8/8/8/1N6/8/1k1K4 w - - 0 1\n")
        self.assertEqual(missing.returncode, 1)  # the full probe answers, the value probe cannot
        self.assertEqual(missing.stdout, "1 -1\n")  # EGTB_MISSING_TABLE
        self.assertIn("egtb recompress KNk --value-files", missing.stderr)

    def test_two_directories_probe_as_one(self):
        root = tempfile.mkdtemp(prefix="egtb-capi-dirs-", dir=self.prefix)
        three, four = os.path.join(root, "three"), os.path.join(root, "four")
        for d in (three, four):
            os.mkdir(d)
        for name in os.listdir(TABLES):
            signature, _, extension = name.partition(".")
            if extension == "egtb":
                os.symlink(os.path.join(TABLES, name), os.path.join(three if len(signature) == 3 else four, name))
        fens = SPECIAL[:11] + random_fens(300, seed=23)
        out = self.run_check("dirs", three, four, stdin="\n".join(fens) + "\n").stdout.splitlines()
        n = len(fens)
        before, reports, after = out[:n + 1], out[n + 1:n + 4], out[n + 4:]
        self.assertEqual(before[0], "max_men 3")
        self.assertIn(" 1 -1 -1 -1", "".join(f" {line}" for line in before[1:]))  # a missing 4-man table
        self.assertRegex(reports[0], "^a file: bad argument: no table directory .*capi_check.c \\(it is not a directory\\)$")
        self.assertEqual(reports[1:], ["null: bad argument: tb or directory is NULL", "added: ok: "])
        self.assertEqual(after[0], "max_men 4")
        whole = self.run_check("dirs", TABLES, TABLES, stdin="\n".join(fens) + "\n").stdout.splitlines()
        self.assertEqual(after[1:], whole[1:n + 1])

    def test_exported_symbols_are_versioned_egtb_functions(self):
        nm = shutil.which("nm")
        if not nm:
            self.skipTest("no nm")
        library = os.path.realpath(os.path.join(self.libdir, "libegtb.so"))
        out = subprocess.run([nm, "-D", "--defined-only", library], check=True, capture_output=True, text=True)
        symbols = [line.split()[-1] for line in out.stdout.splitlines()]
        functions = [s for s in symbols if s != "EGTB_0"]
        self.assertIn("egtb_probe@@EGTB_0", functions)
        self.assertTrue(all(s.startswith("egtb_") and s.endswith("@@EGTB_0") for s in functions), functions)
        with open(os.path.join(self.prefix, "include", "egtb.h")) as f:
            declared = set(re.findall(r"^[a-z].*?\b(egtb_[a-z_0-9]+)\(", f.read(), re.MULTILINE))
        self.assertEqual({s.split("@@")[0] for s in functions}, declared)

    @staticmethod
    def command_line_probes(fens, rules="lasker"):
        with tempfile.NamedTemporaryFile("w", suffix=".fens", delete=False) as f:
            f.write("\n".join(fens) + "\n")
        try:
            out = subprocess.run([EGTB_EXE, "probe", "--dir", TABLES, "--rules", rules, "--epd", f.name],
                                 capture_output=True, text=True).stdout
        finally:
            os.remove(f.name)
        return [json.loads(line) for line in out.splitlines()]

    @staticmethod
    def mover_view(move, value="lasker", metric="dtm"):
        """A move of `egtb probe --json` (values after it) as a root move (values for its mover);
        under other rules the value is "value" and the dtm field holds the rules' metric."""
        plus_one = lambda d: -1 if d is None else d + 1  # noqa: E731
        return (move["uci"], 4 - move[value], plus_one(move[metric]), plus_one(move.get("dts")))


if __name__ == "__main__":
    unittest.main()
