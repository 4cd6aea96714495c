"""The notebooks in notebooks/: kept without outputs, and run to the end without an error.

Running them is marked ``extended`` (.ci/run's ``pytest -m extended``, with the docs
extra's nbclient and ipykernel); the check that they are stripped runs always.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_there_are_the_two_notebooks() -> None:
    if not (ROOT / "notebooks").exists():
        pytest.skip("no notebooks/ beside the tests (an install without its sources)")
    assert [path.name for path in NOTEBOOKS] == ["long-runs.ipynb", "tour.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_a_notebook_is_kept_without_outputs(path: Path) -> None:
    """No outputs, execution counts or run metadata in the repository: what a notebook
    shows is made by running it (and a diff shows only what was written)."""
    notebook = json.loads(path.read_text())
    for number, cell in enumerate(notebook["cells"]):
        assert set(cell.get("metadata", {})) <= {"tags"}, (number, cell["metadata"])
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [], f"{path.name}: cell {number} has outputs"
            assert cell["execution_count"] is None, f"{path.name}: cell {number} was run"
    assert set(notebook["metadata"]) <= {"kernelspec", "language_info"}
    assert set(notebook["metadata"].get("language_info", {})) <= {"name"}


@pytest.mark.extended
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_a_notebook_runs_to_the_end(path: Path, tmp_path: Path) -> None:
    if importlib.util.find_spec("nbclient") is None:
        pytest.skip("nbclient is not installed (pip install -e '.[docs]')")
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": tmp_path}}
    )
    client.execute()  # raises CellExecutionError naming the cell and its traceback
    shown = [
        output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs
    ]
    assert not [output for output in shown if output.output_type == "error"]
    if path.name == "tour.ipynb":  # the pictures come out as SVG
        assert sum("image/svg+xml" in output.get("data", {}) for output in shown) >= 3
