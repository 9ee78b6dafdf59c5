"""Plots of solved games: the generic views and the sources' figures, in one place.

The public face of the plots (``from tbsg import plots``), like :mod:`tbsg` for the rest:

* :func:`heatmap` (a pivot as coloured cells) and :func:`margin_curves` (one curve per
  value of a state variable), defined in :mod:`tbsg.outputs.plots.generic` for any game;
* one function per catalog source, each returning a new Figure, defined in
  :mod:`tbsg.outputs.plots.catalog`: :func:`plot_risk_or_safety_table1`,
  :func:`plot_unspeakable_words`, :func:`plot_coinball`, :func:`plot_the_race`,
  :func:`plot_super_six_figure5`, :func:`plot_pig_hold_boundary`; and
  :func:`plot_risk_or_safety_lengths` (game length, past the sources);
* :func:`plot_parametric` (a parametric solution's value over the parameter and its
  strategy regions), defined in :mod:`tbsg.outputs.plots.parametric`.

Every function returns a :class:`matplotlib.figure.Figure` (a notebook displays it,
``fig.savefig(path)`` writes it; its axes are ``fig.axes``). :func:`heatmap` and
:func:`margin_curves` take ``ax=`` to draw into a panel of a figure of your own, and then
return the figure holding it.

matplotlib is an optional dependency (the ``notebook`` extra, ``pip install
'tbsg[notebook]'``); it is imported when a function is called, so ``import tbsg.plots``
works without it.
"""

from tbsg.outputs.plots.catalog import (
    plot_coinball,
    plot_pig_hold_boundary,
    plot_risk_or_safety_lengths,
    plot_risk_or_safety_table1,
    plot_super_six_figure5,
    plot_the_race,
    plot_unspeakable_words,
)
from tbsg.outputs.plots.generic import heatmap, margin_curves
from tbsg.outputs.plots.parametric import plot_parametric

__all__ = [
    "heatmap",
    "margin_curves",
    "plot_coinball",
    "plot_parametric",
    "plot_pig_hold_boundary",
    "plot_risk_or_safety_lengths",
    "plot_risk_or_safety_table1",
    "plot_super_six_figure5",
    "plot_the_race",
    "plot_unspeakable_words",
]
