"""Griffe extension for the API reference: tbsg's reST-flavoured docstrings as Markdown.

tbsg's docstrings use numpy style (which mkdocstrings reads) with a few reStructuredText
habits that Markdown does not know. Before rendering, every docstring is rewritten:

* Sphinx roles (``:func:`tbsg.solve```, ``:class:`~tbsg.errors.X```) become code linked to
  the object's entry in the reference when it has one (an *optional* autorefs link, so a
  target outside the reference stays plain code instead of failing the strict build);
  names without a dot are looked up in the docstring's own module first;
* doctest blocks outside an ``Examples`` section (``>>>`` lines and their output) become
  ``pycon`` code blocks instead of paragraphs (where ``[1, 2]`` would read as a link);
* ``.. math::`` blocks become ``math`` code blocks, ``:math:`x``` inline code.

The source files are not changed.
"""

from __future__ import annotations

import html
import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(mod|func|class|meth|attr|data|exc|obj|const):`(~?)([^`<>]+?)`")
_MATH_ROLE = re.compile(r":math:`([^`]+)`")


def _link(module: str, kind: str, tilde: str, target: str) -> str:
    target = target.strip()
    title = target.rsplit(".", 1)[-1] if tilde else target
    if kind in ("func", "meth"):
        title += "()" if not title.endswith(")") else ""
    identifier = target if "." in target and target.split(".")[0] in ("tbsg",) else f"{module}.{target}"
    return (f'<autoref identifier="{html.escape(identifier)}" optional>'
            f"<code>{html.escape(title)}</code></autoref>")


def _blocks(text: str) -> str:
    """Fence doctest blocks and ``.. math::`` blocks."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        if stripped.startswith(">>>"):
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
                i += 1
            out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```"]
            continue
        if stripped.startswith(".. math::"):
            first = stripped[len(".. math::"):].strip()
            i += 1
            block = [first] if first else []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith(indent + " ")):
                block.append(lines[i].strip())
                i += 1
            while block and not block[-1]:
                block.pop()
            out += [f"{indent}```text", *(indent + b for b in block if b), f"{indent}```", ""]
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


def rewrite(text: str, module: str) -> str:
    """The Markdown form of one docstring of module ``module``."""
    if "```" not in text:
        text = _blocks(text)
    text = _MATH_ROLE.sub(lambda m: f"`{m[1]}`", text)
    return _ROLE.sub(lambda m: _link(module, m[1], m[2], m[3]), text)


class DocstringMarkup(griffe.Extension):
    """Rewrite each docstring once its object is loaded (see the module docstring)."""

    def on_object(self, *, obj: Any, **kwargs: Any) -> None:
        if obj.docstring is not None and not obj.is_alias:
            obj.docstring.value = rewrite(obj.docstring.value, obj.module.path)
