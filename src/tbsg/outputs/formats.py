"""Cells and writers shared by every table export: Markdown, LaTeX, HTML and CSV.

Why: :class:`~tbsg.outputs.tables.StateTable` and :class:`~tbsg.outputs.pivot.Pivot`
print the same kinds of values (exact fractions, floats, tuples of actions, labels) to the
same four formats. This module holds the one definition of how a value becomes the text
of a cell (:class:`Fmt`) and of how a header and rows of cells become a document
(:func:`markdown_table`, :func:`latex_table`, :func:`html_table`, :func:`csv_table`), so
the two kinds of tables cannot drift apart.

Exact values are written in full: ``p/q`` (``p`` when the denominator is 1), ``$p/q$``
or ``$\\frac{p}{q}$`` in LaTeX, whatever their size: Python refuses to turn an integer of
more than 4300 digits into text by default, and exact values of long games pass that
easily (Pig to 100 has denominators of about 20,000 digits), so the digit limit is lifted
for each such conversion (:func:`tbsg._util.digits.fraction_text`). Only the notebook views
(``Fmt(abbreviate=True)``) and ``repr`` shorten a number longer than :data:`REPR_CHARS`
characters, to a decimal and a digit count computed without building the text.
"""

from __future__ import annotations

import contextlib
import csv
import html
import io
import itertools
import math
import os
import re
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal
from fractions import Fraction
from typing import Literal, TypeAlias, cast

from tbsg._util.digits import (
    REPR_CHARS,
    abbreviate,
    decimal_text,
    exact_decimal,
    fraction_text,
    text_size,
    unlimited_digits,
)

__all__ = [
    "REPR_CHARS",
    "Fmt",
    "Kind",
    "Target",
    "abbreviate",
    "csv_table",
    "decimal_text",
    "html_table",
    "latex_escape",
    "latex_table",
    "markdown_columns",
    "markdown_table",
    "safe_repr",
    "short",
    "text_size",
    "text_table",
    "write_csv",
    "write_text",
]

Target: TypeAlias = Literal["csv", "markdown", "latex", "html", "text"]
"""The format a cell is written for."""

Kind: TypeAlias = Literal["exact", "float", "lower", "upper", "actions", "other"]
"""What a column holds, which decides how its cells are written (``"lower"`` and
``"upper"``: proven float bounds, whose decimals are rounded down and up)."""


def short(x: object) -> str:
    """A value as the ``repr`` of a row shows it.

    Exact numbers (``Fraction``, ``int``) as ``p/q``, abbreviated past
    :data:`REPR_CHARS` characters (:func:`abbreviate`); floats to 6 significant digits;
    anything else as its ``repr``.
    """
    if isinstance(x, Fraction) or type(x) is int:
        return abbreviate(Fraction(x))
    if isinstance(x, float):
        return f"{x:.6g}"
    return safe_repr(x)


def safe_repr(x: object) -> str:
    """``repr(x)``, also when it holds an integer beyond Python's int-to-str digit limit."""
    try:
        return repr(x)
    except ValueError:  # "Exceeds the limit (4300 digits) for integer string conversion"
        with unlimited_digits():
            return repr(x)


@dataclass(frozen=True)
class Fmt:
    """How the cells of one export are written.

    Attributes
    ----------
    target : {"csv", "markdown", "latex", "html", "text"}
        The format (decides escaping and how exact values and exponents look).
    digits : int
        Significant digits of decimals.
    fractions : {"slash", "frac"}
        LaTeX only: ``$p/q$`` or ``$\\frac{p}{q}$``.
    exact : bool
        False: show Fractions as decimals (pivots).
    abbreviate : bool
        Notebook views: shorten fractions longer than :data:`REPR_CHARS` characters.
    rounded : bool
        With ``exact=False``: decimals correctly rounded from the exact value at any number
        of ``digits`` (:func:`~tbsg._util.digits.exact_decimal`; the decimals-only exports
        of :class:`~tbsg.outputs.tables.StateTable`), not through a float.
    """

    target: Target
    digits: int = 6
    fractions: Literal["slash", "frac"] = "slash"
    exact: bool = True
    abbreviate: bool = False
    rounded: bool = False

    def cell(self, x: object, kind: Kind | None = None) -> str:
        """The text of one cell (``None`` and NaN are empty); ``kind`` defaults to the value's type."""
        if kind is None:
            kind = _kind_of(x)
        if x is None:
            return ""
        if kind == "exact" and isinstance(x, Fraction | int) and not isinstance(x, bool):
            return self.fraction(Fraction(x))
        if kind in ("float", "lower", "upper") or isinstance(x, float):
            y = float(x)  # type: ignore[arg-type]
            if math.isnan(y):
                return ""
            if self.target == "csv":
                return repr(y)
            if kind in ("lower", "upper") and math.isfinite(y):  # a bound stays a bound
                return self.number(exact_decimal(y, self.digits, "down" if kind == "lower" else "up"))
            return self.number(f"{y:.{self.digits}g}")
        if kind == "actions" and isinstance(x, tuple):
            return self.text(", ".join(self.plain(a) for a in x))
        return self.text(self.plain(x))

    def fraction(self, x: Fraction) -> str:
        """An exact value in full, of any size (or its decimal when ``exact`` is False)."""
        if not self.exact:
            decimal = exact_decimal(x, self.digits) if self.rounded else decimal_text(x, self.digits)
            return self.number(decimal)
        if self.abbreviate and text_size(x) > REPR_CHARS:
            return self.text(abbreviate(x))
        s = fraction_text(x)
        return s if self.target != "latex" else self._latex_fraction(s)

    def _latex_fraction(self, s: str) -> str:
        """The LaTeX cell of an exact value written ``p/q`` or ``p`` (``-`` for a negative one)."""
        negative = s.startswith("-")
        if "/" not in s:
            return f"${s}$" if negative else s
        if self.fractions == "frac":
            p, _, q = s.lstrip("-").partition("/")
            return f"${'-' if negative else ''}\\frac{{{p}}}{{{q}}}$"
        return f"${s}$"

    def fraction_cells(self, texts: Sequence[str | None]) -> list[str]:
        """The cells of exact values given as their text ``p/q`` (``None``: empty), as
        :meth:`fraction` writes them in full (``exact`` and not ``abbreviate``)."""
        if self.target != "latex":
            return ["" if t is None else t for t in texts]
        return ["" if t is None else self._latex_fraction(t) for t in texts]

    def decimal_cells(self, texts: Sequence[str | None]) -> list[str]:
        """The cells of exact values given as their decimal text (``None``: empty), as
        :meth:`fraction` writes them when ``exact`` is False and ``rounded``."""
        if self.target != "latex":
            return ["" if t is None else t for t in texts]
        return ["" if t is None else self.number(t) for t in texts]

    def cells(self, xs: Sequence[object], kind: Kind | None = None) -> list[str]:
        """The text of a column of cells, each as :meth:`cell` writes it.

        Floats are written in one pass, and the distinct values of a column of ``int``,
        ``str`` or tuples of them (a state's field, a player, the optimal actions; equal
        values of these types have equal text) are formatted once each when they repeat.
        """
        if kind == "float" and _floats_or_none(xs):
            write = self.float_writer()
            floats = cast(Sequence[float | None], xs)
            if None in floats:
                return ["" if x is None else write(x) for x in floats]
            return list(map(write, cast(Sequence[float], floats)))
        if kind in ("lower", "upper") and self.target != "csv" and all(
                type(x) is float and math.isfinite(x) for x in xs):
            # exact_decimal of each bound, in one decimal context (a bound stays a bound)
            ctx = Context(prec=self.digits, rounding=ROUND_FLOOR if kind == "lower" else ROUND_CEILING,
                          Emin=-(10**9), Emax=10**9)
            return [self.number(str(ctx.plus(Decimal(x))).replace("E", "e")) for x in xs]  # type: ignore[arg-type]
        if kind in ("other", "actions") and _plain_values(xs):
            distinct = set(xs)
            if len(distinct) * 2 <= len(xs):
                memo = {x: self.cell(x, kind) for x in distinct}
                return list(map(memo.__getitem__, xs))
            if kind == "other" and not self.abbreviate:  # cell() is text(str(x)) for these
                try:
                    return list(map(self.text, map(str, xs)))
                except ValueError:  # an int beyond the int-to-str digit limit: cell() writes it
                    pass
        return [self.cell(x, kind) for x in xs]

    def float_writer(self) -> Callable[[float], str]:
        """How :meth:`cells` writes a float of a ``"float"`` column (other than NaN): in
        CSV its ``repr`` (shortest round-trip), elsewhere ``digits`` significant digits."""
        write: Callable[[float], str] = repr if self.target == "csv" else f"{{:.{self.digits}g}}".format
        if self.target == "latex":
            return lambda x: self.number(write(x))
        return write

    def plain(self, x: object) -> str:
        """``str(x)`` of a value that is not written as a number (a label, an action).

        Integers and fractions beyond Python's int-to-str digit limit are written in
        full, or abbreviated past :data:`REPR_CHARS` characters in notebook views.
        """
        if self.abbreviate and (isinstance(x, Fraction) or type(x) is int) \
                and text_size(Fraction(x)) > REPR_CHARS:
            return abbreviate(Fraction(x))
        try:
            return str(x)
        except ValueError:  # "Exceeds the limit (4300 digits) for integer string conversion"
            with unlimited_digits():
                return str(x)

    def number(self, s: str) -> str:
        """A formatted decimal; LaTeX puts signs, exponents and infinities in math mode."""
        if self.target == "latex" and s.lstrip("-") == "inf":
            return f"${s[:-3]}\\infty$"
        if self.target == "latex" and (s.startswith("-") or "e" in s):
            mant, _, exp = s.partition("e")
            return f"${mant}\\times 10^{{{int(exp)}}}$" if exp else f"${s}$"
        return s

    def text(self, s: str) -> str:
        """Plain text, escaped for the target."""
        if self.target == "markdown":
            return s.replace("|", "\\|")
        if self.target == "latex":
            return latex_escape(s)
        if self.target == "html":
            return html.escape(s)
        return s


def _plain_values(xs: Sequence[object]) -> bool:
    """Every value an ``int``, a ``str`` or a tuple of them (not ``bool``, whose equal ``int``
    is written otherwise)."""
    types = set(map(type, xs))
    if tuple in types:
        tuples = xs if len(types) == 1 else [x for x in xs if type(x) is tuple]
        types.discard(tuple)
        types.update(map(type, itertools.chain.from_iterable(tuples)))  # type: ignore[arg-type]
    return types <= {int, str}


def _floats_or_none(xs: Sequence[object]) -> bool:
    """Every value a ``float`` other than NaN, or ``None``."""
    types = set(map(type, xs))
    if not types <= {float, type(None)}:
        return False
    floats = [x for x in xs if x is not None] if type(None) in types else xs
    return not any(map(math.isnan, floats))  # type: ignore[arg-type]


def _kind_of(x: object) -> Kind:
    if isinstance(x, bool):
        return "other"
    if isinstance(x, Fraction | int):
        return "exact"
    if isinstance(x, float):
        return "float"
    if isinstance(x, tuple):
        return "actions"
    return "other"


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}",
                  # the symbols tbsg's own texts use, which pdfLaTeX does not take raw
                  "≈": r"$\approx$", "…": r"\ldots{}", "≤": r"$\leq$", "≥": r"$\geq$",
                  "×": r"$\times$", "−": "$-$"}


def latex_escape(s: str) -> str:
    """``s`` with LaTeX's special characters escaped, and the symbols tbsg's texts use
    (``≈``, ``…``, ``≤``, ``≥``, ``×``, ``−``) as LaTeX commands, so that the text compiles
    with pdfLaTeX's default input encoding too.

    >>> print(latex_escape("6/11 ≈ 0.545 & 50%"))
    6/11 $\\approx$ 0.545 \\& 50\\%
    """
    return "".join(_LATEX_SPECIAL.get(c, c) for c in s)


def markdown_table(header: Sequence[str], body: Sequence[Sequence[str]], align: Sequence[str]) -> str:
    """A GitHub Markdown table; ``align`` holds ``"l"`` or ``"r"`` per column."""
    head = ("| " + " | ".join(header) + " |\n| "
            + " | ".join("---:" if a == "r" else ":---" for a in align) + " |")
    if not body:
        return head
    # one pass over the rows' text (a large table's is hundreds of megabytes)
    return "".join([head, "\n| ", " |\n| ".join(map(" | ".join, body)), " |"])


def markdown_columns(header: Sequence[str], columns: Sequence[Sequence[str]], align: Sequence[str]) -> str:
    """:func:`markdown_table` of a body given as its columns of cells (at least one column,
    all of one length): the same text, written with one join of the cells and separators
    (no string per row: the text of a large table is hundreds of megabytes, and every
    copy of it counts).

    >>> print(markdown_columns(["a", "b"], [["1", "2"], ["x", "y"]], ["r", "l"]))
    | a | b |
    | ---: | :--- |
    | 1 | x |
    | 2 | y |
    """
    n = len(columns[0])
    if not n:
        return markdown_table(header, [], align)
    stride = 2 * len(columns)
    parts = [" | "] * (n * stride)
    parts[::stride] = [" |\n| "] * n
    parts[0] = markdown_table(header, [], align) + "\n| "
    for j, column in enumerate(columns):
        parts[2 * j + 1::stride] = column
    parts.append(" |")
    return "".join(parts)


def latex_table(header_lines: Sequence[str], body: Sequence[Sequence[str]], align: str,
                caption: str | None, label: str | None) -> str:
    """A booktabs ``tabular``, wrapped in a ``table`` environment with a caption or label."""
    lines = [f"\\begin{{tabular}}{{{align}}}", "\\toprule", *header_lines, "\\midrule"]
    lines += [" & ".join(r) + " \\\\" for r in body]
    lines += ["\\bottomrule", "\\end{tabular}"]
    if caption is None and label is None:
        return "\n".join(lines)
    env = ["\\begin{table}", "\\centering"]
    if caption is not None:
        env.append(f"\\caption{{{latex_escape(caption)}}}")
    if label is not None:
        env.append(f"\\label{{{label}}}")
    return "\n".join([*env, *lines, "\\end{table}"])


def html_table(header: Sequence[str], body: Sequence[Sequence[str]], caption: str | None,
               row_header: bool = False) -> str:
    """An HTML table of escaped cells; ``row_header`` makes each row's first cell a ``<th>``."""
    out = ["<table>"]
    if caption:
        out.append(f"<caption>{html.escape(caption)}</caption>")
    out.append("<thead><tr>" + "".join(f"<th>{h}</th>" for h in header) + "</tr></thead>")
    out.append("<tbody>")
    for r in body:
        if row_header and r:
            out.append(f"<tr><th>{r[0]}</th>" + "".join(f"<td>{c}</td>" for c in r[1:]) + "</tr>")
        else:
            out.append("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def text_table(header: Sequence[str], body: Sequence[Sequence[str]], align: Sequence[str]) -> str:
    """Plain text in aligned columns under a ruled header (for a terminal); ``align`` holds
    ``"l"`` or ``"r"`` per column.

    >>> print(text_table(["state", "value"], [["(0, 1)", "4/7"], ["(1, 10)", "1"]], ["l", "r"]))
    state    value
    -------  -----
    (0, 1)     4/7
    (1, 10)      1
    """
    widths = [max([len(h), *(len(r[i]) for r in body if i < len(r))]) for i, h in enumerate(header)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if a == "r" else c.ljust(w)
                         for c, w, a in zip(cells, widths, align, strict=False)).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *map(line, body)])


def csv_table(header: Sequence[str], body: Sequence[Sequence[str]]) -> str:
    """CSV text (``\\n`` line ends, quoting as the ``csv`` module does)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(body)
    return buf.getvalue()


_CSV_PLAIN = re.compile(r"[A-Za-z0-9 _./+\-()\[\]:;'=<>*&%$#@!?~^{}|]*")
"""Text the ``csv`` module writes as it is (no delimiter, quote or line break)."""

_CSV_COMMAS = re.compile(r"[A-Za-z0-9 _./+\-()\[\]:;'=<>*&%$#@!?~^{}|,]*")
"""Text of :data:`_CSV_PLAIN` characters and commas: the ``csv`` module writes such a cell
between quotes where it holds a comma (no quote inside to double), else as it is."""


def _csv_fields(cells: Sequence[str], alone: bool) -> list[str]:
    """Each of ``cells`` as the ``csv`` module writes it in a row of several fields (or,
    ``alone``, of one field: an empty one is quoted then): one writer writes them all, as
    rows ``[cell, ""]`` (``[cell]``), and each row's text is cut out at the lengths
    ``writerow`` returns, less its ending (``,`` and ``\n``, or ``\n``)."""
    buf = io.StringIO()
    writerow = csv.writer(buf, lineterminator="\n").writerow
    lengths = [writerow([c] if alone else [c, ""]) for c in cells]
    text, end, cut = buf.getvalue(), 0, 1 if alone else 2
    out: list[str] = []
    for n in lengths:
        out.append(text[end:end + n - cut])
        end += n
    return out


def _csv_column(cells: Sequence[str], alone: bool, plain: bool = False) -> Sequence[str]:
    """A column of cells as the ``csv`` module writes them, each distinct text checked once
    (``plain``: every cell is known to be plain text, :data:`_CSV_PLAIN`, so none is checked)."""
    if not (alone and "" in cells):  # (a lone empty field is quoted)
        if plain:
            return cells
        text = "".join(cells)
        if _CSV_PLAIN.fullmatch(text):
            return cells
        if _CSV_COMMAS.fullmatch(text):  # such as tuple states
            return [f'"{c}"' if "," in c else c for c in cells]
    fullmatch, distinct = _CSV_PLAIN.fullmatch, set(cells)
    memo = {c: c for c in distinct if c and fullmatch(c)}
    quoted = [c for c in distinct if c not in memo]
    memo.update(zip(quoted, _csv_fields(quoted, alone), strict=True))
    return list(map(memo.__getitem__, cells))


def _csv_rows(fields: Sequence[Sequence[str]]) -> str:
    """Rows of the given columns of written fields (at least one column, each row ended by
    ``\n``), written with one join of the fields and separators."""
    n, width = len(fields[0]), 2 * len(fields)
    parts = [","] * (n * width)
    parts[width - 1::width] = ["\n"] * n
    for j, column in enumerate(fields):
        parts[2 * j::width] = column
    return "".join(parts)


def write_csv(header: Sequence[str], chunks: Iterable[Sequence[tuple[Sequence[str], bool]]],
              path: str | os.PathLike[str] | None) -> str:
    """CSV text of ``header`` and rows given as chunks of columns (the text :func:`csv_table`
    writes), written to ``path`` (UTF-8) chunk by chunk as they come when a path is given;
    return the text. Each column comes as ``(cells, plain)``: with ``plain`` true its cells
    are known to need no quoting (the text of numbers), and are not checked.

    The chunks are written by one thread of their own, in order, at most two waiting
    (:class:`_ChunkWriter`), and all are written before the text is returned: the system's
    copy of a chunk into the file, which releases the interpreter, runs while the next
    chunk is formatted and the text joined. An error of the file's is raised by the next
    chunk's write or at the end, and no chunk is written after it.

    >>> print(write_csv(["a", "b"], [[(["1", "x, y"], False), (["2", ""], True)]], None), end="")
    a,b
    1,2
    "x, y",
    """
    parts = [csv_table(header, [])]
    with contextlib.ExitStack() as stack:
        # binary: the UTF-8 bytes of each chunk written as they are (a text file would copy
        # them once more on the way)
        writer: _ChunkWriter | None = None
        if path is not None:
            writer = stack.enter_context(_ChunkWriter(stack.enter_context(open(path, "wb"))))
            writer.write(parts[0].encode("utf-8"))
        for columns in chunks:
            if not columns or not columns[0][0]:
                continue
            alone = len(columns) == 1
            parts.append(_csv_rows([_csv_column(cells, alone, plain) for cells, plain in columns]))
            if writer is not None:
                writer.write(parts[-1].encode("utf-8"))
        text = "".join(parts)
        if writer is not None:
            writer.finish()
    return text


class _ChunkWriter:
    """Byte chunks written to an open file by a thread of its own, in order, at most two
    waiting; written in the caller's thread where no thread can be started (at interpreter
    shutdown). The first error of the file's stops the writing: the chunks still waiting
    are dropped, and the error is raised by the next :meth:`write` or by :meth:`finish`.
    Leaving the ``with`` block (normally or by an error) stops the thread."""

    def __init__(self, f: io.BufferedWriter) -> None:
        self._f = f
        self._pool: ThreadPoolExecutor | None = ThreadPoolExecutor(1, thread_name_prefix="tbsg-csv-writer")
        self._pending: list[Future[None]] = []
        self._failed = False

    def _write(self, data: bytes) -> None:
        if self._failed:  # (a chunk that waited behind the failed one)
            return
        try:
            self._f.write(data)
        except BaseException:
            self._failed = True
            raise

    def write(self, data: bytes) -> None:
        if self._pool is not None:
            try:
                self._pending.append(self._pool.submit(self._write, data))
            except RuntimeError:  # "cannot schedule new futures after interpreter shutdown"
                self._stop()
            else:
                if len(self._pending) > 2:  # at most two chunks' bytes waiting
                    self._pending.pop(0).result()
                return
        self._raise()
        self._write(data)

    def _raise(self) -> None:
        for done in self._pending:
            done.result()  # (the first error of the file's is raised here)
        self._pending.clear()

    def _stop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def finish(self) -> None:
        """Wait until every chunk is written; raise the file's error, if any."""
        self._stop()
        self._raise()

    def __enter__(self) -> _ChunkWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self._failed = self._failed or exc[0] is not None  # (an error of the caller's: stop)
        self._stop()


def write_text(text: str, path: str | os.PathLike[str] | None) -> str:
    """Write ``text`` to ``path`` (UTF-8) when a path is given; return ``text``."""
    if path is not None:
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    return text
