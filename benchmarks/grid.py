"""The benchmark grid: every registered model (and the unsupervised estimators) over n and p.

Usage (through the runner)::

    python benchmarks/run.py --grid [FAMILY ...] [--sizes 1000,10000,100000,1000000]
                             [--features 10,100] [--limit 30] [--models NAME,...]
                             [--no-record]

The models are those of the command line's registry (``statlearning models``), so a family
that registers its models joins the grid without an edit here; the unsupervised estimators
(which ``compare`` does not run) are listed in :data:`UNSUPERVISED`. Each model is run as
``compare`` runs it (its registered hyper-parameters, standardised first when it says so)
against the peer in :data:`PEERS`, configured alike (same hyper-parameters and
preprocessing); a model without a peer is timed alone. For every n ∈ ``--sizes`` and
p ∈ ``--features``:

* the data are Gaussian (:func:`workloads.linear_gaussian` for regression, a logistic model
  for two classes, ``exp`` of a linear model for positive responses, blobs for clustering),
  with 20 % more rows held out (at most 100,000) for the accuracy check;
* each side is fitted once untimed at the smallest size (imports, compilation), then fitted
  and used to predict, timed; calls under a second are repeated, at least three times and
  until they fill 0.3 s (at most 25 times; calls under 10 ms in batches that each span
  10 ms, as :mod:`timeit` does), and the median is kept;
* the accuracy check compares held-out R² or accuracy (ours at least the peer's less one
  point, 0.01) or, unsupervised, the objective on the training rows (k-means' inertia per row,
  the mixture's mean log-likelihood, the variance the components keep: ours within 1 % of the
  peer's); different local optima of randomised starts can trip it, and are then named;
* peak memory is the tracemalloc peak of one further fit, taken when the fit took under 10 s;
* a size is skipped once the previous one took more than ``--limit`` / 10 seconds on the
  slower side, to fit or to predict (the next, ten times larger, would exceed the limit),
  and recorded as skipped.

One table per family is printed (rows: models; columns: n × p; cells: fit ratio ours/peer,
then the predict ratio), followed by the absolute times, and appended to ``RESULTS.md``.
"""

from __future__ import annotations

import statistics
import time
import timeit
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from timing import peak_fit_bytes
from timing import timed as _timed

#: Default grid.
SIZES = (1_000, 10_000, 100_000, 1_000_000)
FEATURES = (10, 100)
LIMIT = 30.0
HOLDOUT_CAP = 100_000
ACCURACY_TOL = 0.01


# ---------------------------------------------------------------------------------- peers


def _scaled(estimator):
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), estimator)


def _sk(module: str, name: str, scaled: bool = False, **params) -> Callable[[], object]:
    """A factory of ``sklearn.<module>.<name>(**params)``, standardised first if ``scaled``."""

    def make():
        import importlib

        cls = getattr(importlib.import_module(f"sklearn.{module}"), name)
        estimator = cls(**params)
        return _scaled(estimator) if scaled else estimator

    make.label = f"sklearn {name}({', '.join(f'{k}={v!r}' for k, v in params.items())})" + (
        " after StandardScaler" if scaled else ""
    )
    return make


def _sk_tree_ensemble(name: str, **params) -> Callable[[], object]:
    def make():
        from sklearn import ensemble, tree

        base = (
            tree.DecisionTreeRegressor() if "Regressor" in name else tree.DecisionTreeClassifier()
        )
        return getattr(ensemble, name)(base, **params)

    make.label = f"sklearn {name}(DecisionTree, {params})"
    return make


class _ComponentsByCV:
    """scikit-learn's way to do ``pls``'s CV choice: a 10-fold grid search over every number of
    components ``1 … min(n − 1, p)`` (the rows a fold leaves bound it as ``pls`` does)."""

    def __init__(self, kind: str):
        self.kind = kind
        self.label = (
            "sklearn GridSearchCV(StandardScaler + PCA + LinearRegression, every n_components, "
            "cv=10)"
            if kind == "pcr"
            else "sklearn GridSearchCV(PLSRegression, every n_components, cv=10)"
        )

    def __call__(self):
        return self

    def fit(self, X, y):
        from sklearn.cross_decomposition import PLSRegression
        from sklearn.decomposition import PCA
        from sklearn.linear_model import LinearRegression
        from sklearn.model_selection import GridSearchCV, KFold
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        top = min(X.shape[0] - X.shape[0] // 10 - 1, X.shape[1])
        if self.kind == "pcr":
            model = make_pipeline(StandardScaler(), PCA(svd_solver="full"), LinearRegression())
            grid = {"pca__n_components": list(range(1, top + 1))}
        else:
            model, grid = PLSRegression(scale=True), {"n_components": list(range(1, top + 1))}
        search = GridSearchCV(model, grid, cv=KFold(10), scoring="neg_mean_squared_error")
        self.estimator_ = search.fit(X, y)
        return self

    def predict(self, X):
        return np.asarray(self.estimator_.predict(X)).ravel()


_RPART_SK = {"min_samples_split": 20, "min_samples_leaf": 7}

#: The peer of each registered model, configured as the registry configures ours.
PEERS: dict[str, Callable[[], object]] = {
    "linear_regression": _sk("linear_model", "LinearRegression"),
    "logistic_regression": _sk(
        "linear_model", "LogisticRegression", C=np.inf, solver="newton-cholesky"
    ),
    # like for like: ours stops at a projected gradient of 1e-8 (scikit-learn's tol is the same
    # test, 1e-4 by default: its coefficients are then ~1e-4 from the optimum)
    "logistic_regression_l2": _sk(
        "linear_model", "LogisticRegression", scaled=True, C=1.0, tol=1e-8
    ),
    "logistic_regression_l1": _sk(
        "linear_model", "LogisticRegression", scaled=True, penalty="l1", C=1.0, solver="saga"
    ),
    # like for like: ours runs max_iter epochs unless the classes separate (no tolerance rule)
    "perceptron": _sk("linear_model", "Perceptron", scaled=True, tol=None, max_iter=1000),
    "least_squares_classifier": _sk("linear_model", "RidgeClassifier", alpha=0.0),
    "ridge": _sk("linear_model", "Ridge", scaled=True, alpha=1.0),
    "ridge_cv": _sk(
        "linear_model",
        "RidgeCV",
        scaled=True,
        alphas=(0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0),
    ),
    "huber_regression": _sk("linear_model", "HuberRegressor", epsilon=1.35, alpha=0.0),
    "lad_regression": _sk(
        "linear_model", "QuantileRegressor", quantile=0.5, alpha=0.0, solver="highs"
    ),
    "bayesian_linear_regression": _sk("linear_model", "BayesianRidge", scaled=True),
    "lasso": _sk("linear_model", "Lasso", scaled=True, alpha=1.0),
    "elastic_net": _sk("linear_model", "ElasticNet", scaled=True, alpha=1.0),
    "lasso_cv": _sk("linear_model", "LassoCV", scaled=True, cv=5),
    "elastic_net_cv": _sk("linear_model", "ElasticNetCV", scaled=True, cv=5),
    "glm_gamma_log": _sk("linear_model", "GammaRegressor", alpha=0.0, solver="newton-cholesky"),
    "gaussian_nb": _sk("naive_bayes", "GaussianNB"),
    "lda": _sk("discriminant_analysis", "LinearDiscriminantAnalysis"),
    "qda": _sk("discriminant_analysis", "QuadraticDiscriminantAnalysis"),
    "gaussian_bayes_classifier": _sk("discriminant_analysis", "QuadraticDiscriminantAnalysis"),
    "pcr": _ComponentsByCV("pcr"),
    "pls": _ComponentsByCV("pls"),
    "knn_classifier": _sk("neighbors", "KNeighborsClassifier", scaled=True),
    "knn_regressor": _sk("neighbors", "KNeighborsRegressor", scaled=True),
    "decision_tree_regressor": _sk("tree", "DecisionTreeRegressor", **_RPART_SK),
    "decision_tree_classifier": _sk("tree", "DecisionTreeClassifier", **_RPART_SK),
    "random_forest_regressor": _sk(
        "ensemble", "RandomForestRegressor", max_features=1 / 3, random_state=0
    ),
    "random_forest_classifier": _sk(
        "ensemble", "RandomForestClassifier", max_features="sqrt", random_state=0
    ),
    "bagging_regressor": _sk_tree_ensemble("BaggingRegressor", n_estimators=100, random_state=0),
    "bagging_classifier": _sk_tree_ensemble("BaggingClassifier", n_estimators=100, random_state=0),
    "adaboost_classifier": _sk("ensemble", "AdaBoostClassifier", n_estimators=100),
    "gradient_boosting_regressor": _sk(
        "ensemble", "GradientBoostingRegressor", n_estimators=100, max_depth=3
    ),
    "gradient_boosting_classifier": _sk(
        "ensemble", "GradientBoostingClassifier", n_estimators=100, max_depth=3
    ),
    "svc": _sk("svm", "SVC", scaled=True),
    "svr": _sk("svm", "SVR", scaled=True),
    "kernel_ridge": _sk("kernel_ridge", "KernelRidge", scaled=True, kernel="rbf", alpha=1.0),
    "mlp_classifier": _sk(
        "neural_network", "MLPClassifier", scaled=True, early_stopping=True, max_iter=500
    ),
    "mlp_regressor": _sk(
        "neural_network", "MLPRegressor", scaled=True, solver="lbfgs", alpha=1.0, max_iter=500
    ),
}


@dataclass
class Unsupervised:
    """An unsupervised estimator of the grid, its peer and how to score it."""

    name: str
    family: str
    ours: Callable[[], object]
    peer: Callable[[], object] | None
    kind: str  # "cluster" (score: -inertia or ARI-free objective), "transform", "density"
    max_n: int = 1_000_000


def _ours(module: str, name: str, **params):
    def make():
        import importlib

        return getattr(importlib.import_module(f"statlearning.{module}"), name)(**params)

    return make


#: Unsupervised estimators (not in the command line's registry).
UNSUPERVISED: tuple[Unsupervised, ...] = (
    Unsupervised(
        "kmeans", "cluster", _ours("cluster", "KMeans", n_clusters=10, random_state=0),
        _sk("cluster", "KMeans", n_clusters=10, random_state=0), "cluster",
    ),
    Unsupervised(
        "gaussian_mixture", "mixture",
        _ours("mixture", "GaussianMixture", n_components=3, random_state=0),
        _sk("mixture", "GaussianMixture", n_components=3, random_state=0), "density",
    ),
    Unsupervised(
        "pca", "decomposition", _ours("decomposition", "PCA", n_components=5),
        _sk("decomposition", "PCA", n_components=5), "transform",
    ),
    Unsupervised(
        "agglomerative_ward", "cluster",
        _ours("cluster", "AgglomerativeClustering", n_clusters=5, linkage="ward"),
        _sk("cluster", "AgglomerativeClustering", n_clusters=5, linkage="ward"), "labels",
        max_n=20_000,
    ),
    Unsupervised(
        "kernel_pca_rbf", "decomposition",
        _ours("decomposition", "KernelPCA", n_components=10, kernel="rbf"),
        _sk("decomposition", "KernelPCA", n_components=10, kernel="rbf"), "transform",
        max_n=10_000,
    ),
)  # fmt: skip


# ------------------------------------------------------------------------------------ data


def _data(task: str, target: str, n: int, p: int, seed: int = 0):
    """``(X, y)`` with ``n`` training rows followed by the held-out rows."""
    rng = np.random.default_rng(seed)
    m = n + min(n // 5, HOLDOUT_CAP)
    beta = rng.standard_normal(p) / np.sqrt(p)
    X = rng.standard_normal((m, p))
    eta = X @ beta
    if task == "classification":
        y = np.where(rng.random(m) < 1.0 / (1.0 + np.exp(-(0.5 + 2.0 * eta))), "b", "a")
        return X, y.astype(object)
    if target == "positive":
        return X, np.exp(0.5 * eta + 0.3 * rng.standard_normal(m))
    if task == "cluster":
        centres = 3.0 * rng.standard_normal((10, p))
        return X + centres[rng.integers(0, 10, m)], None
    return X, 1.5 + eta + 0.5 * rng.standard_normal(m)


def _score(task, estimator, X, y):
    if task == "classification":
        return float(np.mean(np.asarray(estimator.predict(X)) == y))
    pred = np.asarray(estimator.predict(X), dtype=float).ravel()
    return float(1.0 - np.sum((y - pred) ** 2) / np.sum((y - y.mean()) ** 2))


def _unsupervised_score(kind, estimator, X):
    if kind == "cluster":
        return -float(estimator.inertia_) / X.shape[0]
    if kind == "density":
        return float(estimator.score(X))
    if kind == "transform":
        Z = estimator.transform(X)
        return float(np.sum(np.var(Z, axis=0)))
    return 0.0  # labels: no objective to compare (timing only)


# ---------------------------------------------------------------------------------- timing


#: Calls under a second are repeated (median kept) at least three times and until they fill
#: this many seconds (at most :data:`MAX_REPEATS` times): a sub-millisecond predict timed
#: three times is mostly noise. Calls under :data:`BATCH_SECONDS` are timed in batches of
#: back-to-back calls (as :mod:`timeit` does), so that each timing spans at least that long.
REPEAT_BUDGET = 0.3
MAX_REPEATS = 25
BATCH_SECONDS = 0.01


def _median_seconds(call, first: float | None = None) -> float:
    """Median seconds of ``call()`` (``first``: a timing already taken), repeated per
    :data:`REPEAT_BUDGET`, in batches per :data:`BATCH_SECONDS`."""
    first = _timed(call) if first is None else first
    if first >= 1.0:
        return first
    number = max(1, int(BATCH_SECONDS / max(first, 1e-7)))
    repeat = int(min(MAX_REPEATS, max(3, REPEAT_BUDGET / max(first * number, 1e-7))))
    per_call = timeit.Timer(call).repeat(repeat=repeat, number=number)
    return statistics.median(t / number for t in per_call)


def _fit_seconds(make, X, y):
    est = make()
    seconds = _timed(lambda: est.fit(X) if y is None else est.fit(X, y))
    seconds = _median_seconds(
        lambda: make().fit(X) if y is None else make().fit(X, y), first=seconds
    )
    return est, seconds


@dataclass
class Cell:
    n: int
    p: int
    fit: tuple[float | None, float | None] = (None, None)
    predict: tuple[float | None, float | None] = (None, None)
    memory: tuple[int | None, int | None] = (None, None)
    score: tuple[float | None, float | None] = (None, None)
    note: str = ""

    relative: bool = False  # objectives (unsupervised): the tolerance is 1 % of the peer's

    @property
    def mismatch(self) -> bool:
        ours, peer = self.score
        if ours is None or peer is None:
            return False
        tol = ACCURACY_TOL * abs(peer) if self.relative else ACCURACY_TOL
        return not ours >= peer - tol


@dataclass
class Row:
    name: str
    family: str
    ours_label: str
    peer_label: str
    cells: list[Cell] = field(default_factory=list)


def _run_side(make, X, y, Xt, yt, task, kind, measure_memory):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est, fit_s = _fit_seconds(make, X, y)
        if kind is None:
            pred_s = _median_seconds(lambda: est.predict(Xt))
            score = _score(task, est, Xt, yt)
        else:
            transform = getattr(est, "transform", None) or getattr(est, "predict", None)
            pred_s = _median_seconds(lambda: transform(X)) if transform is not None else None
            score = _unsupervised_score(kind, est, X)
        mem = peak_fit_bytes(make, X, y) if measure_memory and fit_s < 10.0 else None
    return fit_s, pred_s, mem, score


def run_row(name, family, ours, peer, task, target, kind, sizes, features, limit, log):
    """Time one model over the grid."""
    label = getattr(peer, "label", "—") if peer is not None else "no peer"
    row = Row(name, family, f"statlearning {name}", label)
    # warm-up, untimed: imports, caches, compilation
    X_all, y_all = _data("cluster" if kind else task, target, min(sizes), min(features))
    for make in (ours, peer):
        if make is not None:
            try:
                y = None if kind else y_all[: min(sizes)]
                _run_side(
                    make,
                    X_all[: min(sizes)],
                    y,
                    X_all[min(sizes) :],
                    None if kind else y_all[min(sizes) :],
                    task,
                    kind,
                    False,
                )
            except Exception:  # recorded by the timed run below
                pass
    for p in features:
        skip = False
        for n in sizes:
            cell = Cell(n, p, relative=kind is not None)
            row.cells.append(cell)
            if skip or (kind == "labels" and n > 20_000):
                cell.note = "skipped (over the time limit)"
                continue
            X_all, y_all = _data("cluster" if kind == "cluster" else task, target, n, p)
            X, Xt = X_all[:n], X_all[n:]
            y, yt = (None, None) if y_all is None or kind else (y_all[:n], y_all[n:])
            if kind is not None:
                y = None
            slowest = 0.0
            results = []
            for side, make in (("ours", ours), ("peer", peer)):
                if make is None:
                    results.append((None, None, None, None))
                    continue
                try:
                    results.append(_run_side(make, X, y, Xt, yt, task, kind, True))
                    slowest = max(slowest, results[-1][0], results[-1][1] or 0.0)
                except Exception as exc:  # a failing side is recorded, the grid goes on
                    results.append((None, None, None, None))
                    cell.note = f"{side} failed: {type(exc).__name__}: {str(exc)[:60]}"
            (fo, po, mo, so), (fp, pp, mp, sp) = results
            cell.fit, cell.predict, cell.memory, cell.score = (fo, fp), (po, pp), (mo, mp), (so, sp)
            log(f"{name} n={n:,} p={p}: fit {_s(fo)} / {_s(fp)}, predict {_s(po)} / {_s(pp)}")
            if slowest * 10 > limit:
                skip = True
    return row


def _s(x):
    return "—" if x is None else f"{x:.3g} s"


def _ratio(a, b):
    if a is None or b is None or b <= 0:
        return "—"
    return f"{a / b:.2f}"


def family_names() -> list[str]:
    """The families the grid knows: the registry's and the unsupervised rows'."""
    from statlearning._registry import load_families, registered_models

    load_families()
    return sorted({s.family for s in registered_models()} | {u.family for u in UNSUPERVISED})


def grid_rows(families=None, sizes=SIZES, features=FEATURES, limit=LIMIT, log=print, models=None):
    """Run the grid (only the rows named in ``models`` when given); return the rows grouped
    by family."""
    from statlearning._registry import load_families, registered_models
    from statlearning.cli._compare import build_estimator

    load_families()
    rows: dict[str, list[Row]] = {}
    for spec in registered_models():
        if (families and spec.family not in families) or (models and spec.name not in models):
            continue

        def ours(spec=spec):
            return build_estimator(spec)

        peer = PEERS.get(spec.name)
        target = getattr(spec, "target", "any")
        widths = (1,) if spec.rows == "one_feature" else features  # one-predictor smoothers
        row = run_row(
            spec.name,
            spec.family,
            ours,
            peer,
            spec.task,
            target,
            None,
            sizes,
            widths,
            limit,
            log,
        )
        rows.setdefault(spec.family, []).append(row)
    for u in UNSUPERVISED:
        if (families and u.family not in families) or (models and u.name not in models):
            continue
        usable = tuple(n for n in sizes if n <= u.max_n)
        row = run_row(
            u.name,
            u.family,
            u.ours,
            u.peer,
            "cluster",
            "any",
            u.kind,
            usable,
            features,
            limit,
            log,
        )
        rows.setdefault(u.family, []).append(row)
    return rows


def markdown(rows: dict[str, list[Row]], command: str) -> str:
    """One ratio table per family, then the absolute times and any accuracy mismatch."""
    out = []
    for family, family_rows in rows.items():
        shapes = sorted(
            {(c.n, c.p) for r in family_rows for c in r.cells}, key=lambda s: (s[1], s[0])
        )
        head = " | ".join(f"{n:,} × {p}" for n, p in shapes)
        out.append(f"\n### {family}\n")
        out.append(
            "Cells: fit ours/peer (predict ours/peer); `—` no peer or skipped; "
            "`!` held-out score more than one point below the peer's.\n"
        )
        out.append(f"| model | peer | {head} |")
        out.append("|---|---|" + "---|" * len(shapes))
        for r in family_rows:
            by_shape = {(c.n, c.p): c for c in r.cells}
            cells = []
            for shape in shapes:
                c = by_shape.get(shape)
                if c is None or c.fit[0] is None:
                    cells.append("—" if c is None or not c.note else "skip")
                    continue
                flag = " !" if c.mismatch else ""
                cells.append(f"{_ratio(*c.fit)} ({_ratio(*c.predict)}){flag}")
            out.append(f"| {r.name} | {r.peer_label} | " + " | ".join(cells) + " |")
        out.append("\n<details><summary>absolute times (s), peak MiB, scores</summary>\n")
        out.append(
            "| model | n × p | fit ours | fit peer | predict ours | predict peer | "
            "MiB ours | MiB peer | score ours | score peer | note |"
        )
        out.append("|---|---|---|---|---|---|---|---|---|---|---|")
        for r in family_rows:
            for c in r.cells:
                mib = [("—" if m is None else f"{m / 2**20:.1f}") for m in c.memory]
                sc = [("—" if s is None else f"{s:.4f}") for s in c.score]
                out.append(
                    f"| {r.name} | {c.n:,} × {c.p} | {_s(c.fit[0])} | {_s(c.fit[1])} | "
                    f"{_s(c.predict[0])} | {_s(c.predict[1])} | {mib[0]} | {mib[1]} | {sc[0]} | "
                    f"{sc[1]} | {c.note} |"
                )
        out.append("\n</details>")
    return (
        f"\n## Grid, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n\n`{command}`\n"
        + "\n".join(out)
        + "\n"
    )
