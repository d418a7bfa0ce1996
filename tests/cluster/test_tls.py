"""``--scheduler tls://``: a batch and a split solve through a real ``dask scheduler``
and ``dask worker`` speaking TLS on 127.0.0.1, with certificates made here."""

from __future__ import annotations

import datetime
import ipaddress
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cluster_helpers import plies_env, pons_lines, stop_processes
from plies.cli import main

pytest.importorskip("distributed")
pytest.importorskip("cryptography")


def make_certificate(folder: Path) -> tuple[str, str]:
    """A self-signed certificate for 127.0.0.1 (its own CA, for server and client)
    and its key, as PEM files: ``(certificate, key)``."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "plies test cluster")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(
            x509.ExtendedKeyUsage(
                [ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]
            ),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cluster.pem", folder / "cluster.key"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return str(cert_path), str(key_path)


@pytest.fixture(scope="module")
def tls_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, str]]:
    """``(address, certificate, key)`` of a TLS ``dask scheduler`` with one ``dask
    worker``, both trusting the certificate and presenting it."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = make_certificate(folder)
    tls = ["--tls-ca-file", cert, "--tls-cert", cert, "--tls-key", key]
    info = folder / "scheduler.json"
    dask = [sys.executable, "-m", "dask"]
    options: dict[str, object] = {
        "env": plies_env(),
        "stdout": subprocess.DEVNULL,
        "stderr": subprocess.DEVNULL,
        "start_new_session": True,
    }
    scheduler = [*dask, "scheduler", "--protocol", "tls", "--host", "127.0.0.1"]
    scheduler += ["--port", "0", "--no-dashboard", "--scheduler-file", str(info), *tls]
    started = [subprocess.Popen(scheduler, **options)]  # type: ignore[call-overload]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() or not info.read_text().strip():
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        assert address.startswith("tls://127.0.0.1:")
        worker = [*dask, "worker", address, "--nthreads", "1", "--no-dashboard"]
        worker += ["--host", "127.0.0.1", *tls]
        started.append(subprocess.Popen(worker, **options))  # type: ignore[call-overload]
        yield address, cert, key
    finally:
        stop_processes(started)


def test_a_batch_through_a_tls_scheduler(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, tls_cluster: tuple[str, str, str]
) -> None:
    import dask

    address, cert, key = tls_cluster
    lines = pons_lines("Test_L2_R1", 40)
    source = tmp_path / "set.txt"
    source.write_text("\n".join(lines) + "\n")
    batch = ["solve", "connect4", "--batch", str(source), "--scheduler", address]
    # The files on the command line...
    status = main([*batch, "--tls-ca", cert, "--tls-cert", cert, "--tls-key", key])
    out, err = capsys.readouterr()
    assert status == 0, err
    assert out.splitlines() == lines
    # ... or in Dask's configuration, as a cluster's users keep them.
    settings = {
        "distributed.comm.tls.ca-file": cert,
        "distributed.comm.tls.client.cert": cert,
        "distributed.comm.tls.client.key": key,
    }
    with dask.config.set(settings):
        status = main(batch)
    out, err = capsys.readouterr()
    assert status == 0, err
    assert out.splitlines() == lines


def test_a_split_solve_through_a_tls_scheduler(
    capsys: pytest.CaptureFixture[str], tls_cluster: tuple[str, str, str]
) -> None:
    address, cert, key = tls_cluster
    argv = ["solve", "connect4", "44455554221", "--json"]
    assert main(argv) == 0
    serial = json.loads(capsys.readouterr().out)
    tls = ["--tls-ca", cert, "--tls-cert", cert, "--tls-key", key]
    assert main([*argv, "--scheduler", address, *tls]) == 0
    split = json.loads(capsys.readouterr().out)
    for record in (serial, split):
        for field in ("nodes", "nps", "time", "backend"):
            record.pop(field)
    assert split == serial


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([], "error: tls://127.0.0.1:"),  # no certificate: "... needs TLS settings"
        (["--tls-ca", "missing.pem"], "error: TLS file not found: missing.pem"),
        (["--tls-cert", "x.pem"], "error: a TLS certificate and its key go together"),
    ],
)
def test_tls_mistakes_are_one_error_line(
    capsys: pytest.CaptureFixture[str],
    tls_cluster: tuple[str, str, str],
    monkeypatch: pytest.MonkeyPatch,
    extra: list[str],
    message: str,
) -> None:
    import plies.cluster._dask

    monkeypatch.setattr(plies.cluster._dask, "CONNECT_SECONDS", 2)
    address = tls_cluster[0]
    status = main(["solve", "nim", "3,4,5", "--scheduler", address, *extra])
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith(message), err
    assert len(err.splitlines()) == 1


def test_tls_files_need_a_tls_scheduler(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["solve", "nim", "3,4,5", "--scheduler", "tcp://127.0.0.1:1", "--tls-ca", "x"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err == "error: --tls-ca, --tls-cert and --tls-key need --scheduler tls://HOST:PORT\n"
