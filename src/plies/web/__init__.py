"""The web lab: the tree lab in a browser, served by ``plies serve``.

A Starlette app (:func:`create_app`) over :mod:`plies.lab`, the same application layer
the command line uses: its ``/api/search`` answers what ``plies tree --json``
prints, and its drawings come from :mod:`plies.draw`. Needs the ``web`` extra
(``pip install 'plies[web]'``: Starlette and uvicorn).

The app is imported when first asked for (``from plies.web import create_app``), not
by ``import plies.web``: reading the lab's requests and answering them
(``plies.web._request``, ``plies.web._jobs``) needs neither Starlette nor NumPy, so
the same operations can run where there is no server (Pyodide in a browser).
"""

from typing import Any

__all__ = ["WebSettings", "create_app"]


def __getattr__(name: str) -> Any:
    """:func:`create_app` and :class:`WebSettings`, imported with Starlette on first
    use (an ImportError, as before, without the web extra)."""
    if name in __all__:
        from plies.web import _app

        return getattr(_app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
