"""The engine: from a game object to exact or float values (no user-facing names here).

In pipeline order, each module importing only those before it:
:mod:`~tbsg.engine.compiled` (the array form of a game), :mod:`~tbsg.engine.compile`
(enumeration and validation), :mod:`~tbsg.engine.graph` (components in solving order, end
components, the stopping check), :mod:`~tbsg.engine.bellman` (the Bellman step, its float
filter and rounding bound), then the solvers :mod:`~tbsg.engine.floating` (proven float
bounds), :mod:`~tbsg.engine.exact` (strategy iteration per component) and
:mod:`~tbsg.engine.infinite` (games that need not stop). :mod:`~tbsg.engine._backend`
chooses the exact rational type.
"""
