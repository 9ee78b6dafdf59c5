"""pytest: the doctests of docs/*.md run (see pyproject.toml); the mkdocs hooks in docs/hooks/
are not test modules (tests/test_docs.py builds the site with them)."""

collect_ignore = ["hooks"]
