"""Cells and writers shared by every table export: Markdown, LaTeX, HTML and CSV.

Why: :class:`~tbsg.outputs.tables.StateTable` and :class:`~tbsg.outputs.pivot.Pivot`
print the same kinds of values (exact fractions, floats, tuples of actions, labels) to the
same four formats. This module holds the one definition of how a value becomes the text
of a cell (:class:`Fmt`) and of how a header and rows of cells become a document
(:func:`markdown_table`, :func:`latex_table`, :func:`html_table`, :func:`csv_table`), so
the two kinds of tables cannot drift apart.

Exact values are written in full: ``p/q`` (``p`` when the denominator is 1), ``$p/q$``
or ``$\\frac{p}{q}$`` in LaTeX. Only the notebook views (``Fmt(abbreviate=True)``) and
``repr`` shorten a fraction longer than :data:`REPR_CHARS` characters.
"""

from __future__ import annotations

import csv
import html
import io
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, TypeAlias

__all__ = [
    "REPR_CHARS",
    "Fmt",
    "Kind",
    "Target",
    "abbreviate",
    "csv_table",
    "html_table",
    "latex_escape",
    "latex_table",
    "markdown_table",
    "short",
    "write_text",
]

Target: TypeAlias = Literal["csv", "markdown", "latex", "html"]
"""The format a cell is written for."""

Kind: TypeAlias = Literal["exact", "float", "actions", "other"]
"""What a column holds, which decides how its cells are written."""

REPR_CHARS = 30
"""Longest fraction shown in full by ``repr`` and the notebook views."""


def short(x: object) -> str:
    """A value as ``repr`` shows it: long fractions abbreviated, floats to 6 digits."""
    if isinstance(x, Fraction):
        return abbreviate(x)
    if isinstance(x, float):
        return f"{x:.6g}"
    return repr(x)


def abbreviate(x: Fraction, limit: int = REPR_CHARS) -> str:
    """``str(x)`` when it has at most ``limit`` characters, else a decimal and its size."""
    s = str(x)
    if len(s) <= limit:
        return s
    return f"≈{float(x):.6g} (exact: {len(str(x.denominator))}-digit denominator)"


@dataclass(frozen=True)
class Fmt:
    """How the cells of one export are written.

    Attributes
    ----------
    target : {"csv", "markdown", "latex", "html"}
        The format (decides escaping and how exact values and exponents look).
    digits : int
        Significant digits of decimals.
    fractions : {"slash", "frac"}
        LaTeX only: ``$p/q$`` or ``$\\frac{p}{q}$``.
    exact : bool
        False: show Fractions as decimals (pivots).
    abbreviate : bool
        Notebook views: shorten fractions longer than :data:`REPR_CHARS` characters.
    """

    target: Target
    digits: int = 6
    fractions: Literal["slash", "frac"] = "slash"
    exact: bool = True
    abbreviate: bool = False

    def cell(self, x: object, kind: Kind | None = None) -> str:
        """The text of one cell (``None`` and NaN are empty); ``kind`` defaults to the value's type."""
        if kind is None:
            kind = _kind_of(x)
        if x is None:
            return ""
        if kind == "exact" and isinstance(x, Fraction | int) and not isinstance(x, bool):
            return self.fraction(Fraction(x))
        if kind == "float" or isinstance(x, float):
            y = float(x)  # type: ignore[arg-type]
            if math.isnan(y):
                return ""
            if self.target == "csv":
                return repr(y)
            return self.number(f"{y:.{self.digits}g}")
        if kind == "actions" and isinstance(x, tuple):
            return self.text(", ".join(str(a) for a in x))
        return self.text(str(x))

    def fraction(self, x: Fraction) -> str:
        """An exact value (or its decimal when ``exact`` is False)."""
        if not self.exact:
            return self.number(f"{float(x):.{self.digits}g}")
        if self.abbreviate and len(str(x)) > REPR_CHARS:
            return self.text(abbreviate(x))
        if self.target != "latex":
            return str(x)
        if x.denominator == 1:
            return str(x.numerator) if x >= 0 else f"${x.numerator}$"
        if self.fractions == "frac":
            sign = "-" if x < 0 else ""
            return f"${sign}\\frac{{{abs(x.numerator)}}}{{{x.denominator}}}$"
        return f"${x.numerator}/{x.denominator}$"

    def number(self, s: str) -> str:
        """A formatted decimal; LaTeX puts signs and exponents in math mode."""
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
                  "^": r"\textasciicircum{}"}


def latex_escape(s: str) -> str:
    """``s`` with LaTeX's special characters escaped."""
    return "".join(_LATEX_SPECIAL.get(c, c) for c in s)


def markdown_table(header: Sequence[str], body: Sequence[Sequence[str]], align: Sequence[str]) -> str:
    """A GitHub Markdown table; ``align`` holds ``"l"`` or ``"r"`` per column."""
    lines = ["| " + " | ".join(header) + " |",
             "| " + " | ".join("---:" if a == "r" else ":---" for a in align) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    return "\n".join(lines)


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


def csv_table(header: Sequence[str], body: Sequence[Sequence[str]]) -> str:
    """CSV text (``\\n`` line ends, quoting as the ``csv`` module does)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(body)
    return buf.getvalue()


def write_text(text: str, path: str | os.PathLike[str] | None) -> str:
    """Write ``text`` to ``path`` (UTF-8) when a path is given; return ``text``."""
    if path is not None:
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    return text
