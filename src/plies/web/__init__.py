"""The web lab: the tree lab in a browser, served by ``plies serve``, or written as a
static site by ``plies site`` (:func:`build_site`), where plies runs in the browser.

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

__all__ = [
    "PYODIDE_CDN",
    "PYODIDE_VERSION",
    "BuiltSite",
    "SiteError",
    "WebSettings",
    "build_site",
    "create_app",
    "describe_site",
]

#: What the server needs (Starlette), imported on first use.
_APP = ("WebSettings", "create_app")


def __getattr__(name: str) -> Any:
    """:func:`create_app` and :class:`WebSettings`, imported with Starlette on first
    use (an ImportError, as before, without the web extra); the static site's
    :func:`build_site` and its companions, which need no extra."""
    if name in _APP:
        from plies.web import _app

        return getattr(_app, name)
    if name in __all__:
        from plies.web import _site

        return getattr(_site, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
