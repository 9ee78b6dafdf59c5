"""Citing tbsg (``tbsg cite``, from CITATION.cff) and a solution's provenance."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

import tbsg
from tbsg.cli import citation as _citation
from tbsg.engine import _backend as bk
from tbsg.games import risk_or_safety

ROOT = Path(__file__).resolve().parents[2]


# --- CITATION.cff ------------------------------------------------------------------------------

def test_the_shipped_copy_is_the_citation_file() -> None:
    # an installed tbsg cites itself from its copy; a changed CITATION.cff must be copied over
    assert (ROOT / "CITATION.cff").read_text(encoding="utf-8") == _citation.CFF_TEXT, (
        "src/tbsg/_citation.py: CFF_TEXT differs from CITATION.cff; paste the file's text into it")


def test_the_citation_is_of_this_version() -> None:
    assert _citation.citation()["version"] == tbsg.__version__


def test_reader_reads_every_field_of_the_file() -> None:
    data = _citation.citation()
    assert data["cff-version"] == "1.2.0"
    assert data["title"].startswith("tbsg: exact, certified solutions")  # type: ignore[union-attr]
    assert data["abstract"].startswith("A typed Python library") and "\n" not in data["abstract"]  # type: ignore[union-attr]
    assert data["authors"] == [{"name": "The tbsg developers"}]
    assert data["keywords"][:2] == ["stochastic games", "game theory"]  # type: ignore[index]
    refs: Any = data["references"]  # the file's nested lists and mappings
    assert isinstance(refs, list) and [r["authors"][0]["family-names"] for r in refs] == [
        "Hoffman", "Condon", "Jehn"]
    assert refs[2]["identifiers"] == [{"type": "other", "value": "arXiv:2603.01002"}]
    assert refs[0]["volume"] == "12"


def test_reader_on_persons_and_comments() -> None:
    text = ('# a comment\ntitle: "x: y"  \nauthors:\n  - family-names: Doe\n    given-names: Jane Ann\n'
            '  - family-names: Roe\n    given-names: Richard\nversion: 2.0 # trailing\n'
            'date-released: 2025-01-31\nrepository-code: "https://example.org/x"\n')
    data = _citation.read_cff(text)
    assert data == {"title": "x: y", "authors": [{"family-names": "Doe", "given-names": "Jane Ann"},
                                                 {"family-names": "Roe", "given-names": "Richard"}],
                    "version": "2.0", "date-released": "2025-01-31",
                    "repository-code": "https://example.org/x"}
    with pytest.raises(ValueError, match="cannot read line"):
        _citation.read_cff("title: x\n   stray: indented\n")


def test_bibtex_and_apa_from_the_file() -> None:
    data = _citation.citation()
    bib = _citation.bibtex()
    assert bib.startswith("@software{tbsg,\n") and bib.endswith("\n}")
    assert f"  title = {{{data['title']}}}," in bib
    assert "  author = {{The tbsg developers}}," in bib  # an organisation: one name, braced
    assert f"  version = {{{tbsg.__version__}}}," in bib and "  year = {2026}," in bib
    assert bib.count("{") == bib.count("}")
    assert _citation.apa() == (f"The tbsg developers. (2026). {data['title']} (Version {tbsg.__version__}) "
                               "[Computer software].")


def test_persons_in_bibtex_and_apa(monkeypatch: pytest.MonkeyPatch) -> None:
    text = ('title: T\nversion: "1.0"\ndate-released: 2024-05-02\nauthors:\n'
            '  - family-names: Doe\n    given-names: Jane Ann\n'
            '  - family-names: Roe\n    given-names: Richard\n'
            '  - family-names: Poe\n    given-names: E.\ndoi: 10.5281/zenodo.1\n')
    monkeypatch.setattr(_citation, "CFF_TEXT", text)
    assert "  author = {Doe, Jane Ann and Roe, Richard and Poe, E.}," in _citation.bibtex()
    assert "  doi = {10.5281/zenodo.1}\n}" in _citation.bibtex()
    assert _citation.apa() == ("Doe, J. A., Roe, R., & Poe, E. (2024). T (Version 1.0) [Computer software]. "
                               "https://doi.org/10.5281/zenodo.1")


# --- provenance --------------------------------------------------------------------------------

def test_provenance_of_an_exact_solution(tmp_path: Path) -> None:
    game = risk_or_safety(4)
    sol = tbsg.solve(game)
    plain = sol.provenance()
    assert plain.certificate is None and "certificate: not re-checked here" in str(plain)
    check = tbsg.verify(game, sol)
    prov = sol.provenance(check)
    assert prov.certificate == str(check)
    assert f"certificate: {check}" in prov.lines()
    # seed 000 (Jehn 2026), section 3.3: n = 4 gives 2236/4165
    assert prov.value == "2236/4165 ≈ 0.536854741897"
    assert (prov.states, prov.actions, prov.components, prov.largest_component) == (
        sol.n_states, sol.graph.n_actions, sol.n_components, sol.largest_component)
    assert prov.kind is tbsg.SolutionKind.SOLVE and prov.method == sol.method
    assert prov.tbsg_version == tbsg.__version__ and prov.game == "RiskOrSafety(target=4)"
    assert prov.game_type == "tbsg.games.risk_or_safety.RiskOrSafety"
    assert bk.BACKEND in prov.arithmetic or "Fraction" in prov.arithmetic
    # the graph hash is the one a saved file records
    path = tmp_path / "ros4.json"
    tbsg.save(sol, path)
    assert prov.graph_sha256 == json.loads(path.read_text())["graph"]["sha256"]
    assert json.loads(json.dumps(prov.as_dict()))["graph_sha256"] == prov.graph_sha256
    with pytest.raises(dataclasses.FrozenInstanceError):
        prov.states = 0  # type: ignore[misc]


def test_provenance_refuses_the_verification_of_another_solution() -> None:
    game = risk_or_safety(3)
    other = risk_or_safety(4)
    check = tbsg.verify(other, tbsg.solve(other))
    with pytest.raises(tbsg.InvalidArgumentError, match="the verification is of another solution"):
        tbsg.solve(game).provenance(check)
    evaluation = tbsg.evaluate(game, lambda s: "toss")
    with pytest.raises(tbsg.InvalidArgumentError, match="evaluate"):
        evaluation.provenance(tbsg.verify(game, tbsg.solve(game)))
    assert "solution: evaluate;" in str(evaluation.provenance(tbsg.verify(game, evaluation)))


def test_provenance_of_a_float_solution() -> None:
    fsol = tbsg.solve(risk_or_safety(4), exact=False, tol=1e-10)
    prov = fsol.provenance()
    assert prov.tol == 1e-10 and prov.max_gap == fsol.max_gap and prov.converged is True
    lo, hi = fsol.bounds()
    assert prov.value == f"in [{lo!r}, {hi!r}]"
    text = str(prov)
    assert "certificate: none to re-check" in text and "proven gap: at most" in text
    assert prov.graph_sha256 == tbsg.solve(risk_or_safety(4)).provenance().graph_sha256
    with pytest.raises(tbsg.InvalidArgumentError, match="no certificate"):
        fsol.provenance(tbsg.verify(risk_or_safety(4), tbsg.solve(risk_or_safety(4))))


def test_provenance_with_infinite_play() -> None:
    from oracles import Wait

    sol = tbsg.solve(Wait(), infinite_play=0)
    prov = sol.provenance(tbsg.verify(Wait(), sol))
    assert "never-ending play worth 0 to player 0" in str(prov)
    assert prov.as_dict()["infinite_play"] == "0"
