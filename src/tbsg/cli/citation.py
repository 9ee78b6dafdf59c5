"""How to cite tbsg: BibTeX and APA generated from ``CITATION.cff`` (``tbsg cite``).

``CITATION.cff`` at the top of the repository is the source; :data:`CFF_TEXT` is a copy of
it shipped inside the package, so an installed tbsg can cite itself
(``tests/test_cite.py`` fails when the two differ: paste the file here). It is read with
:func:`read_cff`, a reader for the part of YAML that citation files use (mappings, lists,
quoted and plain scalars, folded ``>-`` blocks, comments), so citing needs no YAML
library.

Examples
--------
>>> print(bibtex().splitlines()[0])
@software{tbsg,
>>> apa().startswith("The tbsg developers. (2026). tbsg: exact, certified solutions")
True
"""

from __future__ import annotations

import re
from typing import TypeAlias

__all__ = ["CFF_TEXT", "apa", "bibtex", "citation", "read_cff"]

Node: TypeAlias = "str | list[Node] | dict[str, Node]"
"""A value of a citation file: a scalar (as text), a list or a mapping."""

CFF_TEXT = """cff-version: 1.2.0
message: "If you use tbsg in your research, please cite it as below."
title: "tbsg: exact, certified solutions of two-player turn-based stochastic games"
abstract: >-
  A typed Python library that solves two-player turn-based stochastic games (dice and
  coin games) exactly in rational arithmetic, with optimal strategies including exact
  ties and a certificate that can be re-checked independently, and in floating point
  with proven error bounds.
authors:
  - name: "The tbsg developers"
version: "0.1.0"
date-released: "2026-11-23"
license: MIT
keywords:
  - stochastic games
  - game theory
  - exact arithmetic
  - strategy iteration
  - dice games
references:
  - type: article
    authors:
      - family-names: Hoffman
        given-names: A. J.
      - family-names: Karp
        given-names: R. M.
    title: "On nonterminating stochastic games"
    journal: "Management Science"
    volume: 12
    issue: 5
    year: 1966
  - type: article
    authors:
      - family-names: Condon
        given-names: Anne
    title: "The complexity of stochastic games"
    journal: "Information and Computation"
    volume: 96
    issue: 2
    year: 1992
  - type: article
    authors:
      - family-names: Jehn
        given-names: Rüdiger
    title: "Optimal strategy in the game Risk or Safety"
    journal: "arXiv"
    year: 2026
    identifiers:
      - type: other
        value: "arXiv:2603.01002"
"""
"""A copy of ``CITATION.cff`` (the test suite checks it is the file's text)."""


def read_cff(text: str) -> dict[str, Node]:
    """The mapping a ``CITATION.cff`` text holds (scalars as strings).

    >>> read_cff('title: "A b"\\nauthors:\\n  - family-names: Doe\\n    given-names: Jane\\n')
    {'title': 'A b', 'authors': [{'family-names': 'Doe', 'given-names': 'Jane'}]}
    """
    lines = [(len(raw) - len(raw.lstrip(" ")), raw.strip()) for raw in text.splitlines()
             if raw.strip() and not raw.lstrip().startswith("#")]
    node, end = _block(lines, 0, 0)
    if end != len(lines) or not isinstance(node, dict):
        raise ValueError(f"CITATION.cff: cannot read line {end + 1}: {lines[end][1]!r}")
    return node


def _block(lines: list[tuple[int, str]], i: int, indent: int) -> tuple[Node, int]:
    """The mapping or list starting at line ``i`` (indented ``indent``) and the next line."""
    if lines[i][1].startswith("- "):
        items: list[Node] = []
        while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
            inner = indent + 2
            lines[i] = (inner, lines[i][1][2:].lstrip())
            if ":" in lines[i][1] and not lines[i][1].startswith('"'):
                item, i = _block(lines, i, inner)
            else:
                item, i = _scalar(lines[i][1]), i + 1
            items.append(item)
        return items, i
    mapping: dict[str, Node] = {}
    while i < len(lines) and lines[i][0] == indent:
        key, _, rest = lines[i][1].partition(":")
        rest = rest.strip()
        i += 1
        if rest in (">", ">-", "|", "|-"):
            parts = []
            while i < len(lines) and lines[i][0] > indent:
                parts.append(lines[i][1])
                i += 1
            mapping[key.strip()] = (" " if rest.startswith(">") else "\n").join(parts)
        elif rest:
            mapping[key.strip()] = _scalar(rest)
        elif i < len(lines) and lines[i][0] > indent:
            mapping[key.strip()], i = _block(lines, i, lines[i][0])
        elif i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
            mapping[key.strip()], i = _block(lines, i, indent)  # a list at the key's indentation
        else:
            mapping[key.strip()] = ""
    return mapping, i


def _scalar(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return re.sub(r"\s+#.*$", "", text)


def citation() -> dict[str, Node]:
    """The citation file of this tbsg, read."""
    return read_cff(CFF_TEXT)


def _authors(data: dict[str, Node]) -> list[dict[str, Node]]:
    authors = data.get("authors", [])
    return [a for a in authors if isinstance(a, dict)] if isinstance(authors, list) else []


def _text(data: dict[str, Node], key: str) -> str:
    value = data.get(key, "")
    return value if isinstance(value, str) else ""


def bibtex() -> str:
    """A BibTeX ``@software`` entry for tbsg."""
    data = citation()
    names = []
    for a in _authors(data):
        if "name" in a:
            names.append(f"{{{a['name']}}}")  # an organisation: kept as one name
        else:
            names.append(f"{a.get('family-names', '')}, {a.get('given-names', '')}".strip(", "))
    fields = [("author", " and ".join(names)), ("title", _text(data, "title")),
              ("version", _text(data, "version"))]
    date = _text(data, "date-released")
    if date:
        fields += [("year", date[:4]), ("month", str(int(date[5:7]))), ("date", date)]
    for key in ("url", "repository-code", "doi", "license"):
        if _text(data, key):
            fields.append(({"repository-code": "url"}.get(key, key), _text(data, key)))
    keywords = data.get("keywords")
    if isinstance(keywords, list):
        fields.append(("keywords", ", ".join(k for k in keywords if isinstance(k, str))))
    body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields if v)
    return f"@software{{tbsg,\n{body}\n}}"


def apa() -> str:
    """An APA (7th edition) reference for tbsg, as plain text."""
    data = citation()
    names = []
    for a in _authors(data):
        if "name" in a:
            names.append(str(a["name"]))
        else:
            given = str(a.get("given-names", ""))
            initials = " ".join(f"{part[0]}." for part in given.replace("-", " ").split() if part)
            names.append(f"{a.get('family-names', '')}, {initials}".strip(", "))
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + ", & " + names[-1] if names else ""
    year = _text(data, "date-released")[:4] or "n.d."
    version = _text(data, "version")
    tail = " ".join(x for x in (_text(data, "doi") and f"https://doi.org/{_text(data, 'doi')}",
                                _text(data, "url") or _text(data, "repository-code")) if x)
    reference = (f"{who}{'' if who.endswith('.') else '.'} ({year}). {_text(data, 'title')}"
                 f"{f' (Version {version})' if version else ''} [Computer software].")
    return f"{reference} {tail}".strip()
