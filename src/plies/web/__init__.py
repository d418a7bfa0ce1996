"""The web lab: the tree lab in a browser, served by ``plies serve``.

A Starlette app (:func:`create_app`) over :mod:`plies.lab`, the same application layer
the command line uses: its ``/api/search`` answers what ``plies tree --json``
prints, and its drawings come from :mod:`plies.draw`. Needs the ``web`` extra
(``pip install 'plies[web]'``: Starlette and uvicorn).
"""

from plies.web._app import WebSettings, create_app

__all__ = ["WebSettings", "create_app"]
