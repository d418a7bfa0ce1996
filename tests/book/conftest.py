"""One real Dask LocalCluster of two worker processes for the parallel book test."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="package")
def address() -> Iterator[str]:
    """The scheduler address of a LocalCluster of two single-threaded workers."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address="127.0.0.1:0",
        silence_logs=logging.ERROR,
    ) as local:
        cluster: Any = local
        with distributed.Client(cluster) as client:
            client.wait_for_workers(2, timeout=60)
        yield str(cluster.scheduler_address)
