"""One real Dask LocalCluster of two worker processes for the cluster tests (starting
one costs seconds)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="package")
def cluster() -> Iterator[Any]:
    """A LocalCluster of two single-threaded worker processes."""
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address="127.0.0.1:0",
        silence_logs=logging.ERROR,
    ) as local:
        yield local


@pytest.fixture
def address(cluster: Any) -> str:
    """The scheduler address of :func:`cluster`, with both workers up."""
    with distributed.Client(cluster) as client:
        client.wait_for_workers(2, timeout=60)
    return str(cluster.scheduler_address)
