"""Builds the extension egtb._egtb for `pip install` (pyproject.toml has the rest of the package).

CMake configures the repository for the interpreter that runs pip (-DPython3_EXECUTABLE), without
the tests, and builds the one target egtb_python (python/CMakeLists.txt) below setuptools' build
directory, build/pip; the module is copied where setuptools packs it. The version is the project's
(CMakeLists.txt). The environment adds to the build: CMAKE_ARGS (more -D options, e.g.
"-DEGTB_LTO=OFF"), CMAKE_GENERATOR (e.g. Ninja), CMAKE_BUILD_PARALLEL_LEVEL (jobs, default every
core), CMAKE_CXX_COMPILER_LAUNCHER (e.g. ccache).
"""

import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(egtb VERSION ([0-9.]+)", text).group(1)


class CMakeBuild(build_ext):
    """build_ext for the one extension, built by CMake."""

    def build_extension(self, ext):
        build_dir = pathlib.Path(self.build_temp).resolve() / "cmake"
        configure = [
            "cmake", "-S", str(ROOT), "-B", str(build_dir),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DEGTB_BUILD_TESTS=OFF",
            "-DEGTB_REQUIRE_PYTHON_MODULE=ON",
            f"-DPython3_EXECUTABLE={sys.executable}",
            *shlex.split(os.environ.get("CMAKE_ARGS", "")),
        ]
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "egtb_python", "--parallel", jobs],
                       check=True)
        built = sorted((build_dir / "python" / "egtb").glob("_egtb*.so"))
        if len(built) != 1:
            sys.exit(f"setup.py: expected one extension _egtb*.so in {build_dir}/python/egtb, found {built}")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)


setup(
    version=project_version(),
    ext_modules=[Extension("egtb._egtb", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build/pip"}},
)
