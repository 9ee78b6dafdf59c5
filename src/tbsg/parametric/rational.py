"""Exact rational functions of one parameter: the numbers of a parametric game.

A value of a parametric game under a fixed strategy profile is a rational function
``f(p) = n(p) / d(p)`` with rational coefficients: the solution of a linear system whose
entries are rational functions (Cramer's rule). :class:`RationalFunction` keeps ``f`` in
*canonical form*: ``gcd(n, d) = 1`` and ``d`` monic, so two equal functions have equal
representations and ``==`` is exact equality of functions.

Representation and why
----------------------
Numerator and denominator are python-flint ``fmpq_poly`` (FLINT's dense polynomials over
Q, in C). Each operation is the textbook one followed by a gcd to keep the canonical
form, e.g. ``a/b + c/d = (ad + bc) / bd`` reduced. Measured on the elimination of
Risk or Safety's fixed-profile systems (``benchmarks/bench_parametric.py``, which
repeats the measurement; targets 2 to 5, 12 to 150 states): the same sparse elimination
run on sympy's field of rational functions ``QQ(p)`` (``DomainMatrix``'s elements, pure
Python polynomials with gmpy2 coefficients) is 8 to 23 times slower, and the dense
system over ``QQ(p)`` solved by sympy's ``DomainMatrix.lu_solve`` 12 to 120 times
slower (the ratio grows with the size). Evaluating a profile takes milliseconds this
way, a small part of a parametric solve (root isolation and the numeric solves dominate),
so fraction-free elimination (no gcds, but degrees that grow with every step) was not
pursued. sympy is used only at the
boundary: to read a user's expression (:meth:`RationalFunction.from_expr`) and to print
formulas (:meth:`RationalFunction.to_expr`, LaTeX).

Examples
--------
>>> from fractions import Fraction
>>> p = RationalFunction.variable()
>>> f = (1 - p) / (1 - p * p)
>>> f, f(Fraction(1, 3))
(RationalFunction('1/(p + 1)'), Fraction(3, 4))
>>> f == 1 / (p + 1)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from flint import fmpq, fmpq_poly, fmpz_poly

from tbsg.errors import ExactnessError, InvalidGameError, show

if TYPE_CHECKING:
    import sympy

__all__ = ["RationalFunction", "poly_fraction_eval", "sum_of_products", "to_fmpq"]

def to_fmpq(x: Fraction | int) -> fmpq:
    """A Fraction or int as a FLINT rational (exactly)."""
    if isinstance(x, Fraction):
        return fmpq(x.numerator, x.denominator)
    return fmpq(x)


def _fraction(x: fmpq) -> Fraction:
    return Fraction(int(x.p), int(x.q))


def poly_fraction_eval(poly: fmpq_poly | fmpz_poly, x: Fraction) -> Fraction:
    """``poly(x)`` exactly, as a Fraction."""
    return _fraction(fmpq(poly(to_fmpq(x))))


class RationalFunction:
    """A rational function of one variable over Q, in canonical form (immutable).

    Build one from numbers and :meth:`variable` with ``+ - * /`` and ``**``, or read a
    sympy expression with :meth:`from_expr`. Calling it at a Fraction evaluates it exactly.
    """

    __slots__ = ("_hash", "den", "num")

    num: fmpq_poly
    den: fmpq_poly

    def __init__(self, num: fmpq_poly, den: fmpq_poly | None = None) -> None:
        if den is None:
            self.num, self.den = num, _ONE_POLY
            return
        if den.is_zero():
            raise ZeroDivisionError("rational function with zero denominator")
        if num.is_zero():
            self.num, self.den = num, _ONE_POLY
            return
        if den.degree() > 0:
            g = num.gcd(den)
            if not g.is_one():
                num, den = num // g, den // g
        lead = den.coeffs()[-1]
        if lead != 1:
            num, den = num / lead, den / lead
        self.num, self.den = num, den

    @classmethod
    def _raw(cls, num: fmpq_poly, den: fmpq_poly) -> RationalFunction:
        out = cls.__new__(cls)
        out.num, out.den = num, den
        return out

    @classmethod
    def variable(cls) -> RationalFunction:
        """The parameter ``p`` itself."""
        return cls(fmpq_poly([0, 1]))

    @classmethod
    def constant(cls, x: Fraction | int) -> RationalFunction:
        """A constant function."""
        return cls(fmpq_poly([to_fmpq(x)]))

    @classmethod
    def coerce(cls, x: object) -> RationalFunction:
        """``x`` if a RationalFunction, a constant for an int or Fraction, else an error."""
        if isinstance(x, RationalFunction):
            return x
        if isinstance(x, (int, Fraction)) and not isinstance(x, bool):
            return cls.constant(x)
        raise ExactnessError(f"expected a rational function, int or Fraction, got {show(x)}")

    @classmethod
    def from_expr(cls, expr: object, symbol: sympy.Symbol, what: str) -> RationalFunction:
        """Read a sympy expression (or an int or Fraction) that is a rational function of ``symbol``.

        Floats anywhere in the expression are an :class:`~tbsg.errors.ExactnessError`;
        other symbols, or functions such as ``sqrt(p)``, an
        :class:`~tbsg.errors.InvalidGameError` naming ``what``.

        >>> import sympy
        >>> p = sympy.Symbol("p")
        >>> RationalFunction.from_expr((1 - p) ** 2 / 2, p, "a probability")
        RationalFunction('1/2*p^2 - p + 1/2')
        >>> RationalFunction.from_expr(p + 0.5, p, "a probability")
        Traceback (most recent call last):
        ...
        tbsg.errors.ExactnessError: a probability must be exact, got p + 0.5 which holds the float \
0.500000000000000 (write it with sympy.Rational or fractions.Fraction)
        """
        if isinstance(expr, (int, Fraction)) and not isinstance(expr, bool):
            return cls.constant(expr)
        if isinstance(expr, RationalFunction):
            return expr
        import sympy

        if isinstance(expr, (float, bool)) or not isinstance(expr, sympy.Basic):
            raise ExactnessError(
                f"{what} must be an int, Fraction or sympy expression in {symbol}, got {show(expr)}")
        e: Any = expr
        floats = e.atoms(sympy.Float)
        if floats:
            raise ExactnessError(
                f"{what} must be exact, got {expr} which holds the float {next(iter(floats))} "
                "(write it with sympy.Rational or fractions.Fraction)")
        others = e.free_symbols - {symbol}
        if others:
            names = ", ".join(sorted(str(s) for s in others))
            raise InvalidGameError(
                f"{what} may depend only on the parameter {symbol}, got {expr} (also in {names})")
        num, den = sympy.fraction(sympy.cancel(sympy.together(expr)))
        try:
            pn = sympy.Poly(num, symbol, domain="QQ")
            pd = sympy.Poly(den, symbol, domain="QQ")
        except (sympy.PolynomialError, sympy.polys.polyerrors.CoercionFailed) as exc:
            # CoercionFailed: an irrational coefficient such as sqrt(2) or pi
            raise InvalidGameError(
                f"{what} must be a rational function of {symbol} with rational coefficients, "
                f"got {expr}") from exc
        return cls(_from_sympy_poly(pn), _from_sympy_poly(pd))

    # -- arithmetic -----------------------------------------------------------------------
    def __add__(self, other: object) -> RationalFunction:
        o = _as_rf(other)
        if o is None:
            return NotImplemented
        if o.num.is_zero():
            return self
        if self.num.is_zero():
            return o
        if self.den == o.den:
            return RationalFunction(self.num + o.num, self.den)
        return RationalFunction(self.num * o.den + o.num * self.den, self.den * o.den)

    __radd__ = __add__

    def __neg__(self) -> RationalFunction:
        return RationalFunction._raw(-self.num, self.den)

    def __sub__(self, other: object) -> RationalFunction:
        o = _as_rf(other)
        if o is None:
            return NotImplemented
        return self + (-o)

    def __rsub__(self, other: object) -> RationalFunction:
        o = _as_rf(other)
        if o is None:
            return NotImplemented
        return o + (-self)

    def __mul__(self, other: object) -> RationalFunction:
        o = _as_rf(other)
        if o is None:
            return NotImplemented
        if self.num.is_zero() or o.num.is_zero():
            return _ZERO
        if o.den.is_one() and o.num.degree() == 0:  # a constant
            return RationalFunction._raw(self.num * o.num, self.den)
        if self.den.is_one() and self.num.degree() == 0:
            return RationalFunction._raw(o.num * self.num, o.den)
        return RationalFunction(self.num * o.num, self.den * o.den)

    __rmul__ = __mul__

    def __truediv__(self, other: object) -> RationalFunction:
        o = _as_rf(other)
        if o is None:
            return NotImplemented
        if o.num.is_zero():
            raise ZeroDivisionError("division by the zero rational function")
        return self * RationalFunction(o.den, o.num)

    def __rtruediv__(self, other: object) -> RationalFunction:
        o = _as_rf(other)
        if o is None:
            return NotImplemented
        return o / self

    def __pow__(self, k: int) -> RationalFunction:
        if k < 0:
            return (1 / self) ** (-k)
        return RationalFunction._raw(self.num ** k, self.den ** k)

    def __eq__(self, other: object) -> bool:
        o = _as_rf(other)
        if o is None:
            return NotImplemented
        return bool(self.num == o.num and self.den == o.den)

    def __hash__(self) -> int:
        return hash((str(self.num), str(self.den)))

    def __call__(self, x: Fraction | int) -> Fraction:
        """The exact value at the rational ``x`` (ZeroDivisionError at a pole)."""
        q = to_fmpq(x)
        d = self.den(q)
        if d == 0:
            raise ZeroDivisionError(f"{self!r} has a pole at {x}")
        return _fraction(fmpq(self.num(q)) / fmpq(d))

    # -- queries --------------------------------------------------------------------------
    def is_zero(self) -> bool:
        """Whether this is the zero function."""
        return bool(self.num.is_zero())

    def is_constant(self) -> bool:
        """Whether this function does not depend on the parameter."""
        return bool(self.den.is_one() and self.num.degree() <= 0)

    def constant_value(self) -> Fraction:
        """The value of a constant function."""
        if not self.is_constant():
            raise ValueError(f"{self!r} is not constant")
        return _fraction(fmpq(self.num(0)))

    def integer_parts(self) -> tuple[fmpz_poly, fmpz_poly]:
        """Primitive integer polynomials ``(n, d)`` with ``self = c * n / d``, ``c > 0`` rational
        (``d`` has a positive leading coefficient; ``n`` carries the sign)."""
        return _primitive(self.num, keep_sign=True), _primitive(self.den)

    def degree(self) -> int:
        """The larger of the numerator's and denominator's degrees (0 for constants)."""
        return max(int(self.num.degree()), int(self.den.degree()), 0)

    def coefficient_bits(self) -> int:
        """Bits of the largest coefficient of the integer numerator and denominator over a
        common denominator (the size a formula takes to write down)."""
        n, d = self.num, self.den
        scale = fmpq_poly(n.denom() * d.denom())  # clears both denominators
        nn, dd = n * scale, d * scale
        return max(int(nn.numer().height_bits()), int(dd.numer().height_bits()))

    def to_expr(self, symbol: sympy.Symbol) -> sympy.Expr:
        """This function as a sympy expression in ``symbol`` (numerator over denominator,
        both factored over Q)."""
        import sympy

        n, d = _to_sympy(self.num, symbol), _to_sympy(self.den, symbol)
        return sympy.factor(n) / sympy.factor(d)

    def __repr__(self) -> str:
        if self.den.is_one():
            return f"RationalFunction({_pretty(self.num)!r})"
        return f"RationalFunction('{_paren(self.num)}/{_paren(self.den)}')"


def sum_of_products(start: RationalFunction,
                    terms: Iterable[tuple[RationalFunction, RationalFunction]]) -> RationalFunction:
    """``start + sum_j a_j b_j``, brought to canonical form once.

    Adding term by term reduces every partial sum by a gcd of its numerator and
    denominator; here the terms are summed over a common denominator (their denominators
    are mostly equal: the values of one component of a profile share theirs, and the
    probabilities are mostly polynomials), extended by the part of a new denominator not
    already in it (a gcd of two denominators, smaller than one of numerator and
    denominator), and only the sum is reduced. The result is the same function, and its
    canonical form is unique.

    >>> p = RationalFunction.variable()
    >>> f = sum_of_products(RationalFunction.constant(1), [(p, 1 / (1 - p)), (1 - p, 1 / (1 - p))])
    >>> f, f == 1 + p / (1 - p) + (1 - p) / (1 - p)
    (RationalFunction('(p - 2)/(p - 1)'), True)
    """
    num, den = start.num, start.den
    for a, b in terms:
        n = a.num * b.num
        if n.is_zero():
            continue
        d = a.den * b.den
        if d == den:
            num = num + n
            continue
        g = den.gcd(d)
        if g.is_one():
            num, den = num * d + n * den, den * d
        else:
            dg = d // g
            num, den = num * dg + n * (den // g), den * dg
    return RationalFunction(num, den)


def _pretty(poly: fmpq_poly) -> str:
    """``poly`` as e.g. ``1/2*p^2 - p + 1/2`` (highest power first)."""
    coeffs = [_fraction(fmpq(c)) for c in poly.coeffs()]
    if not coeffs:
        return "0"
    terms: list[str] = []
    for k in range(len(coeffs) - 1, -1, -1):
        c = coeffs[k]
        if c == 0:
            continue
        sign = "-" if c < 0 else "+"
        a = abs(c)
        mono = "" if k == 0 else ("p" if k == 1 else f"p^{k}")
        if not mono:
            body = str(a)
        elif a == 1:
            body = mono
        else:
            body = f"{a}*{mono}"
        terms.append(f"{sign} {body}")
    text = " ".join(terms)
    return text[2:] if text.startswith("+ ") else "-" + text[2:]


def _paren(poly: fmpq_poly) -> str:
    s = _pretty(poly)
    return f"({s})" if (" " in s) else s


def _primitive(poly: fmpq_poly, keep_sign: bool = False) -> fmpz_poly:
    """The primitive integer polynomial ``c * poly`` (``c`` > 0 unless ``keep_sign`` is False and
    the leading coefficient is negative)."""
    z = fmpz_poly(poly.numer())
    c = z.content()
    if c != 0 and c != 1:
        z = z / c  # exact
    if not keep_sign and z.degree() >= 0 and z.coeffs()[-1] < 0:
        z = -z
    return fmpz_poly(z)


def _from_sympy_poly(poly: Any) -> fmpq_poly:
    coeffs = [fmpq(int(c.p), int(c.q)) for c in reversed(poly.all_coeffs())]
    return fmpq_poly(coeffs)


def _to_sympy(poly: fmpq_poly, symbol: sympy.Symbol) -> sympy.Expr:
    import sympy

    coeffs = [sympy.Rational(int(c.p), int(c.q)) for c in poly.coeffs()]
    return sympy.Add(*(c * symbol**k for k, c in enumerate(coeffs)))


def _as_rf(x: object) -> RationalFunction | None:
    if isinstance(x, RationalFunction):
        return x
    if isinstance(x, (int, Fraction)) and not isinstance(x, bool):
        return RationalFunction.constant(x)
    return None


_ONE_POLY = fmpq_poly([1])
_ZERO = RationalFunction(fmpq_poly([]))
