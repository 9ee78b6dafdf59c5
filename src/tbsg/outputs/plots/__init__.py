"""Every plot tbsg draws, behind one facade (:mod:`tbsg.plots`).

* :mod:`tbsg.outputs.plots.generic`: heat maps of pivots and margin curves, for any game;
* :mod:`tbsg.outputs.plots.catalog`: the catalog sources' figures, redrawn from solutions;
* :mod:`tbsg.outputs.plots.parametric`: a parametric value as a function of the parameter.

matplotlib is imported when a plot is drawn, never when these modules load.
"""
