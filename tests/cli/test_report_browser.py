"""The HTML report opened in headless Chromium (``-m browser``; skipped without Chromium).

For a regression and a classification data set, and a lasso (its coefficient paths): the page
renders (a screenshot that is not blank), the browser logs no console message, the DOM holds
every section of the report, and every inline image decodes to a non-empty PNG.
"""

import base64
import io
import re
import shutil
import subprocess

import numpy as np
import pytest

from statlearning.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed"),
]

#: Sections of every report, and those of each task's model sections.
COMMON = ["leaderboard", "cv-scores", "model-best", "data", "data-columns", "data-summary",
          "data-missing"]  # fmt: skip
PARTS = {
    "regression": ["model-interpretable", "model-best-diagnostics", "model-best-importance",
                   "model-interpretable-diagnostics", "model-interpretable-tree"],
    "classification": ["model-interpretable", "model-best-confusion-matrix", "model-best-roc",
                       "model-interpretable-confusion-matrix", "model-interpretable-roc",
                       "model-interpretable-calibration", "model-interpretable-coefficients",
                       "data-classes"],
    # the lasso is best (and so the best interpretable model too)
    "penalised": ["model-best-diagnostics", "model-best-coefficients", "model-best-cv-curve",
                  "model-best-coefficient-path"],
}  # fmt: skip
ARGS = {
    "regression": ["--dataset", "diabetes", "--models",
                   "decision_tree_regressor,random_forest_regressor,knn_regressor"],
    "classification": ["--dataset", "biopsy", "--models",
                       "logistic_regression,decision_tree_classifier_cv,svc"],
    "penalised": ["--dataset", "diabetes", "--models", "lasso_cv,knn_regressor"],
}  # fmt: skip


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reports")
    paths = {}
    for task, args in ARGS.items():
        paths[task] = folder / f"{task}.html"
        argv = ["report", *args, "--cv", "4", "--quiet", "--jobs", "1", "-o", str(paths[task])]
        assert main(argv) == 0
    return paths


def _chromium(*args):
    run = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--enable-logging=stderr", "--v=0", *args],
        capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    return run


def _console(stderr):
    """The page's console messages (errors, warnings, logs) in Chromium's log."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


@pytest.mark.parametrize("task", ["regression", "classification", "penalised"])
def test_report_renders_in_chromium(reports, task, tmp_path):
    url = reports[task].as_uri()
    run = _chromium("--dump-dom", url)
    assert run.returncode == 0, run.stderr[-2000:]
    dom = run.stdout
    assert _console(run.stderr) == []
    for section in COMMON + PARTS[task]:
        assert f'id="{section}"' in dom, section
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', dom)
    assert len(images) >= 5
    for encoded in images:
        data = base64.b64decode(encoded, validate=True)
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = (int.from_bytes(data[i : i + 4], "big") for i in (16, 20))
        assert width > 100 and height > 100 and len(data) > 2000

    shot = tmp_path / "page.png"
    run = _chromium("--window-size=1280,2000", f"--screenshot={shot}", url)
    assert run.returncode == 0, run.stderr[-2000:]
    assert _console(run.stderr) == []
    import matplotlib.image

    pixels = matplotlib.image.imread(io.BytesIO(shot.read_bytes()))
    assert pixels.shape[:2] == (2000, 1280)
    # the page is drawn: a dark header band at the top, and varied content below it
    assert pixels[:40, :, :3].mean() < 0.3
    assert np.std(pixels[200:, :, :3]) > 0.1
