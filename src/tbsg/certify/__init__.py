"""Trust: re-check a claimed solution from the game alone, and keep solutions as files
that re-check on load.

* :mod:`tbsg.certify.certificate`: :func:`~tbsg.certify.certificate.verify`, an exact
  re-check of a solution against a fresh compile of the game's plain protocol;
* :mod:`tbsg.certify.persist`: :func:`~tbsg.certify.persist.save` and
  :func:`~tbsg.certify.persist.load`, a versioned exact JSON format whose every field is
  checked, and whose certificate is re-verified, on load.

Nothing here trusts a solver: the certificate recomputes what it checks in exact integer
arithmetic (no float; products of long integers in the backend's exact integer type), sharing
with the solvers only definitions, not algorithms: the
compiled graph, its graph analysis, the exact action values and the optimal-action mask
(see :mod:`tbsg.certify.certificate`).
"""
