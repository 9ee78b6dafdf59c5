"""Pivots: one quantity over two variables, as a grid of cells, and its exports.

Why: papers print a strategy or a value as a grid ("rows: points I need, columns: points
the opponent needs, cell: coins to toss"). A :class:`Pivot` is such a grid, built from a
state table (:meth:`tbsg.outputs.tables.StateTable.pivot`) or from any
``{(row, column): value}`` mapping (:meth:`Pivot.from_dict`), and exported to Markdown,
LaTeX (booktabs), CSV, HTML and pandas with exact values kept exact (the cell formats are
those of :mod:`tbsg.outputs.formats`).

pandas is an optional dependency (the ``notebook`` extra): it is imported only by
:meth:`Pivot.to_pandas`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from tbsg._util.optional import optional_import
from tbsg.outputs.formats import (
    Fmt,
    csv_table,
    html_table,
    latex_escape,
    latex_table,
    markdown_table,
    safe_repr,
    write_text,
)

__all__ = ["Pivot", "ordered_labels"]


def ordered_labels(labels: Iterable[Hashable], sort: bool = True) -> tuple[Hashable, ...]:
    """Distinct ``labels``, sorted if ``sort`` and they compare, else in first-seen order."""
    seen = tuple(dict.fromkeys(labels))
    if sort:
        try:
            return tuple(sorted(seen))  # type: ignore[type-var]
        except TypeError:
            pass
    return seen


@dataclass(frozen=True, repr=False)
class Pivot:
    """A grid of values: ``cells[i][j]`` belongs to ``row_labels[i]`` and ``col_labels[j]``.

    Built by :meth:`~tbsg.outputs.tables.StateTable.pivot` or :meth:`Pivot.from_dict`;
    empty cells are ``None``. Read cells with ``pivot[row, column]``.

    Attributes
    ----------
    row_labels, col_labels : tuple
        Labels down and across.
    cells : tuple of tuple
        The values, row by row.
    row_name, col_name : str
        What the rows and columns are (e.g. ``"I need"``, ``"opponent needs"``).
    name : str
        What the cells are (e.g. ``"coins"``).

    Examples
    --------
    >>> from fractions import Fraction
    >>> p = Pivot.from_dict({(1, "a"): Fraction(1, 3), (2, "b"): 5}, row_name="n",
    ...                     col_name="letter", name="x")
    >>> p[1, "a"], p[1, "b"], p.shape
    (Fraction(1, 3), None, (2, 2))
    >>> print(p.to_latex())
    \\begin{tabular}{rrr}
    \\toprule
     & \\multicolumn{2}{c}{letter} \\\\
    \\cmidrule(l){2-3}
    n & a & b \\\\
    \\midrule
    1 & $1/3$ &  \\\\
    2 &  & 5 \\\\
    \\bottomrule
    \\end{tabular}
    """

    row_labels: tuple[Hashable, ...]
    col_labels: tuple[Hashable, ...]
    cells: tuple[tuple[Any, ...], ...]
    row_name: str = "row"
    col_name: str = "column"
    name: str = "cell"
    _pos: dict[tuple[Hashable, Hashable], tuple[int, int]] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if len(self.cells) != len(self.row_labels) or any(
                len(r) != len(self.col_labels) for r in self.cells):
            raise ValueError(f"cells must be {len(self.row_labels)} rows of "
                             f"{len(self.col_labels)} values")
        self._pos.update({(r, c): (i, j) for i, r in enumerate(self.row_labels)
                          for j, c in enumerate(self.col_labels)})

    @classmethod
    def from_dict(cls, cells: Mapping[tuple[Any, Any], Any], *, row_name: str = "row",
                  col_name: str = "column", name: str = "cell",
                  rows: Sequence[Hashable] | None = None, columns: Sequence[Hashable] | None = None,
                  sort: bool = True) -> Pivot:
        """A pivot from ``{(row label, column label): value}``, e.g. a catalog table.

        ``rows`` and ``columns`` fix the labels and their order (default: every label
        present, sorted if ``sort``); cells missing from ``cells`` are ``None``.

        >>> from tbsg.games import risk_or_safety_coin_table
        >>> p = Pivot.from_dict(risk_or_safety_coin_table(4), row_name="I need",
        ...                     col_name="opponent needs", name="coins")
        >>> p.row_labels, p.cells[0]
        ((2, 3, 4), (2, 2, 1))
        """
        rlabels = tuple(rows) if rows is not None else ordered_labels((k[0] for k in cells), sort)
        clabels = tuple(columns) if columns is not None else ordered_labels((k[1] for k in cells), sort)
        grid = tuple(tuple(cells.get((r, c)) for c in clabels) for r in rlabels)
        return cls(rlabels, clabels, grid, row_name, col_name, name)

    @property
    def shape(self) -> tuple[int, int]:
        """``(number of rows, number of columns)``."""
        return len(self.row_labels), len(self.col_labels)

    def __getitem__(self, key: tuple[Hashable, Hashable]) -> Any:
        try:
            i, j = self._pos[key]
        except KeyError:
            raise KeyError(f"{safe_repr(key)} is not a (row, column) label pair of this pivot; "
                           f"rows {safe_repr(self.row_labels)}, columns {safe_repr(self.col_labels)}"
                           ) from None
        return self.cells[i][j]

    def to_dict(self) -> dict[tuple[Hashable, Hashable], Any]:
        """``{(row label, column label): value}`` for every non-empty cell."""
        return {(r, c): v for r, row in zip(self.row_labels, self.cells, strict=True)
                for c, v in zip(self.col_labels, row, strict=True) if v is not None}

    def transpose(self) -> Pivot:
        """Rows and columns swapped."""
        return Pivot(self.col_labels, self.row_labels, tuple(zip(*self.cells, strict=True))
                     if self.row_labels else tuple(() for _ in self.col_labels),
                     self.col_name, self.row_name, self.name)

    def map(self, fn: Callable[[Any], Any], name: str | None = None) -> Pivot:
        """``fn`` applied to every non-empty cell (e.g. ``float``), as a new pivot."""
        cells = tuple(tuple(None if v is None else fn(v) for v in row) for row in self.cells)
        return Pivot(self.row_labels, self.col_labels, cells, self.row_name, self.col_name,
                     self.name if name is None else name)

    # --- exports -------------------------------------------------------------------------

    def _corner(self) -> str:
        return f"{self.row_name} \\ {self.col_name}"

    def _grid(self, fmt: Fmt) -> list[list[str]]:
        return [[fmt.cell(r), *(fmt.cell(v) for v in row)]
                for r, row in zip(self.row_labels, self.cells, strict=True)]

    def to_csv(self, path: str | os.PathLike[str] | None = None) -> str:
        """CSV: a header of column labels (corner: ``"rows \\ columns"``), then one line per
        row label; exact values as ``p/q``, empty cells empty."""
        fmt = Fmt("csv")
        return write_text(csv_table([self._corner(), *(fmt.cell(c) for c in self.col_labels)],
                                    self._grid(fmt)), path)

    def to_markdown(self, *, exact: bool = True, digits: int = 6) -> str:
        """A Markdown table; ``exact=False`` shows Fractions as decimals (``digits`` digits)."""
        fmt = Fmt("markdown", digits=digits, exact=exact)
        return self._markdown(fmt)

    def _markdown(self, fmt: Fmt) -> str:
        header = [fmt.text(self._corner()), *(fmt.cell(c) for c in self.col_labels)]
        return markdown_table(header, self._grid(fmt), ["r"] * len(header))

    def to_latex(self, *, exact: bool = True, digits: int = 6,
                 fractions: Literal["slash", "frac"] = "slash", caption: str | None = None,
                 label: str | None = None) -> str:
        """A booktabs ``tabular``: a spanning column title, the column labels, the rows.

        Exact values are ``$p/q$`` (``fractions="frac"``: ``$\\frac{p}{q}$``);
        ``exact=False`` shows decimals. Needs ``\\usepackage{booktabs}``.
        """
        fmt = Fmt("latex", digits=digits, fractions=fractions, exact=exact)
        m = len(self.col_labels)
        head = [f" & \\multicolumn{{{m}}}{{c}}{{{latex_escape(self.col_name)}}} \\\\",
                f"\\cmidrule(l){{2-{m + 1}}}",
                " & ".join([latex_escape(self.row_name), *(fmt.cell(c) for c in self.col_labels)])
                + " \\\\"]
        return latex_table(head, self._grid(fmt), "r" * (m + 1), caption, label)

    def to_html(self, *, exact: bool = True, digits: int = 6) -> str:
        """An HTML table with row labels as row headers."""
        return self._html(Fmt("html", digits=digits, exact=exact))

    def _html(self, fmt: Fmt) -> str:
        header = [fmt.text(self._corner()), *(fmt.cell(c) for c in self.col_labels)]
        return html_table(header, self._grid(fmt), self.name, row_header=True)

    def to_pandas(self) -> Any:
        """A pandas DataFrame indexed by the row labels (needs ``pip install 'tbsg[notebook]'``).

        Cells keep their Python objects (Fractions stay exact, dtype ``object``).
        """
        pd = optional_import("pandas", "Pivot.to_pandas")
        df = pd.DataFrame([list(r) for r in self.cells],
                          index=pd.Index(list(self.row_labels), name=self.row_name),
                          columns=pd.Index(list(self.col_labels), name=self.col_name))
        return df

    def __repr__(self) -> str:
        return (f"<Pivot {self.name!r}: {len(self.row_labels)} rows ({self.row_name}) x "
                f"{len(self.col_labels)} columns ({self.col_name})>")

    def _repr_markdown_(self) -> str:
        return self._markdown(Fmt("markdown", abbreviate=True))

    def _repr_html_(self) -> str:
        return self._html(Fmt("html", abbreviate=True))
