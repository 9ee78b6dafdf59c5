"""``tbsg._util.parameters``: a factory's parameters from its signature, filled from texts.

The catalog's ``make`` and the command line's game specs both use these rules; the last
tests check that they give the same answer and the same message.
"""

from __future__ import annotations

import enum
import inspect
from fractions import Fraction
from typing import Literal

import pytest

from tbsg._util.bounds import Bounds
from tbsg._util.parameters import Parameter, convert_text, describe, keyword_arguments, parameters_of
from tbsg.errors import InvalidArgumentError, InvalidGameError


class Colour(enum.Enum):
    RED = 1
    BLUE = 2


def factory(goal: int, p: Fraction = Fraction(1, 2), *,  # type: ignore[no-untyped-def]  # fair, label: on purpose
            rule: Literal["a", "b"] = "a", colour: Colour = Colour.RED, x: float = 0.5,
            n: int | None = None, fair=True, label="none") -> None:
    """A factory with one parameter of every kind the rules know."""


def test_parameters_are_read_from_the_signature_and_annotations() -> None:
    params = {p.name: p for p in parameters_of(factory)}
    assert list(params) == ["goal", "p", "rule", "colour", "x", "n", "fair", "label"]
    assert params["goal"].required and params["goal"].hint is int
    assert params["p"].default == Fraction(1, 2) and params["p"].hint is Fraction
    assert params["rule"].hint == Literal["a", "b"]
    # unannotated: the default's type when a text can build it (a bool, a str)
    assert params["fair"].hint is bool and params["label"].hint is str
    assert describe(parameters_of(factory)).startswith("goal: int, p: Fraction = 1/2, rule: a|b = 'a'")
    assert describe(()) == "no parameters"


def test_positional_only_and_variadic_parameters_are_not_keyword_parameters() -> None:
    def f(a: int, /, b: int, *args: int, c: int = 1, **kwargs: int) -> None: ...

    assert [p.name for p in parameters_of(f)] == ["b", "c"]
    assert parameters_of(print) == () or all(p.name != "args" for p in parameters_of(print))


@pytest.mark.parametrize(("hint", "text", "value"), [
    (int, "-12", -12),
    (bool, "yes", True), (bool, "0", False),
    (Fraction, "0.25e-3", Fraction(1, 4000)), (Fraction, "1/3", Fraction(1, 3)), (Fraction, "2", Fraction(2)),
    (float, "2.5e-3", 0.0025),
    (str, " x ", " x "),
    (Literal["at_most", "less_than"], "less_than", "less_than"),
    (Literal[1, 2], "2", 2),
    (Colour, "BLUE", Colour.BLUE), (Colour, "1", Colour.RED),
    (int | None, "none", None), (int | None, "7", 7),
    (int | str, "seven", "seven"),
    (inspect.Parameter.empty, "1/3", Fraction(1, 3)),
    (inspect.Parameter.empty, "true", True),
    (inspect.Parameter.empty, "x", "x"),
])
def test_a_text_is_converted_by_its_annotation(hint: object, text: str, value: object) -> None:
    got = Parameter("v", hint, 0).convert(text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize(("hint", "text", "message"), [
    (int, "1/2", "parameter v must be an integer, got '1/2'"),
    (bool, "maybe", "parameter v must be true or false, got 'maybe'"),
    (Fraction, "1/0", "parameter v must be an exact rational such as 1/3 or 0.25 (not a zero denominator)"),
    (float, "nan", "parameter v must be a finite number, got 'nan'"),
    (float, "x", "parameter v must be a number, got 'x'"),
    (Literal["a", "b"], "c", "parameter v must be one of a, b; got 'c'"),
    (Colour, "GREEN", "parameter v must be one of RED, BLUE; got 'GREEN'"),
    (int | None, "x", "parameter v must be int or None, got 'x'"),
    (int, "7" * 4301, "parameter v must be an integer of at most 4,300 digits"),
])
def test_a_text_that_does_not_fit_names_the_parameter(hint: object, text: str, message: str) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        Parameter("v", hint, 0).convert(text)
    assert str(info.value).startswith(message)


def test_keyword_arguments_check_names_convert_and_bound() -> None:
    texts = {"goal": "20", "p": "0.25", "rule": "b", "n": "none", "fair": "no"}
    assert keyword_arguments("f", factory, texts) == {
        "goal": 20, "p": Fraction(1, 4), "rule": "b", "n": None, "fair": False}
    with pytest.raises(InvalidArgumentError, match=r"^f has no parameter size; its parameters are goal: "):
        keyword_arguments("f", factory, {"goal": "1", "size": "2"})
    with pytest.raises(InvalidArgumentError, match=r"^f needs goal; its parameters are .* \(with -p\)$"):
        keyword_arguments("f", factory, {}, how=" (with -p)")
    bounds = {"goal": Bounds(int, 1, 10)}
    assert keyword_arguments("f", factory, {"goal": "10"}, bounds) == {"goal": 10}
    with pytest.raises(InvalidArgumentError) as info:
        keyword_arguments("f", factory, {"goal": "11"}, bounds)
    assert str(info.value) == "parameter goal of f must be an int from 1 to 10, got 11"


def test_a_factory_with_kwargs_takes_any_name_and_positional_only_is_refused() -> None:
    def open_ended(goal: int, **options: object) -> None: ...

    def positional(goal: int, /) -> None: ...

    assert keyword_arguments("g", open_ended, {"goal": "2", "seed": "1/3"}) == {
        "goal": 2, "seed": Fraction(1, 3)}
    with pytest.raises(InvalidArgumentError, match=r"^g has positional-only parameters \(goal\)"):
        keyword_arguments("g", positional, {})


def test_convert_text_infers_bool_int_fraction_str() -> None:
    assert [convert_text(t) for t in ("True", "7", "-0.5", "2/4", "1/0", "x")] == [
        True, 7, Fraction(-1, 2), Fraction(1, 2), "1/0", "x"]
    with pytest.raises(InvalidArgumentError, match=r"^the payoff must be a number of at most 4,300 digits"):
        convert_text("1/" + "3" * 5000, "the payoff")


@pytest.mark.parametrize(("name", "texts"), [
    ("pig", {"goal": "2", "die": "1000000"}),
    ("pig", {"goal": "x"}),
    ("risk_or_safety", {"target": "3", "goal": "1"}),
    ("unspeakable_words", {"a": "2", "b": "2", "bust": "never"}),
])
def test_the_catalog_and_the_command_line_follow_one_set_of_rules(name: str, texts: dict[str, str]) -> None:
    from tbsg.cli._games import resolve
    from tbsg.games.registry import CATALOG

    with pytest.raises(InvalidGameError) as catalog:
        CATALOG[name].make(texts)
    with pytest.raises(InvalidArgumentError) as command_line:
        resolve(name).arguments(texts)
    assert str(catalog.value) == str(command_line.value)
    assert [str(p) for p in CATALOG[name].parameters()] == [str(p) for p in resolve(name).parameters()]
