"""Input of make_boot_aliased_reference.R: a design with a rare dummy column (aliased in the
resamples that miss both of its ones) and the bootstrap indices that
``statlearning.model_selection.bootstrap(..., n_resamples=200, random_state=0)`` draws.

Run:  python make_data.py (writes next to this file) && Rscript make_boot_aliased_reference.R
"""

from pathlib import Path

import numpy as np


def main(here: Path) -> None:
    rng = np.random.default_rng(20261126)
    n = 30
    X = np.round(rng.normal(size=(n, 3)), 3)
    dummy = np.zeros(n)
    dummy[[4, 17]] = 1.0
    y = np.round(1.0 + X[:, 0] - 0.5 * X[:, 1] + 2.0 * dummy + rng.normal(size=n), 3)
    data = np.column_stack([X, dummy, y])
    np.savetxt(here / "data.csv", data, delimiter=",", header="x1,x2,x3,d,y", comments="",
               fmt="%.3f")
    # bootstrap() draws its indices with check_random_state(random_state).randint(0, n, (B, n)).
    idx = np.random.RandomState(0).randint(0, n, size=(200, n))
    np.savetxt(here / "indices.csv", idx + 1, delimiter=",", fmt="%d")  # 1-based for R


if __name__ == "__main__":  # not when the test run imports this file for its doctests
    main(Path(__file__).parent)
