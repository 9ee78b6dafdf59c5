"""What people read and publish: per-state tables, pivots, their exports, region tables
of parametric solutions, and every plot.

A solution answers questions one state at a time; this layer turns any
:class:`~tbsg.results.Solution`, :class:`~tbsg.results.FloatSolution` or parametric
solution into tables and figures.

* :mod:`tbsg.outputs.tables`: :func:`~tbsg.outputs.tables.state_table`, one
  :class:`~tbsg.outputs.tables.Row` per state, in a
  :class:`~tbsg.outputs.tables.StateTable`;
* :mod:`tbsg.outputs.pivot`: :class:`~tbsg.outputs.pivot.Pivot`, a quantity over two
  variables;
* :mod:`tbsg.outputs.formats`: cell formatting and the Markdown, LaTeX, HTML and CSV
  writers the tables and pivots share;
* :mod:`tbsg.outputs.regions`: a parametric solution's regions, breakpoints and value
  formulas as a table or LaTeX;
* :mod:`tbsg.outputs.graph`: a small game's state graph, with values and optimal
  actions, for networkx (:func:`~tbsg.outputs.graph.to_networkx`) and Graphviz
  (:func:`~tbsg.outputs.graph.to_dot`);
* :mod:`tbsg.outputs.plots`: heat maps and margin curves for any game, the catalog
  sources' figures, and parametric values over the parameter, shown together by the
  facade :mod:`tbsg.plots`.

The tables, pivots and generic plots know no game; only :mod:`tbsg.outputs.plots.catalog`
names catalog games (it redraws their sources' figures), which is why this layer sits
above the catalog.
"""

from tbsg.outputs.graph import to_dot, to_networkx

__all__ = ["to_dot", "to_networkx"]
