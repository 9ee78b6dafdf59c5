"""Plots of solved games: the generic views and the sources' figures, in one place.

The public face of the plots (``from tbsg import plots``), like :mod:`tbsg` for the rest,
re-exporting the three modules of :mod:`tbsg.outputs.plots`:

* :func:`heatmap` (a pivot as coloured cells) and :func:`margin_curves` (one curve per
  value of a state variable), for any game (:mod:`tbsg.outputs.plots.generic`);
* every name of :mod:`tbsg.outputs.plots.catalog`: one figure per catalog source,
  redrawn from exact solutions, and figures past the sources (its docstring lists them);
* :func:`plot_parametric` (a parametric solution's value over the parameter and its
  strategy regions, :mod:`tbsg.outputs.plots.parametric`).

Every function returns a :class:`matplotlib.figure.Figure` (a notebook displays it,
``fig.savefig(path)`` writes it; its axes are ``fig.axes``). :func:`heatmap` and
:func:`margin_curves` take ``ax=`` to draw into a panel of a figure of your own, and then
return the figure holding it.

matplotlib is an optional dependency (the ``notebook`` extra, ``pip install
'tbsg[notebook]'``); it is imported when a function is called, so ``import tbsg.plots``
works without it.
"""

from tbsg.outputs.plots import catalog
from tbsg.outputs.plots.catalog import *  # noqa: F403  (its __all__: the catalog's figures)
from tbsg.outputs.plots.generic import heatmap, margin_curves
from tbsg.outputs.plots.parametric import plot_parametric

__all__ = ["heatmap", "margin_curves", "plot_parametric"]
__all__ += catalog.__all__
