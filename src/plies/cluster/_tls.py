"""TLS files for ``tls://`` schedulers, given as Dask configuration (no Dask import
unless files are given)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from plies.errors import PliesError

__all__ = ["tls_files"]


@contextmanager
def tls_files(ca: str | None, cert: str | None, key: str | None) -> Iterator[None]:
    """Dask's TLS configuration (``distributed.comm.tls.ca-file``, ``.client.cert``,
    ``.client.key``) set to these files while the block runs; none given: Dask's own
    configuration, untouched. A missing file, or a certificate without its key, is a
    :class:`PliesError`."""
    if ca is None and cert is None and key is None:
        yield
        return
    if (cert is None) != (key is None):
        raise PliesError("a TLS certificate and its key go together (--tls-cert, --tls-key)")
    settings = {}
    for name, path in (("ca-file", ca), ("client.cert", cert), ("client.key", key)):
        if path is None:
            continue
        if not Path(path).is_file():
            raise PliesError(f"TLS file not found: {path}")
        settings[f"distributed.comm.tls.{name}"] = path
    try:
        import dask
    except ImportError:
        from plies.cluster._lines import NEEDS_DASK

        raise PliesError(NEEDS_DASK) from None
    with dask.config.set(settings):
        yield
