"""The package as an integrator gets it: installable offline from this folder with the machine's
setuptools, typed, and a README whose Python examples are valid code."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cambio
from conftest import fake_api

HERE = Path(__file__).resolve().parent.parent
README = (HERE / "README.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"```python\n(.*?)```", README, re.S)


def test_pip_install_no_build_isolation_installs_the_package_with_its_version_and_py_typed(tmp_path):
    source = tmp_path / "src"
    shutil.copytree(HERE, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info", ".venv", "tests"))
    target = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-index", "--no-deps", "--no-compile", "--no-cache-dir", "--disable-pip-version-check", "--target", str(target), str(source)],
        capture_output=True, text=True, timeout=120,
    )
    if done.returncode != 0 and "bdist_wheel" in done.stderr + done.stdout:
        pytest.fail(f"{sys.executable} has no `wheel` package: install python3-wheel (Debian) or `wheel` into this environment")
    assert done.returncode == 0, done.stderr + done.stdout
    assert (target / "cambio" / "py.typed").exists()
    assert (target / "cambio" / "_types.py").exists()
    check = subprocess.run(
        [sys.executable, "-c", "import cambio, sys; print(cambio.__version__, cambio.__file__)"],
        capture_output=True, text=True, cwd=str(tmp_path), env={"PYTHONPATH": str(target), "PYTHONDONTWRITEBYTECODE": "1"}, timeout=60,
    )
    version, where = check.stdout.split()
    assert version == cambio.__version__
    assert Path(where).resolve().is_relative_to(target.resolve())


def test_the_readme_examples_are_valid_python_using_only_the_public_surface():
    assert len(EXAMPLES) >= 6
    names = set(dir(cambio))
    for example in EXAMPLES:
        tree = ast.parse(example)  # raises on a syntax error
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "cambio":
                assert {alias.name for alias in node.names} <= names, ast.dump(node)


def test_the_readme_shows_every_call():
    for call in [
        "company.get(", "company.balance(", "deposits.create(", "deposits.get(", "withdrawals.create(", "withdrawals.get(",
        "conversions.quote(", "conversions.create(", "conversions.list(", "conversions.get(", "webhooks.list(", "webhooks.create(",
        "webhooks.get(", "webhooks.update(", "webhooks.delete(", "webhooks.verify(", "auto_paging_iter()", "idempotency_key=",
        "request.get_data()", "request.body", "await request.body()",
    ]:
        assert call in README, call


def test_the_readme_examples_run_against_a_stand_in_api(scripted, monkeypatch, capsys):
    server = scripted(fake_api)
    monkeypatch.setenv("CAMBIO_API_KEY", "ck_test_key")
    monkeypatch.setenv("CAMBIO_API_SECRET", "cs_test_secret")
    monkeypatch.setenv("CAMBIO_API_URL", server.url + "/v1")
    namespace: dict = {}
    ran = 0
    for example in EXAMPLES:
        if "from flask import" in example:
            continue  # Flask is not installed here: checked as syntax above
        exec(compile(example, "README.md", "exec"), namespace)
        ran += 1
    assert ran >= 5
    out = capsys.readouterr().out
    assert "top up first; request req-" in out and "INSUFFICIENT_BALANCE 422" in out
    assert {s.method for s in server.seen} == {"GET", "POST", "PUT", "DELETE"}
    assert {"/v1/company", "/v1/company/balance", "/v1/deposits", "/v1/withdrawals", "/v1/conversions/quote", "/v1/conversions", "/v1/webhooks"} <= {s.path.split("?")[0] for s in server.seen}
