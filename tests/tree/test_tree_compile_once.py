"""Every compiled helper of the tree grower and router is specialised once.

Numba compiles a helper once per combination of argument types at its call sites, and types a
literal argument (``0``, ``-1``, ``True``), or a variable initialised by one, as a constant of
its own: a call with ``0`` and another with a counter compile the helper, and every helper it
calls, twice. The grower's helpers took 2-3 compilations each, about half of the first fit's
compile time. With a fresh cache (a subprocess with its own ``NUMBA_CACHE_DIR``: a cached
kernel loads without compiling its helpers, so only a cold run can tell), trees of every kind
(regression and classification, integer and float data, missing values, categorical columns,
surrogates, absolute error, best-first growth, random features, forests and boosting) compile
each helper exactly once, except the few that take the categorical level counts: those compile
twice on purpose, once for complete numeric data (``None``, where numba leaves the code of
missing values and categorical columns out) and once for the general mode, so that a run on
numeric data never compiles the general code.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import statlearning

_COUNTING = """
import json, warnings
from collections import Counter
import numba.core.event as ev
compiled = Counter()

class Count(ev.Listener):
    def on_start(self, event):
        f = event.data["dispatcher"].py_func
        compiled[f.__module__ + "." + f.__qualname__] += 1

    def on_end(self, event):
        pass

ev.register("numba:compile", Count())
"""

_FIT_EVERY_KIND = (
    _COUNTING
    + """
warnings.simplefilter("ignore")
import numpy as np
from statlearning.ensemble import (
    AdaBoostClassifier, BaggingRegressor, GradientBoostingClassifier, GradientBoostingRegressor,
    RandomForestClassifier, RandomForestRegressor)
from statlearning.tree import DecisionTreeClassifier, DecisionTreeRegressor

rng = np.random.default_rng(0)
X = rng.normal(size=(200, 5))
y = X[:, 0] + rng.normal(size=200)
yc = (y > 0).astype(np.int64)
Xi = rng.integers(0, 5, size=(200, 5))
Xn = X.copy()
Xn[::7, 2] = np.nan
Xc = X.copy()
Xc[:, 3] = np.arange(200) % 4
R, C = DecisionTreeRegressor, DecisionTreeClassifier
R(min_samples_split=20, min_samples_leaf=7, cp=0.01).fit(X, y).predict(X)
R(min_samples_leaf=3).fit(Xi, y).predict(Xi)
R(max_leaf_nodes=6, cp=0.01, xval=3, random_state=0).fit(X, y).apply(X)
R(criterion="absolute_error", max_depth=3).fit(X, y).predict(X)
C(max_features=2, random_state=0).fit(X, yc).predict_proba(X)
C(use_surrogates="always", max_depth=3).fit(X, yc).predict(X)
R(max_depth=4).fit(Xn, y).predict(Xn)
R(max_depth=4, categorical_features=[3]).fit(Xc, y).predict(Xc)
C(max_depth=4, categorical_features=[3], criterion="entropy").fit(Xc, yc).predict(Xc)
R(max_depth=4, criterion="absolute_error", categorical_features=[3]).fit(Xc, y).predict(Xc)
RandomForestRegressor(3, random_state=0, oob_score=True).fit(X, y).predict(X)
RandomForestClassifier(3, random_state=0).fit(Xi, yc).predict_proba(Xi)
BaggingRegressor(n_estimators=3, random_state=0).fit(X, y).predict(X)
GradientBoostingRegressor(n_estimators=3, max_depth=3).fit(X, y).predict(X)
GradientBoostingClassifier(n_estimators=2).fit(X, yc).predict_proba(X)
AdaBoostClassifier(n_estimators=3).fit(X, yc).predict(X)
print(json.dumps(compiled))
"""
)


def _compiled_on_a_fresh_cache(code, cache):
    """The compilations counted by ``code`` run in a subprocess with an empty numba cache."""
    src = str(Path(statlearning.__file__).parent.parent)
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(cache),
        "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]),
    }
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        timeout=1800,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_every_tree_kernel_compiles_once_on_a_fresh_cache(tmp_path):
    compiled = _compiled_on_a_fresh_cache(_FIT_EVERY_KIND, tmp_path)
    ours = {k: n for k, n in compiled.items() if k.startswith("statlearning.")}
    assert "statlearning.tree._grow._add_node" in ours  # the helpers did compile here
    assert "statlearning.tree._route._direction" in ours
    twice = {f"statlearning.tree.{name}" for name in _BY_MODE}
    assert {k: n for k, n in ours.items() if k in twice} == dict.fromkeys(twice, 2)
    repeated = {k: n for k, n in ours.items() if n > 1 and k not in twice}
    assert not repeated, f"compiled more than once: {repeated}"


#: Helpers specialised on the mode: numeric data (``n_cat`` None) and the general mode.
_BY_MODE = (
    "_grow._grow_kernel",
    "_grow._add_node",
    "_grow._split_node",
    "_surrogates.node_surrogates",
)


_NUMERIC_ONLY = (
    _COUNTING
    + """
import numpy as np
from statlearning.tree import DecisionTreeRegressor

rng = np.random.default_rng(0)
X = rng.normal(size=(100, 4))
DecisionTreeRegressor(max_depth=3).fit(X, X[:, 0])
print(json.dumps(compiled))
"""
)


@pytest.mark.slow
def test_numeric_data_do_not_compile_the_general_mode(tmp_path):
    compiled = _compiled_on_a_fresh_cache(_NUMERIC_ONLY, tmp_path)
    assert "statlearning.tree._surrogates.node_surrogates" in compiled  # surrogates: yes
    for general in (
        "_grow._node_split_general",
        "_categorical.categorical_split",
        "_surrogates.route_missing",
        "_categorical.categorical_surrogate",
    ):
        assert f"statlearning.tree.{general}" not in compiled
    # no numpy sort and no slice assignment (their compiled error paths format strings)
    assert not any("sort" in k and k.startswith("numba.") for k in compiled)
    assert not any("raise_with_shape_context" in k for k in compiled)
