"""The outputs layer: per-state tables, pivots, their exports, and generic plots.

Why: a solution answers questions one state at a time; this layer turns any
:class:`~tbsg.results.Solution` or :class:`~tbsg.results.FloatSolution` into what people
read and publish, without knowing which game it came from.

* :mod:`tbsg.outputs.tables`: :func:`~tbsg.outputs.tables.state_table`, one
  :class:`~tbsg.outputs.tables.Row` per state, in a
  :class:`~tbsg.outputs.tables.StateTable`;
* :mod:`tbsg.outputs.pivot`: :class:`~tbsg.outputs.pivot.Pivot`, a quantity over two
  variables;
* :mod:`tbsg.outputs.formats`: cell formatting and the Markdown, LaTeX, HTML and CSV
  writers both share;
* :mod:`tbsg.outputs.plots.generic`: heat maps of pivots and margin curves (matplotlib);
* :mod:`tbsg.certify.persist`: exact solutions saved as checked JSON files.

Layering (issue 11): these modules import only the layers below (``tbsg.results``,
``tbsg.engine``, ``tbsg.model.protocol``) and shared private helpers (``tbsg._util.digits``), never a
catalog game, ``tbsg.games.registry``, the sources, ``tbsg.sources.reproduce``, ``tbsg.cli`` or the
names of ``tbsg/__init__`` (``tests/test_layers.py`` checks the imports of the package).
The sources' own figures live in the catalog (:mod:`tbsg.outputs.plots.catalog`);
:mod:`tbsg.plots` shows both.
"""
