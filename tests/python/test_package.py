"""The package as users and their tools see it: the stubs of the extension (egtb/_egtb.pyi) name
exactly the module's functions, classes, methods and constants with the parameters
inspect.signature reads from the module; __all__ names every public name; the package is marked
typed (py.typed); and the repository does not pass for the package (python -c 'import egtb' in its
root imports no empty namespace package, in python/ fails with what to do)."""

import ast
import inspect
import os
import subprocess
import sys
import types
import unittest

import egtb
import egtb._egtb as extension

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STUBS = os.path.join(os.path.dirname(egtb.__file__), "_egtb.pyi")


def parameters(signature):
    """A signature without its annotations: (name, kind, default) of each parameter."""
    return [(p.name, p.kind, p.default) for p in signature.parameters.values()]


def public(names):
    return {n for n in names if not n.startswith("_")}


class Stubs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(STUBS) as f:
            source = f.read()
        cls.tree = ast.parse(source)
        cls.stubs = {"__name__": "egtb_stubs"}
        exec(compile(source, STUBS, "exec"), cls.stubs)  # stubs are Python: their defs have signatures

    def stub_names(self, body):
        names = set()
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.AnnAssign):
                names.add(node.target.id)
        return names

    def test_the_stubs_name_what_the_module_has(self):
        self.assertEqual(public(self.stub_names(self.tree.body)) | {"__version__"},
                         public(dir(extension)) | {"__version__"})
        self.assertIn("__version__", self.stub_names(self.tree.body))

    def test_functions_have_the_parameters_of_their_stubs(self):
        functions = [n for n in self.tree.body if isinstance(n, ast.FunctionDef)]
        self.assertGreater(len(functions), 5)
        for node in functions:
            with self.subTest(function=node.name):
                self.assertEqual(parameters(inspect.signature(getattr(extension, node.name))),
                                 parameters(inspect.signature(self.stubs[node.name])))

    def test_classes_have_the_methods_and_properties_of_their_stubs(self):
        for node in (n for n in self.tree.body if isinstance(n, ast.ClassDef)):
            runtime, stub = getattr(extension, node.name), self.stubs[node.name]
            stubbed = self.stub_names(node.body)
            with self.subTest(cls=node.name):
                self.assertEqual(public(stubbed), public(vars(runtime)))
            for name in stubbed:
                with self.subTest(cls=node.name, member=name):
                    if isinstance(vars(stub)[name], property):
                        self.assertIsInstance(vars(runtime)[name], property)
                        continue
                    self.assertEqual(parameters(inspect.signature(getattr(runtime, name))),
                                     parameters(inspect.signature(getattr(stub, name))))

    def test_constants_have_their_stub_types(self):
        for node in (n for n in self.tree.body if isinstance(n, ast.AnnAssign)):
            expected = {"int": int, "str": str}.get(ast.unparse(node.annotation), tuple)
            self.assertIsInstance(getattr(extension, node.target.id), expected, node.target.id)

    def test_the_package_is_typed(self):
        self.assertTrue(os.path.isfile(os.path.join(os.path.dirname(egtb.__file__), "py.typed")))


class Package(unittest.TestCase):
    def test_all_names_every_public_name(self):
        names = {n for n, v in vars(egtb).items() if not n.startswith("_") and not isinstance(v, types.ModuleType)}
        self.assertEqual(set(egtb.__all__), names | {"__version__"})
        self.assertEqual(len(egtb.__all__), len(set(egtb.__all__)))
        for name in ("WIN", "LOSS", "RULES", "OutsideTablesError"):
            self.assertIn(name, egtb.__all__)

    def test_signatures_of_every_callable(self):
        self.assertEqual(str(inspect.signature(egtb.open_tablebase)),
                         "(directory, *, cache_mb=256, rules='lasker')")
        self.assertEqual(str(inspect.signature(egtb.Tablebase)), "(directory, *, cache_mb=256, rules='lasker')")
        self.assertEqual(str(inspect.signature(egtb.Tablebase.get_dts)), "(self, position, default=None)")
        with egtb.open_tablebase(REPOSITORY) as tb:  # bound methods drop self
            self.assertEqual(str(inspect.signature(tb.probe)), "(position)")
            self.assertEqual(str(inspect.signature(tb.add_directory)), "(directory)")
        for name in egtb.__all__:
            value = getattr(egtb, name)
            # Every function, and every class that defines its constructor: not Record (a dict), nor
            # QueryIterator (made by egtb.query only).
            constructed = isinstance(value, type) and "__init__" in vars(value) and value is not egtb.QueryIterator
            if callable(value) and (not isinstance(value, type) or constructed):
                inspect.signature(value)  # raises ValueError where there is none
            for member in vars(value).values() if isinstance(value, type) else ():
                if callable(member) and not isinstance(member, type):
                    inspect.signature(member)

    def test_key_errors_as_python_chess_has_them(self):
        self.assertTrue(issubclass(egtb.MissingTableError, KeyError))
        self.assertTrue(issubclass(egtb.OutsideTablesError, KeyError))
        self.assertEqual(str(egtb.OutsideTablesError("castling")), "castling")  # not KeyError's repr


class Repository(unittest.TestCase):
    """`import egtb` where the package is not installed (no site-packages: python -S)."""

    def import_egtb(self, directory):
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        return subprocess.run([sys.executable, "-S", "-c", "import egtb; print(egtb.__path__)"], cwd=directory,
                              env=env, capture_output=True, text=True)

    def test_the_repository_root_is_not_the_package(self):
        result = self.import_egtb(REPOSITORY)
        self.assertNotEqual(result.returncode, 0, result.stdout)
        self.assertIn("ModuleNotFoundError: No module named 'egtb'", result.stderr)

    def test_the_package_sources_say_how_to_build_the_extension(self):
        result = self.import_egtb(os.path.join(REPOSITORY, "python"))
        self.assertNotEqual(result.returncode, 0, result.stdout)
        self.assertIn("ImportError: egtb's extension egtb._egtb is not built", result.stderr)
        self.assertIn("python3 -m pip install", result.stderr)


if __name__ == "__main__":
    unittest.main()
