"""scikit-learn's estimator checks over every public estimator (legacy checks on)."""

from __future__ import annotations

import warnings

import pytest
from sklearn.base import is_classifier, is_clusterer
from sklearn.utils import get_tags
from sklearn.utils.estimator_checks import parametrize_with_checks

from statlearning.cluster import (
    DBSCAN,
    AgglomerativeClustering,
    KernelKMeans,
    KMeans,
    MiniBatchKMeans,
    SpectralClustering,
)
from statlearning.cross_decomposition import (
    CCA,
    KernelCCA,
    PCRegression,
    PLSCanonical,
    PLSRegression,
)
from statlearning.decomposition import PCA, KernelPCA
from statlearning.discriminant_analysis import (
    KernelFisherDiscriminant,
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)
from statlearning.ensemble import (
    AdaBoostClassifier,
    BaggingClassifier,
    BaggingRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from statlearning.exceptions import NumericalWarning, RankDeficientWarning
from statlearning.feature_selection import (
    BestSubsetSelector,
    FilterSelector,
    LassoPathSelector,
    ReliefF,
    StepwiseSelector,
    WrapperSelector,
    mutual_info_scores,
)
from statlearning.formula import FormulaTransformer
from statlearning.gam import GAMClassifier, GAMRegressor
from statlearning.kernel_methods import KernelLogisticRegression, KernelRidge, PrototypeFeatures
from statlearning.kernels import RBF, KernelCenterer, Polynomial
from statlearning.linear_model import (
    BayesianLinearRegression,
    ElasticNet,
    ElasticNetCV,
    GLMRegressor,
    HuberRegressor,
    LADRegressor,
    Lasso,
    LassoCV,
    LeastSquaresClassifier,
    LinearRegression,
    LogisticRegression,
    Perceptron,
    Ridge,
    RidgeCV,
    SGDClassifier,
    SGDRegressor,
)
from statlearning.mars import MARSClassifier, MARSRegressor
from statlearning.mixture import GaussianMixture
from statlearning.naive_bayes import (
    BernoulliNB,
    CategoricalNB,
    GaussianNB,
    MixedNB,
    MultinomialNB,
)
from statlearning.neighbors import (
    BayesClassifier,
    KernelDensity,
    KNeighborsClassifier,
    KNeighborsRegressor,
)
from statlearning.neural_network import MLPClassifier, MLPRegressor
from statlearning.preprocessing import (
    BSplineFeatures,
    NaturalSplineFeatures,
    PolynomialFeatures,
    StepFeatures,
    TruncatedPowerFeatures,
)
from statlearning.smoothing import KernelRegression, LocalRegression, SmoothingSpline
from statlearning.svm import SVC, SVR, NuSVC, NuSVR
from statlearning.tree import (
    DecisionTreeClassifier,
    DecisionTreeClassifierCV,
    DecisionTreeRegressor,
    DecisionTreeRegressorCV,
)

# Every public estimator, in each configuration whose code path differs.
ESTIMATORS = [
    GAMRegressor(),
    GAMRegressor(criterion="reml"),
    GAMRegressor(family="poisson"),
    GAMClassifier(),
    GAMRegressor(method="backfitting"),
    GAMClassifier(method="backfitting"),
    MARSRegressor(),
    MARSRegressor(max_degree=2),
    MARSClassifier(),
    LinearRegression(),
    LinearRegression(solver="svd"),
    LinearRegression(solver="normal"),
    LinearRegression(solver="gd"),
    LinearRegression(fit_intercept=False),
    LogisticRegression(),
    LogisticRegression(solver="lbfgs"),
    LogisticRegression(solver="gd"),
    LogisticRegression(solver="gd", learning_rate="wolfe"),
    LogisticRegression(penalty="l2"),
    LogisticRegression(penalty="l2", solver="lbfgs"),
    LogisticRegression(penalty="l2", solver="gd"),
    LogisticRegression(penalty="l2", solver="cd"),
    LogisticRegression(penalty="l1", solver="cd"),
    LogisticRegression(penalty="elasticnet", l1_ratio=0.5, solver="cd"),
    LogisticRegression(fit_intercept=False),
    Perceptron(),
    Perceptron(shuffle=False, fit_intercept=False),
    LeastSquaresClassifier(),
    LeastSquaresClassifier(fit_intercept=False),
    LeastSquaresClassifier(zero_label="positive"),
    SGDRegressor(),
    SGDRegressor(loss="huber", epsilon=1.0, penalty="elasticnet", batch_size=8, average=True),
    SGDClassifier(),
    SGDClassifier(loss="log_loss", penalty="l1", learning_rate="adaptive", average=3),
    SGDClassifier(loss="tanh", learning_rate="constant", eta0=0.1, batch_size=4),
    SGDClassifier(loss="log_loss", step_rule="adam", batch_size=8),
    SGDRegressor(step_rule="nesterov", penalty="elasticnet", batch_size=4, eta0=0.001),
    Ridge(),
    Ridge(solver="svd"),
    Ridge(solver="dual"),
    Ridge(fit_intercept=False),
    RidgeCV(),
    RidgeCV(criterion="gcv"),
    RidgeCV(cv=3),
    HuberRegressor(),
    HuberRegressor(solver="irls"),
    HuberRegressor(alpha=1.0, fit_intercept=False),
    LADRegressor(),
    LADRegressor(solver="irls"),
    BayesianLinearRegression(),
    BayesianLinearRegression(estimate_hyperparameters=True),
    Lasso(),
    Lasso(fit_intercept=False),
    Lasso(selection="random", random_state=0),
    ElasticNet(),
    ElasticNet(l1_ratio=0.0),
    LassoCV(),
    ElasticNetCV(),
    ElasticNetCV(l1_ratio=[0.2, 0.9], rule="1se"),
    GLMRegressor(),
    GLMRegressor(fit_intercept=False),
    GLMRegressor(family="poisson"),
    GLMRegressor(family="gamma"),
    GLMRegressor(family="gamma", link="log"),
    GLMRegressor(family="inverse_gaussian"),
    GLMRegressor(family="inverse_gaussian", link="log"),
    GLMRegressor(family="poisson", alpha=0.1),
    GLMRegressor(family="poisson", alpha=0.1, solver="irls"),
    GLMRegressor(family="poisson", alpha=0.1, l1_ratio=0.5),
    GaussianNB(),
    GaussianNB(ddof=1),
    BernoulliNB(),
    BernoulliNB(alpha=0.0),
    MultinomialNB(),
    MultinomialNB(alpha=0.0),
    CategoricalNB(),
    CategoricalNB(alpha=0.0, missing="count"),
    CategoricalNB(handle_unknown="ignore", min_categories=4),
    MixedNB(),
    MixedNB(categorical_features=[0], ddof=1),
    GaussianNB(decision_threshold=0.3),
    BernoulliNB(decision_threshold=0.5),
    MultinomialNB(decision_threshold=0.5),
    CategoricalNB(decision_threshold=0.5),
    MixedNB(categorical_features=[0], decision_threshold=0.5),
    LinearDiscriminantAnalysis(),
    LinearDiscriminantAnalysis(solver="eigen"),
    LinearDiscriminantAnalysis(solver="eigen", shrinkage="auto"),
    LinearDiscriminantAnalysis(solver="eigen", shrinkage=0.5),
    LinearDiscriminantAnalysis(covariance="total"),
    LinearDiscriminantAnalysis(solver="eigen", covariance="total", shrinkage="auto"),
    LinearDiscriminantAnalysis(n_components=1),
    QuadraticDiscriminantAnalysis(),
    KernelFisherDiscriminant(),
    KernelFisherDiscriminant(kernel="linear", reg=1e-2),
    KernelFisherDiscriminant(kernel="laplacian", reg=0.1, n_components=1),
    QuadraticDiscriminantAnalysis(reg_param=0.1),
    QuadraticDiscriminantAnalysis(include_log_det=False),
    BestSubsetSelector(),
    BestSubsetSelector(method="branch_and_bound"),
    BestSubsetSelector(criterion="cp", convention="islr"),
    BestSubsetSelector(criterion="adjr2", fit_intercept=False),
    BestSubsetSelector(criterion="cv", cv=3, rule="1se"),
    StepwiseSelector(),
    StepwiseSelector(direction="backward", criterion="aic"),
    StepwiseSelector(direction="both", criterion="aic"),
    StepwiseSelector(criterion="cp", stop="criterion"),
    StepwiseSelector(criterion="cv", cv=3),
    StepwiseSelector(estimator=GLMRegressor(), criterion="aic"),
    StepwiseSelector(
        estimator=GLMRegressor(family="poisson"),
        direction="backward",
        criterion="bic",
        stop="criterion",
    ),
    FilterSelector(mutual_info_scores, k=2),
    FilterSelector(mutual_info_scores, p_value=0.2, n_permutations=19, random_state=0),
    FilterSelector(ReliefF(n_neighbors=3), k=1),
    ReliefF(),
    ReliefF(n_features_to_select=1, n_neighbors=1, diff_power=2, max_iter=20, random_state=0),
    WrapperSelector(LinearRegression(), cv=3),
    WrapperSelector(
        LinearRegression(), direction="backward", cv=0.3, random_state=0, rule="1se"
    ),
    LassoPathSelector(),
    LassoPathSelector(alpha=0.1),
    LassoPathSelector(max_features=1, standardize=False),
    PCA(),
    PCA(n_components=2),
    PCA(scale=True),
    PCA(svd_solver="full"),
    PCA(n_components=1, svd_solver="randomized", random_state=0),
    PCA(n_components="cumulative:0.95"),
    PCA(n_components="individual:0.25", scale=True),
    PCA(n_components="kaiser"),
    PCA(n_components="elbow"),
    PCA(n_components=0.9),
    PCA(whiten=True),
    PCA(n_components=2, whiten=True, scale=True, svd_solver="full"),
    KernelPCA(),
    KernelPCA(n_components=2, kernel="rbf", gamma=0.5),
    KernelPCA(kernel="precomputed"),
    KernelPCA(n_components=1, kernel="rbf", eigen_solver="arpack", random_state=0),
    KernelPCA(n_components=1, kernel="rbf", eigen_solver="randomized", random_state=0),
    KernelPCA(n_components="kaiser", kernel="poly", degree=2),
    KernelPCA(kernel="rbf", fit_inverse_transform=True),
    PLSRegression(),
    PLSRegression(n_components=1, algorithm="simpls"),
    PLSRegression(n_components=1, algorithm="kernel", scale=False),
    PLSRegression(n_components="cv", cv=3, selection="1se"),
    PLSCanonical(n_components=1),
    PCRegression(),
    PCRegression(n_components=2, scale=False),
    PCRegression(n_components="cv", cv=3),
    PCRegression(n_components="cumulative:0.95"),
    CCA(),
    CCA(scale=False),
    KernelCCA(),
    KernelCCA(kernel="linear", kernel_y="poly", reg=1.0),
    KMeans(),
    KMeans(n_clusters=3, init="random", random_state=0),
    KMeans(n_clusters=2, tol=0.0),
    KMeans(algorithm="elkan"),
    KernelKMeans(),
    KernelKMeans(n_clusters=3, kernel="linear", init="random", tol=1e-4, random_state=0),
    KernelKMeans(n_clusters=2, kernel="laplacian", n_init=2, random_state=0),
    KernelKMeans(n_clusters=3, kernel="poly", degree=2, n_jobs=2, random_state=0),
    KernelCenterer(),
    KernelRidge(),
    KernelRidge(kernel="rbf", gamma=0.5, fit_intercept=True),
    KernelRidge(kernel="precomputed"),
    KernelRidge(kernel=2.0 * RBF(0.3) + Polynomial(degree=2)),
    KernelLogisticRegression(),
    KernelLogisticRegression(kernel="linear", C=10.0),
    PrototypeFeatures(),
    PrototypeFeatures(kernel="poly", prototypes=5, random_state=0),
    KernelDensity(),
    KernelDensity(bandwidth="silverman", kernel="epanechnikov"),
    KernelDensity(kernel="exponential", algorithm="kd_tree", atol=1e-6),
    KernelDensity(bandwidth="cv", cv=3),
    MiniBatchKMeans(),
    MiniBatchKMeans(n_clusters=3, init="random", batch_size=20, tol=1e-3, max_no_improvement=None),
    DBSCAN(),
    DBSCAN(border="nearest_core"),
    DBSCAN(metric="manhattan"),
    DBSCAN(metric="chebyshev"),
    AgglomerativeClustering(),
    AgglomerativeClustering(linkage="single"),
    AgglomerativeClustering(linkage="complete"),
    AgglomerativeClustering(linkage="average"),
    AgglomerativeClustering(linkage="weighted"),
    AgglomerativeClustering(linkage="centroid"),
    AgglomerativeClustering(linkage="median"),
    AgglomerativeClustering(ward_height="sse_increase"),
    AgglomerativeClustering(linkage="average", metric="manhattan"),
    AgglomerativeClustering(linkage="average", metric="cosine"),
    SpectralClustering(),
    SpectralClustering(laplacian="unnormalized"),
    SpectralClustering(laplacian="ng_jordan_weiss"),
    SpectralClustering(laplacian="kernel"),
    SpectralClustering(affinity="nearest_neighbors"),
    SpectralClustering(affinity="epsilon", eps=1.0),
    GaussianMixture(),
    GaussianMixture(covariance_type="tied"),
    GaussianMixture(covariance_type="diag"),
    GaussianMixture(covariance_type="spherical"),
    GaussianMixture(init_params="random"),
    GaussianMixture(n_components=2, n_init=2, random_state=0),
    KNeighborsClassifier(),
    KNeighborsClassifier(algorithm="brute"),
    KNeighborsClassifier(weights="distance", tie_break="all"),
    KNeighborsClassifier(metric="cosine"),
    KNeighborsClassifier(metric="manhattan", algorithm="kd_tree"),
    KNeighborsClassifier(4, decision_threshold=0.5),
    KNeighborsClassifier(weights="kernel"),
    KNeighborsClassifier(3, weights="kernel", kernel="linear", tie_break="all"),
    KNeighborsRegressor(),
    KNeighborsRegressor(weights="distance", algorithm="brute"),
    KNeighborsRegressor(metric="minkowski", p=3, tie_break="all"),
    BayesClassifier(),
    DecisionTreeClassifier(),
    DecisionTreeClassifier(criterion="entropy"),
    DecisionTreeClassifier(criterion="misclassification", max_depth=3),
    DecisionTreeClassifier(criterion="gain_ratio"),
    DecisionTreeClassifier(criterion="chi2", max_leaf_nodes=5),
    DecisionTreeClassifier(max_leaf_nodes=5),
    DecisionTreeClassifier(min_samples_split=20, min_samples_leaf=7, cp=0.01),
    DecisionTreeClassifier(max_features="sqrt", random_state=0),
    DecisionTreeRegressor(),
    DecisionTreeRegressor(criterion="absolute_error"),
    DecisionTreeRegressor(max_leaf_nodes=6, min_samples_leaf=3),
    DecisionTreeRegressor(min_samples_split=20, min_samples_leaf=7, cp=0.01),
    DecisionTreeRegressor(max_features=0.5, min_impurity_decrease=0.01, random_state=0),
    DecisionTreeRegressor(ccp_alpha=0.01),
    DecisionTreeClassifier(ccp_alpha=0.01),
    DecisionTreeRegressor(cp=0.01, xval=3, random_state=0),
    DecisionTreeClassifier(cp=0.01, xval=3, random_state=0),
    DecisionTreeRegressorCV(cv=3, random_state=0),
    DecisionTreeClassifierCV(cv=3, rule="1se", random_state=0),
    DecisionTreeRegressor(use_surrogates=False),
    DecisionTreeClassifier(use_surrogates=False),
    DecisionTreeRegressor(max_surrogates=0),
    DecisionTreeClassifier(max_surrogates=1, min_samples_leaf=3),
    DecisionTreeRegressor(tie_break="random", random_state=0),
    DecisionTreeClassifier(use_surrogates="always", max_depth=4),
    RandomForestClassifier(n_estimators=10, random_state=0),
    RandomForestClassifier(n_estimators=10, voting="hard", criterion="entropy", random_state=0),
    RandomForestClassifier(n_estimators=5, criterion="gain_ratio", random_state=0),
    RandomForestClassifier(n_estimators=5, oob_score=True, permutation_importance=True,
                           max_features=None, random_state=0),
    RandomForestRegressor(n_estimators=10, random_state=0),
    RandomForestRegressor(n_estimators=5, min_samples_split=6, oob_score=True,
                          permutation_importance=True, random_state=0),
    RandomForestRegressor(n_estimators=5, max_leaf_nodes=8, max_samples=0.5, random_state=0),
    BaggingClassifier(n_estimators=5, random_state=0),
    BaggingClassifier(n_estimators=5, voting="hard", oob_score=True, random_state=0),
    BaggingRegressor(n_estimators=5, random_state=0),
    BaggingRegressor(n_estimators=5, bootstrap=False, max_samples=0.7, random_state=0),
    GradientBoostingRegressor(n_estimators=20),
    GradientBoostingRegressor(loss="huber", n_estimators=10, max_depth=2, init="zero"),
    GradientBoostingRegressor(loss="absolute_error", n_estimators=20, max_depth=2),
    GradientBoostingClassifier(n_estimators=20),
    GradientBoostingClassifier(n_estimators=10, max_depth=2, max_features=1, random_state=0),
    AdaBoostClassifier(n_estimators=10),
    AdaBoostClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=5, learning_rate=0.5),
    SVC(),
    SVC(kernel="linear"),
    SVC(kernel="poly", class_weight="balanced"),
    SVC(probability=True, random_state=0),
    SVC(kernel="precomputed"),
    SVC(kernel="laplacian", shrinking=False),
    SVC(kernel="cosine", break_ties=True),
    SVC(C=0.5, cache_size=0.001),
    NuSVC(nu=0.3),
    NuSVC(nu=0.3, kernel="linear"),
    NuSVC(nu=0.3, probability=True, random_state=0),
    SVC(kernel=2.0 * RBF(0.3) + Polynomial(degree=2)),
    SVR(),
    SVR(kernel="linear"),
    SVR(loss="squared_epsilon_insensitive"),
    SVR(kernel="precomputed"),
    PolynomialFeatures(),
    PolynomialFeatures(degree=2, orthogonal=True),
    StepFeatures(),
    StepFeatures(breaks=[-1e9, 0.0, 1e9], right=True),
    TruncatedPowerFeatures(),
    BSplineFeatures(df=5),
    BSplineFeatures(knots=[0.0], degree=2, include_intercept=True),
    NaturalSplineFeatures(df=4),
    # one feature only: scikit-learn's checks skip it (input_tags.two_d_array is False, as its
    # IsotonicRegression); tests/smoothing checks the contract
    SmoothingSpline(),
    LocalRegression(),
    LocalRegression(span=0.5, degree=1, family="symmetric"),
    LocalRegression(span=0.2, degree=0, normalize=False),
    KernelRegression(),
    KernelRegression(bandwidth=0.5),
    MLPRegressor((20,), learning_rate_init=0.01, max_iter=500, random_state=0),
    MLPRegressor((4, 3), solver="lbfgs", activation="tanh", random_state=0),
    MLPRegressor((), solver="momentum", loss="sse", learning_rate_init=1e-4, random_state=0),
    MLPRegressor((5,), solver="adadelta", epsilon=1e-6, use_bias=False, activation="logistic",
                 random_state=0),
    MLPClassifier((5,), max_iter=300, random_state=0),
    MLPClassifier((5,), solver="lbfgs", random_state=0),
    MLPClassifier((), solver="rmsprop", loss="sse", learning_rate="adaptive",
                  learning_rate_init=0.01, random_state=0),
    MLPClassifier((5,), solver="adagrad", use_bias=False, learning_rate_init=0.05, random_state=0),
    MLPClassifier((3,), solver="sgd", activation="identity", learning_rate_init=0.5,
                  random_state=0),
    NuSVR(),
    NuSVR(nu=0.3, kernel="linear", C=10.0),
    FormulaTransformer(),
    FormulaTransformer("~ x0 * x1 + I(x0^2)"),
]

# Methods that need the training sample to predict keep it (DESIGN.md's documented exception):
# the neighbours, the kernel machines (support vectors, dual coefficients or prototypes: every
# training row may be one), KernelDensity (the sample itself), and KernelCenterer (the column
# means of the training Gram, one per training point); PLSRegression keeps the training scores
# x_scores_ and y_scores_ (R's plsr and scikit-learn's PLSRegression keep them: they are the
# model's description of the sample, not needed to predict).
STORES_TRAINING_DATA = (
    KernelCCA,
    PLSRegression,
    SmoothingSpline,  # one fitted value per unique x: a knot at every x is the model
    LocalRegression,  # surface="direct": every prediction is a new local fit to the sample
    KernelRegression,
    KNeighborsClassifier,
    KNeighborsRegressor,
    KernelCenterer,
    KernelFisherDiscriminant,
    KernelKMeans,
    KernelPCA,
    KernelRidge,
    KernelLogisticRegression,
    PrototypeFeatures,
    KernelDensity,
    SVC,
    NuSVC,
    SVR,
    NuSVR,
)

# An entry here needs a reason a reader would accept. One by type, one by setting:
EXPECTED_FAILED_CHECKS: dict = {
    MultinomialNB: {
        "check_decision_proba_consistency": (
            "the check fits blobs with negative entries, which are no counts (the estimator's "
            "positive_only tag, which this check ignores); decision_function is the log "
            "posterior odds, so its ranks are those of predict_proba "
            "(tests/naive_bayes/test_decision_threshold.py)"
        )
    },
}

_MOVED_THRESHOLD = (
    "with a decision threshold t other than 1/2, predict is decision_function > logit(t), not "
    "> 0: decision_function stays the log posterior odds, whatever the threshold (as "
    "scikit-learn's FixedThresholdClassifier keeps its estimator's decision_function); the rule "
    "is tested in tests/naive_bayes/test_decision_threshold.py"
)

_COUNTS_OBSERVATIONS = (
    "min_samples_split/min_samples_leaf count observations (rows of positive weight), as "
    "rpart's minsplit/minbucket and scikit-learn's trees do: for these rules an integer weight "
    "is not that many repeated rows (the split criterion and leaf values still treat it so, "
    "tested in tests/tree/test_tree_weights.py)"
)


_SGD_STEPS = (
    "a sample weight scales that sample's step, as in scikit-learn's SGD: a row of weight 2 is one "
    "step twice as long, two copies are two steps (the second from where the first ended), and "
    "the mean loss of the objective counts rows; scikit-learn marks the same check as failing "
    "for its SGD estimators (the weighted step is tested in tests/linear_model/test_sgd.py)"
)


def expected_failed_checks(estimator):
    """The expected failures of one configured estimator."""
    out = dict(EXPECTED_FAILED_CHECKS.get(type(estimator), {}))
    params = estimator.get_params()
    if isinstance(estimator, DecisionTreeClassifier | DecisionTreeRegressor) and (
        params.get("min_samples_leaf", 1) > 1 or params.get("min_samples_split", 2) > 2
    ):
        out["check_sample_weight_equivalence_on_dense_data"] = _COUNTS_OBSERVATIONS
    if isinstance(estimator, SGDClassifier | SGDRegressor):
        out["check_sample_weight_equivalence_on_dense_data"] = _SGD_STEPS
    if params.get("decision_threshold") not in (None, 0.5) and hasattr(
        estimator, "decision_function"
    ):
        out["check_classifiers_train"] = _MOVED_THRESHOLD
    return out


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=expected_failed_checks)
def test_sklearn_compatible_estimator(estimator, check):
    # The checks fit tiny and degenerate designs (1 sample, p > n) on purpose; our R-style
    # warnings about them are correct behaviour, not failures.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RankDeficientWarning)
        warnings.simplefilter("ignore", NumericalWarning)
        check(estimator)


def test_estimator_list_covers_public_api():
    """Every public estimator class of every registered family is in ESTIMATORS."""
    import importlib

    from sklearn.base import BaseEstimator

    from statlearning._registry import FAMILIES

    public = set()
    for family in FAMILIES:
        module = importlib.import_module(f"statlearning.{family}")
        for name in module.__all__:
            obj = getattr(module, name)
            if isinstance(obj, type) and issubclass(obj, BaseEstimator):
                public.add(name)
    covered = {type(e).__name__ for e in ESTIMATORS}
    assert public <= covered, f"estimators missing from the common checks: {public - covered}"


@pytest.mark.parametrize(
    "estimator", [e for e in ESTIMATORS if not isinstance(e, STORES_TRAINING_DATA)], ids=repr
)
def test_no_training_data_stored(estimator):
    """Fitted state is O(p²): nothing with a dimension of n_samples is kept."""
    import numpy as np

    rng = np.random.default_rng(0)
    n = 257  # a size no fitted attribute should have
    X = rng.normal(size=(n, 3))
    y = X @ [1.0, 2.0, 3.0] + rng.normal(size=n)
    tags = get_tags(estimator)
    if is_classifier(estimator):
        cuts = [1 / 3, 2 / 3] if tags.classifier_tags.multi_class else [0.5]
        y = np.digitize(y, np.quantile(y, cuts))
    elif tags.target_tags.positive_only:
        y = np.exp(y / 4)  # strictly positive targets (Poisson, Gamma, inverse Gaussian GLMs)
    if tags.input_tags.positive_only:
        X = np.abs(X)
    if tags.input_tags.categorical:
        X = np.round(X)
    est = estimator.fit(X, y)
    # per-sample results are output, not stored data: a clusterer's labels (DBSCAN's core
    # samples) and an ensemble's out-of-bag predictions of its training rows
    per_sample = {"oob_prediction_", "oob_decision_function_"}
    if is_clusterer(est):
        per_sample |= {"labels_", "core_sample_indices_", "components_"}
    def arrays(value):
        """Every array inside ``value`` (lists and tuples are walked)."""
        if isinstance(value, np.ndarray):
            yield value
        elif isinstance(value, list | tuple):
            if value and all(np.isscalar(v) for v in value):
                yield np.asarray(value)  # a list of n numbers is as much data as an array
            for part in value:
                yield from arrays(part)

    for name, value in vars(est).items():
        if name in per_sample:
            continue
        for part in arrays(value):
            assert n not in part.shape, f"{name} holds an array of shape {part.shape}"
