"""Endgame tables for Lasker chess: probing, generation, statistics and CQL queries.

A thin adapter over egtb's application layer (the C++ extension ``egtb._egtb``); this file holds
only what is easier written in Python: the exception classes and the record type of results.

    import egtb
    with egtb.open_tablebase("tables") as tb:
        tb.probe_lasker("8/8/8/8/8/1N6/8/1k1K4 w - - 0 1")   # 3: White forces stalemate
        tb.probe_dts(board)                                  # 27 (any object with a fen() method)
        result = tb.probe(board)                             # value, depths, every move, the line

Values (``lasker``) are from the side to move: 4 forces mate, 3 forces stalemate of the opponent,
2 draw, 1 is stalemated, 0 is mated. Depths are plies: ``dtm`` for 4 and 0, ``dts`` for 3 and 1,
None otherwise. Under the other rule sets (``rules="stalemate-wins"`` or ``"stalemate-passes"`` of
open_tablebase, generate, stats, query, count) values are ``value`` (WIN 4, DRAW 2, LOSS 0) with
``category`` (win, draw, loss) and the depth ``dte`` (plies to the first mate or stalemate) or
``dtm``; ``probe_value`` and ``probe_depth`` read the tables of any rules. Results are Records: the JSON objects of ``egtb probe --json``, ``egtb stats
--format json`` and ``egtb query --json`` as dicts (same keys, same order), whose keys also read
as attributes.

Errors: a malformed FEN, signature or keyword raises ValueError; a position the tables cannot
answer a KeyError, as python-chess's tablebases do: MissingTableError (its table is not in the
directories) or OutsideTablesError (no table holds it: castling rights, too many men).
"""

import typing


class MissingTableError(KeyError):
    """No table for a position's material (or a named signature) in the directories.

    ``table`` is the canonical signature ("KRkn"); the message names the command that builds it.
    A KeyError, as in python-chess's tablebase modules.
    """

    def __init__(self, message: str, table: str = "") -> None:
        super().__init__(message)
        self.table = table

    def __str__(self) -> str:
        return str(self.args[0])


class OutsideTablesError(KeyError):
    """No table can hold the position: it has castling rights or more men than any table.

    A KeyError, as python-chess's tablebases raise for such positions; ``get`` and the ``get_*``
    methods return their default instead.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)

    def __str__(self) -> str:
        return str(self.args[0])


class TableError(Exception):
    """A damaged, unreadable or incompatible table file; ``path`` names it."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.path = path


class Record(dict):  # type: ignore[type-arg]
    """A JSON object of the application layer as a dict whose keys also read as attributes."""

    __slots__ = ()

    def __getattr__(self, name: str) -> typing.Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class ProbeResult(Record):
    """What ``Tablebase.probe`` returns: the keys of ``egtb probe --json`` (fen, category, lasker,
    dtm, dts, checkmate, stalemate, insufficient_material, signed_dtm, signed_dts, side_to_move,
    fullmove_number, men, moves, pv), and two attributes: ``line``, the optimal line
    with the values after each move (uci, san, fen, category, lasker, dtm, dts, signed_dtm,
    signed_dts), and ``final``,
    its last position (fen, checkmate, stalemate, insufficient_material)."""

    __slots__ = ("line", "final")
    line: Record
    final: Record


try:
    import egtb._egtb  # noqa: F401  (the extension needs the classes above)
except ModuleNotFoundError as missing:
    if missing.name != "egtb._egtb":
        raise
    raise ImportError(
        f"egtb's extension egtb._egtb is not built beside {__file__}: install the package with "
        "`python3 -m pip install .` in the egtb repository (docs/python.md), or build it with "
        "`cmake --build build --target egtb_python` and import it from build/python"
    ) from None

from egtb._egtb import (  # noqa: E402
    MATED,
    STALEMATED,
    DRAW,
    STALEMATES,
    MATES,
    WIN,
    LOSS,
    RULES,
    Tablebase,
    QueryIterator,
    open_tablebase,
    generate,
    stats,
    query,
    count,
    random_positions,
    write_value_files,
    __version__,
)

__all__ = [
    "MATED", "STALEMATED", "DRAW", "STALEMATES", "MATES", "WIN", "LOSS", "RULES",
    "MissingTableError", "OutsideTablesError", "TableError", "Record", "ProbeResult",
    "Tablebase", "QueryIterator", "open_tablebase", "generate", "stats", "query", "count",
    "random_positions", "write_value_files", "__version__",
]
