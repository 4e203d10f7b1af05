"""`cmake --install` puts the package where the interpreter finds it: installed into a temporary
prefix (component python), it imports from there, not from the build tree, and probes."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from support import KNK_MAX_DTS, TABLES, TablesTestCase

BUILD = os.environ.get("EGTB_BUILD_DIR", "")
INSTALL_DIR = os.environ.get("EGTB_PYTHON_INSTALL_DIR", "")
CMAKE = os.environ.get("CMAKE_COMMAND", "cmake")


class Install(TablesTestCase):
    def test_installed_package_imports_and_probes(self):
        if not BUILD or not INSTALL_DIR:
            self.skipTest("EGTB_BUILD_DIR and EGTB_PYTHON_INSTALL_DIR must be set (ctest does)")
        prefix = tempfile.mkdtemp(prefix="egtb-python-install-")
        try:
            subprocess.run([CMAKE, "--install", BUILD, "--prefix", prefix, "--component", "python"], check=True,
                           capture_output=True)
            site = os.path.join(prefix, INSTALL_DIR)
            script = f"import egtb; print(egtb.__file__); print(egtb.open_tablebase({TABLES!r}).probe_dts({KNK_MAX_DTS!r}))"
            env = dict(os.environ, PYTHONPATH=site)
            out = subprocess.run([sys.executable, "-c", script], env=env, check=True, capture_output=True,
                                 text=True).stdout.split()
            self.assertEqual(out, [os.path.join(site, "egtb", "__init__.py"), "27"])
        finally:
            shutil.rmtree(prefix)


if __name__ == "__main__":
    unittest.main()
