"""`python3 -m pip install --no-build-isolation .` as a user runs it, offline: a venv that sees
Debian's setuptools (--system-site-packages), pip installing a copy of the repository's files
(--no-index: no package index is reached), CMake building the extension on the way (setup.py);
then, from a directory that is not the repository, the venv's interpreter imports egtb from its
own site-packages, with the stubs and py.typed beside it, and probes a table. A whole build of the
extension: labelled slow (tests/python/CMakeLists.txt). ccache, when installed, is used."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from support import KNK_MAX_DTS, TABLES, TablesTestCase

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def repository_files():
    """The repository's files, as git knows them (committed or not, minus what it ignores)."""
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPOSITORY,
                         check=True, capture_output=True, text=True).stdout
    return [f for f in out.split("\0") if f and os.path.isfile(os.path.join(REPOSITORY, f))]


class PipInstall(TablesTestCase):
    def setUp(self):
        if not shutil.which("git") or not os.path.exists(os.path.join(REPOSITORY, ".git")):
            self.skipTest("the repository's files are listed by git")
        self.work = tempfile.mkdtemp(prefix="egtb-pip-")

    def tearDown(self):
        shutil.rmtree(self.work)

    def test_pip_installs_into_a_venv(self):
        source = os.path.join(self.work, "egtb-source")
        for name in repository_files():
            os.makedirs(os.path.dirname(os.path.join(source, name)), exist_ok=True)
            shutil.copy2(os.path.join(REPOSITORY, name), os.path.join(source, name))
        venv = os.path.join(self.work, "venv")
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True)
        python = os.path.join(venv, "bin", "python")
        env = dict(os.environ, CMAKE_ARGS="-DEGTB_LTO=OFF", PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
        env.pop("PYTHONPATH", None)
        if shutil.which("ninja"):
            env["CMAKE_GENERATOR"] = "Ninja"
        if shutil.which("ccache"):
            env.update(CMAKE_CXX_COMPILER_LAUNCHER="ccache", CCACHE_BASEDIR=source)
        install = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index", source],
                                 env=env, capture_output=True, text=True)
        self.assertEqual(install.returncode, 0, install.stdout[-3000:] + install.stderr[-3000:])

        script = ("import egtb, json, os, sys; d = os.path.dirname(egtb.__file__); "
                  "print(json.dumps([os.path.relpath(d, sys.prefix), sorted(os.listdir(d)), egtb.__version__, "
                  f"egtb.open_tablebase({TABLES!r}).probe_dts({KNK_MAX_DTS!r})]))")
        elsewhere = os.path.join(self.work, "elsewhere")
        os.mkdir(elsewhere)
        out = subprocess.run([python, "-c", script], cwd=elsewhere, env=env, check=True, capture_output=True,
                             text=True).stdout
        package, files, version, dts = json.loads(out)
        self.assertRegex(package, r"^lib/python3\.[0-9]+/site-packages/egtb$")  # the venv's own
        extension = [f for f in files if f.startswith("_egtb.cpython-") and f.endswith(".so")]
        self.assertEqual(len(extension), 1, files)
        self.assertEqual(sorted(set(files) - {"__pycache__", *extension}), ["__init__.py", "_egtb.pyi", "py.typed"])
        with open(os.path.join(REPOSITORY, "CMakeLists.txt")) as f:
            self.assertIn(f"project(egtb VERSION {version} ", f.read())
        self.assertEqual(dts, 27)
        show = subprocess.run([python, "-m", "pip", "show", "egtb"], env=env, check=True, capture_output=True,
                              text=True).stdout
        self.assertIn(f"Version: {version}", show)


if __name__ == "__main__":
    unittest.main()
