"""Notebook views of solutions: the Markdown and HTML that Jupyter shows for a solution.

A notebook cell that ends with a solution shows its value to player 0 at the initial
state, its size and how it was computed. Exact values longer than ``REPR_CHARS``
characters are shown as a decimal and a digit count (a value of Pig to 100 has about
20,000 digits); only these views shorten, never ``value()``. A game that is not a
win-probability game (rewards per move, payoffs outside [0, 1]) shows its value as the
"expected payoff to player 0".
"""

from __future__ import annotations

import html
from fractions import Fraction
from typing import Protocol

from tbsg._util.digits import REPR_CHARS, abbreviate, decimal_text, fraction_text, text_size
from tbsg.errors import show

__all__ = ["exact_html", "exact_markdown", "float_html", "float_markdown", "html_table"]


class Summary(Protocol):
    """What the views read of a solution."""

    @property
    def initial(self) -> object: ...
    @property
    def n_states(self) -> int: ...
    @property
    def n_components(self) -> int: ...
    @property
    def largest_component(self) -> int: ...
    @property
    def method(self) -> str: ...
    @property
    def seconds(self) -> float: ...
    @property
    def win_probability(self) -> bool: ...


class FloatSummary(Summary, Protocol):
    """What the views read of a float solution, besides :class:`Summary`."""

    @property
    def max_gap(self) -> float: ...
    @property
    def tol(self) -> float: ...
    @property
    def converged(self) -> bool: ...


def html_table(title: str, rows: list[tuple[str, str]]) -> str:
    """A two-column HTML table with a caption (``rows`` are already escaped)."""
    body = "".join(f"<tr><th style='text-align:left'>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return f"<table><caption>{html.escape(title)}</caption>{body}</table>"


def _name(sol: Summary) -> str:
    """What the value is called: "value to player 0", or her "expected payoff"."""
    return "value to player 0" if sol.win_probability else "expected payoff to player 0"


def _size_rows(sol: Summary) -> list[tuple[str, str]]:
    return [("initial state", html.escape(show(sol.initial))),
            ("states / components / largest",
             f"{sol.n_states} / {sol.n_components} / {sol.largest_component}")]


def exact_markdown(sol: Summary, v: Fraction) -> str:
    """Markdown of an exact solution whose value to player 0 at the initial state is ``v``."""
    shown = f"`{fraction_text(v)}` ≈ {decimal_text(v, 15)}" if text_size(v) <= REPR_CHARS \
        else abbreviate(v, REPR_CHARS, 15)
    return (f"**tbsg exact solution** — {_name(sol)}: {shown}  \n"
            f"{sol.n_states} states, {sol.n_components} components (largest "
            f"{sol.largest_component}), {sol.method}, {sol.seconds:.3g} s")


def exact_html(sol: Summary, v: Fraction) -> str:
    """HTML of an exact solution whose value to player 0 at the initial state is ``v``."""
    shown = f"<code>{fraction_text(v)}</code> ≈ {decimal_text(v, 15)}" if text_size(v) <= REPR_CHARS \
        else html.escape(abbreviate(v, REPR_CHARS, 15))
    return html_table("tbsg exact solution", [
        (_name(sol), shown), *_size_rows(sol),
        ("method", html.escape(sol.method)), ("seconds", f"{sol.seconds:.3g}")])


def float_markdown(sol: FloatSummary, lo: float, hi: float) -> str:
    """Markdown of a float solution with proven bounds ``[lo, hi]`` at the initial state."""
    return (f"**tbsg float solution** — {_name(sol)} in [{lo:.15g}, {hi:.15g}] "
            f"(proven bounds)  \n{sol.n_states} states, {sol.n_components} components, "
            f"max gap {sol.max_gap:.2g}, converged: {sol.converged}, {sol.seconds:.3g} s")


def float_html(sol: FloatSummary, lo: float, hi: float) -> str:
    """HTML of a float solution with proven bounds ``[lo, hi]`` at the initial state."""
    return html_table("tbsg float solution (proven bounds)", [
        (_name(sol), f"[{lo:.15g}, {hi:.15g}]"), *_size_rows(sol),
        ("max gap / tolerance / converged", f"{sol.max_gap:.2g} / {sol.tol:.2g} / {sol.converged}"),
        ("method", html.escape(sol.method)), ("seconds", f"{sol.seconds:.3g}")])
