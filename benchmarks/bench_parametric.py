"""Parametric Risk or Safety (P(heads) = p on (0, 1)): time and size of the exact answer.

Part 1, per target ``n``: states, regions, breakpoints, the largest degree of a
breakpoint's minimal polynomial, the value formula's degree and coefficient bits (at the
initial state, largest over the regions), process seconds of ``solve_parametric`` and of
``verify_parametric`` and their ratio (the certificate should cost no more than the
solve), the process's peak resident memory so far, and where the first player's
advantage disappears (the ``p`` at which ``v(p) = 1/2`` on the regions, if any: ``v`` is
the first player's value). Both calls report their progress on standard error once they
take a few seconds.

Part 2, the representation (same run, same machine: ratios are what to read): the
values of one fixed profile (the optimal one at p = 1/2) computed by the same sparse
elimination over (a) :class:`tbsg.parametric.RationalFunction` (FLINT ``fmpq_poly``
pairs), (b) sympy's field ``QQ(p)`` (``QQ.frac_field(p)`` elements), and (c) the dense
system ``(I - P) v = c`` over ``QQ(p)`` with ``DomainMatrix.lu_solve`` (small ``n``
only), each checked equal to (a).

Part 3, root isolation: FLINT (``fmpz_poly.factor`` and Arb's certified
``complex_roots``, what the solver uses) against sympy (``factor_list`` and
``Poly.intervals``, what the certificate check uses) on the advantage numerators of one
profile, with the number of roots each finds in (0, 1).

Usage: python benchmarks/bench_parametric.py [targets...] [--dense-max N]
(default targets 1 2 3 4 5 6; the caches of root isolation are cleared between targets).
"""

from __future__ import annotations

import argparse
import dataclasses
import resource
import time
from fractions import Fraction
from typing import Any

import sympy

import tbsg
from tbsg.games import biased_risk_or_safety
from tbsg.parametric import RationalFunction, solve_parametric, verify_parametric
from tbsg.parametric import algebraic as alg
from tbsg.parametric.algebraic import real_roots
from tbsg.parametric.compile import compile_parametric
from tbsg.parametric.linear import profile_values

P = sympy.Symbol("p")


def advantage_gone(sol: Any) -> list[str]:
    """Roots of v(p) - 1/2 inside each region: where the first player's edge disappears."""
    out = []
    for r in sol.regions:
        n, _ = (r.value() - Fraction(1, 2)).integer_parts()
        if n.degree() < 1:
            continue
        for x in real_roots(n, r.lo, r.hi):
            out.append(x.decimal(9))
    return out


def part1(targets: list[int]) -> None:
    print("n  states regions bps max-minpoly-deg value-deg value-bits solve-s verify-s ratio peak-MB"
          "  v=1/2 at p")
    for n in targets:
        alg._ROOTS.clear()
        t = time.process_time()
        sol = solve_parametric(biased_risk_or_safety(n, P), P)
        ts = time.process_time() - t
        t = time.process_time()
        ok = verify_parametric(sol).ok
        tv = time.process_time() - t
        mp = max((b.at.degree for b in sol.breakpoints), default=0)
        deg = max(r.value().degree() for r in sol.regions)
        bits = max(r.value().coefficient_bits() for r in sol.regions)
        gone = advantage_gone(sol)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{n:<2} {sol.n_states:>6} {len(sol.regions):>7} {len(sol.breakpoints):>3} {mp:>14} "
              f"{deg:>9} {bits:>10} {ts:>7.2f} {tv:>8.2f} {tv / max(ts, 1e-9):5.2f} {peak:7.0f}"
              f"{'' if ok else ' FAILED'}  {', '.join(gone) or '-'}", flush=True)


def _to_field(pc: Any, field: Any) -> Any:
    sym = field.gens[0]

    def conv(rf: RationalFunction) -> Any:
        return field.from_sympy(rf.to_expr(P).subs(P, sym.as_expr()))  # type: ignore[attr-defined]

    return dataclasses.replace(pc, const=[conv(c) for c in pc.const],
                               out_prob=[conv(q) for q in pc.out_prob])


def part2(targets: list[int], dense_max: int) -> None:
    from sympy.polys.domains import QQ
    from sympy.polys.matrices import DomainMatrix

    field = QQ.frac_field(P)
    print("\nn  states  flint-s  sympy-QQ(p)-s ratio  dense-lu-s ratio")
    for n in targets:
        game = biased_risk_or_safety(n, P)
        pc = compile_parametric(game, P, (Fraction(0), Fraction(1)))
        sol = tbsg.solve(pc.at(Fraction(1, 2)))
        choice = [int(sol.action(i)) for i in range(pc.n_states)]
        t = time.process_time()
        ours = profile_values(pc, choice)
        t_flint = time.process_time() - t
        pcs = _to_field(pc, field)
        t = time.process_time()
        theirs = profile_values(pcs, choice)
        t_sympy = time.process_time() - t
        same = all(field.to_sympy(b) == a.to_expr(P) or sympy.simplify(field.to_sympy(b) - a.to_expr(P)) == 0
                   for a, b in zip(ours[:3], theirs[:3], strict=True))
        dense = "-"
        if n <= dense_max:
            m = pc.n_states
            rows = [[field.zero] * m for _ in range(m)]
            rhs = [[field.zero] for _ in range(m)]
            for i, k in enumerate(choice):
                rows[i][i] += field.one
                rhs[i][0] = pcs.const[k]
                for o in range(pc.out_ptr[k], pc.out_ptr[k + 1]):
                    rows[i][pc.out_target[o]] -= pcs.out_prob[o]
            t = time.process_time()
            x = DomainMatrix(rows, (m, m), field).lu_solve(DomainMatrix(rhs, (m, 1), field))
            t_dense = time.process_time() - t
            same = same and field.to_sympy(x.to_Matrix()[0, 0]).equals(ours[0].to_expr(P))
            dense = f"{t_dense:10.3f} {t_dense / max(t_flint, 1e-9):5.0f}x"
        print(f"{n:<2} {pc.n_states:>6} {t_flint:8.3f} {t_sympy:14.3f} {t_sympy / max(t_flint, 1e-9):5.0f}x  "
              f"{dense}{'' if same else '  MISMATCH'}", flush=True)


def part3(targets: list[int]) -> None:
    """Root isolation: FLINT (factor, then Arb's certified complex roots) against sympy
    (factor_list, then Poly.intervals), on every advantage numerator of the optimal
    profile at p = 1/2, roots in (0, 1); same polynomials, same run."""
    from tbsg.parametric.results import advantage as _advantage

    print("\nn  polys max-deg  flint-s  sympy-s ratio  (roots found)")
    for n in targets:
        pc = compile_parametric(biased_risk_or_safety(n, P), P, (Fraction(0), Fraction(1)))
        sol = tbsg.solve(pc.at(Fraction(1, 2)))
        choice = [int(sol.action(i)) for i in range(pc.n_states)]
        values = profile_values(pc, choice)
        polys = []
        for k in range(pc.n_actions):
            d = _advantage(pc, values, k)
            if not d.is_zero() and d.num.degree() >= 1:
                polys.append(d.integer_parts()[0])
        alg._ROOTS.clear()
        t = time.process_time()
        ours = sum(len(real_roots(f, Fraction(0), Fraction(1))) for f in polys)
        t_flint = time.process_time() - t
        t = time.process_time()
        theirs = 0
        for f in polys:
            poly = sympy.Poly([int(c) for c in reversed(f.coeffs())], P)
            for g, _ in sympy.factor_list(poly)[1]:
                # intervals(inf=0, sup=1) is closed: leave out the roots 0 and 1 themselves
                theirs += sum(1 for (lo, hi), _ in g.intervals(inf=0, sup=1)
                              if not (lo == hi and lo in (0, 1)))
        t_sympy = time.process_time() - t
        deg = max((f.degree() for f in polys), default=0)
        ratio = t_sympy / max(t_flint, 1e-9)
        print(f"{n:<2} {len(polys):>5} {deg:>7} {t_flint:8.3f} {t_sympy:8.3f} {ratio:5.1f}x  "
              f"({ours}, {theirs})", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("targets", nargs="*", type=int, default=[1, 2, 3, 4, 5, 6])
    ap.add_argument("--dense-max", type=int, default=4)
    args = ap.parse_args()
    part1(args.targets)
    part2(args.targets, args.dense_max)
    part3(args.targets)


if __name__ == "__main__":
    main()
