"""The engine: from a game object to exact or float values (no user-facing names here).

In pipeline order:

* :mod:`~tbsg.engine.compile` enumerates and validates a game (plain protocol or array
  form) into a :mod:`~tbsg.engine.compiled` game (CSR arrays of actions and outcomes,
  interned rationals); :mod:`~tbsg.engine.fingerprint` hashes it;
* :mod:`~tbsg.engine.graph`: strongly connected components in solving order, end
  components, the stopping check;
* :mod:`~tbsg.engine.bellman`: the Bellman step (action values, segment max/min), its
  float filter and rounding bound; :mod:`~tbsg.engine.adic` values wide acyclic levels in
  integers over one base; :mod:`~tbsg.engine.linalg`: exact sparse elimination over any
  field (the linear systems of every exact solver, the parametric one included);
* :mod:`~tbsg.engine.optimality`: the optimality conditions of exact values and the
  optimal-action mask, one definition for the solvers, the certificate and saved files;
* the solvers: :mod:`~tbsg.engine.floating` (proven float bounds),
  :mod:`~tbsg.engine.exact` (strategy iteration per component),
  :mod:`~tbsg.engine.infinite` (games that need not stop), :mod:`~tbsg.engine.markov`
  (chains of fixed profiles) and :mod:`~tbsg.engine.tiebreak` (the fastest or slowest
  optimal profile among exact ties).

:mod:`~tbsg.engine._backend` chooses the exact rational type (gmpy2 or ``Fraction``) in
one place; no engine type reaches a user.
"""
