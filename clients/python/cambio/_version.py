"""The client's version: the one place it is written (pyproject.toml and the User-Agent read it)."""
__version__ = "0.4.0"
