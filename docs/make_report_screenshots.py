"""Screenshots of the HTML report for the README: ``report-regression.png`` (the default
Gapminder data) and ``report-classification.png`` (the biopsy data), next to this script.

Run from the repository root with Chromium installed::

    python docs/make_report_screenshots.py

Each report is rendered by ``statlearning report`` (every registered model, 10-fold CV, a time
budget of 120 s), opened in headless Chromium at 1280 pixels wide, cropped below the page's
end and scaled to 900 pixels wide with a 256-colour palette (to keep the files small).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

from statlearning.cli import main

HERE = Path(__file__).resolve().parent
RUNS = {
    "report-regression.png": [],
    "report-classification.png": ["--dataset", "biopsy"],
}
WIDTH, HEIGHT, OUT_WIDTH = 1280, 9000, 900


def _screenshot(html: Path, png: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("chromium is not installed")
    subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         f"--window-size={WIDTH},{HEIGHT}", f"--screenshot={png}", html.as_uri()],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip


def _crop_and_shrink(png: Path, out: Path) -> None:
    image = Image.open(png).convert("RGB")
    pixels = np.asarray(image)
    background = pixels[-1, -1]
    rows = np.flatnonzero(np.any(np.abs(pixels.astype(int) - background).sum(axis=2) > 0, axis=1))
    image = image.crop((0, 0, WIDTH, min(int(rows[-1]) + 40, HEIGHT)))
    height = round(image.height * OUT_WIDTH / WIDTH)
    image = image.resize((OUT_WIDTH, height), Image.LANCZOS)
    image.quantize(colors=256).save(out, optimize=True)


def run() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in RUNS.items():
            html = Path(tmp) / name.replace(".png", ".html")
            raw = Path(tmp) / name
            code = main(["report", *args, "--quiet", "--time-budget", "120", "-o", str(html)])
            if code != 0:
                sys.exit(f"statlearning report failed for {name}")
            _screenshot(html, raw)
            _crop_and_shrink(raw, HERE / name)
            print(f"{HERE / name}: {(HERE / name).stat().st_size // 1024} KiB")


if __name__ == "__main__":
    run()
